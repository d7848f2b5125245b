import { Gunzip } from 'fflate';
import { FormatError } from './format-error.ts';

/** True when the bytes start with the gzip magic number (plain gzip and BGZF alike). */
export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * Decompresses a gzip or BGZF (multi-member) stream chunk by chunk with bounded memory.
 * A truncated or corrupt stream throws a FormatError naming the file and where the text broke
 * off: the line and column of the uncompressed text after the last good byte, and how many
 * compressed bytes had been read.
 */
export async function* gunzipChunks(file: string, input: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  const gz = new Gunzip((chunk) => {
    if (chunk.length > 0) out.push(chunk);
  });
  let sawInput = false;
  let compressed = 0;
  // Position in the uncompressed text of everything produced so far (1-based line and column).
  let line = 1;
  let column = 1;
  const advance = (chunk: Uint8Array) => {
    for (let k = 0; k < chunk.length; k++)
      if (chunk[k] === 10) {
        line++;
        column = 1;
      } else if ((chunk[k]! & 0xc0) !== 0x80) column++;
  };
  const next = () => {
    const chunk = out.shift() as Uint8Array;
    advance(chunk);
    return chunk;
  };
  try {
    for await (const chunk of input) {
      sawInput = true;
      compressed += chunk.length;
      gz.push(chunk, false);
      while (out.length > 0) yield next();
    }
    gz.push(new Uint8Array(0), true);
  } catch (e) {
    if (e instanceof FormatError) throw e;
    while (out.length > 0) advance(out.shift() as Uint8Array);
    const why = e instanceof Error ? e.message : String(e);
    throw new FormatError(
      file,
      line,
      column,
      `the gzip stream is truncated or corrupt (${why}) after ${compressed.toLocaleString('en')} compressed bytes; the text breaks off here`,
      'a complete gzip/bgzip file',
    );
  }
  if (!sawInput) throw new FormatError(file, 0, 0, 'the file is empty', 'gzip-compressed data');
  while (out.length > 0) yield next();
}
