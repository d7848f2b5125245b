import { Gunzip } from 'fflate';
import { FormatError } from './format-error.ts';

/** True when the bytes start with the gzip magic number (plain gzip and BGZF alike). */
export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * Decompresses a gzip or BGZF (multi-member) stream chunk by chunk with bounded memory.
 * A truncated or corrupt stream throws a FormatError naming the file.
 */
export async function* gunzipChunks(file: string, input: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  const gz = new Gunzip((chunk) => {
    if (chunk.length > 0) out.push(chunk);
  });
  let sawInput = false;
  try {
    for await (const chunk of input) {
      sawInput = true;
      gz.push(chunk, false);
      while (out.length > 0) yield out.shift() as Uint8Array;
    }
    gz.push(new Uint8Array(0), true);
  } catch (e) {
    if (e instanceof FormatError) throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw new FormatError(file, 0, 0, `the gzip stream is truncated or corrupt (${why})`, 'a complete gzip/bgzip file');
  }
  if (!sawInput) throw new FormatError(file, 0, 0, 'the file is empty', 'gzip-compressed data');
  while (out.length > 0) yield out.shift() as Uint8Array;
}
