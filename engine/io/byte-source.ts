/**
 * A named stream of bytes: the only way parsers see a file. Node, a browser File and an
 * in-memory buffer all adapt to it, so the parsers stay free of Node and DOM APIs.
 */
export interface ByteSource {
  /** File name as the user knows it (used in error messages and format detection). */
  readonly name: string;
  /** Total size in bytes if known (progress is reported against it). */
  readonly size?: number;
  /** A fresh stream of the file's bytes from the start. May be called more than once. */
  chunks(): AsyncIterable<Uint8Array>;
}

/** Progress of a parse: bytes of the (possibly compressed) file consumed so far. */
export interface ParseProgress {
  readonly file: string;
  readonly bytesRead: number;
  readonly totalBytes?: number;
  readonly records: number;
}

export type ProgressCallback = (p: ParseProgress) => void;

/** A ByteSource over bytes already in memory (tests, the browser build, small files). */
export function bytesSource(name: string, bytes: Uint8Array, chunkSize = 1 << 16): ByteSource {
  return {
    name,
    size: bytes.length,
    async *chunks() {
      for (let o = 0; o < bytes.length; o += chunkSize) yield bytes.subarray(o, Math.min(bytes.length, o + chunkSize));
    },
  };
}

/** A ByteSource over a string (UTF-8 encoded). */
export function textSource(name: string, text: string, chunkSize?: number): ByteSource {
  return bytesSource(name, new TextEncoder().encode(text), chunkSize);
}

/** Reads a whole source into memory (for small companion files such as .map/.fam). */
export function readAllBytes(source: ByteSource): Promise<Uint8Array> {
  return readHeadBytes(source, Infinity);
}

/** Reads the first `max` bytes of a source (all of it when shorter), stopping the stream there. */
export async function readHeadBytes(source: ByteSource, max: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const c of source.chunks()) {
    const part = c.subarray(0, max - total);
    parts.push(part);
    total += part.length;
    if (total >= max) break;
  }
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** The lower-cased file name without directories. */
export function baseName(name: string): string {
  const i = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  return (i >= 0 ? name.slice(i + 1) : name).toLowerCase();
}
