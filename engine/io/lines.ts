import type { ByteSource, ProgressCallback } from './byte-source.ts';
import { gunzipChunks, isGzip } from './gzip.ts';

/** One line of text with its 1-based line number; the line ending is removed. */
export interface Line {
  readonly text: string;
  readonly number: number;
}

/** Options for {@link readLines}. */
export interface ReadLinesOptions {
  onProgress?: ProgressCallback;
  /** Minimum bytes between progress callbacks (default 1 MiB). */
  progressEvery?: number;
}

async function* peekable(source: ByteSource, counter: { bytes: number }): AsyncGenerator<Uint8Array> {
  for await (const c of source.chunks()) {
    counter.bytes += c.length;
    yield c;
  }
}

/**
 * Streams the lines of a text file, gunzipping it on the fly when it starts with the gzip
 * magic number. Handles LF, CRLF and CR line ends, a UTF-8 BOM, and any chunk boundaries.
 * Memory is bounded by the longest line, not by the file.
 */
export async function* readLines(source: ByteSource, options: ReadLinesOptions = {}): AsyncGenerator<Line> {
  const counter = { bytes: 0 };
  const every = options.progressEvery ?? 1 << 20;
  let nextReport = every;
  const raw = peekable(source, counter);
  const first = await raw.next();
  if (first.done) return;
  const firstChunk = first.value;
  async function* rest(): AsyncGenerator<Uint8Array> {
    yield firstChunk;
    for (;;) {
      const r = await raw.next();
      if (r.done) return;
      yield r.value;
    }
  }
  const bytes = isGzip(firstChunk) ? gunzipChunks(source.name, rest()) : rest();
  const decoder = new TextDecoder('utf-8');
  let carry = '';
  let lineNo = 0;
  let first_ = true;
  let pendingCR = false;
  for await (const chunk of bytes) {
    let text = carry + decoder.decode(chunk, { stream: true });
    if (first_) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first_ = false;
    }
    if (pendingCR && text.charCodeAt(0) === 10) text = text.slice(1);
    pendingCR = false;
    let start = 0;
    for (;;) {
      const nl = nextBreak(text, start);
      if (nl < 0) break;
      lineNo++;
      yield { text: text.slice(start, nl), number: lineNo };
      if (text.charCodeAt(nl) === 13) {
        if (nl + 1 < text.length) {
          start = text.charCodeAt(nl + 1) === 10 ? nl + 2 : nl + 1;
        } else {
          start = nl + 1;
          pendingCR = true;
        }
      } else start = nl + 1;
    }
    carry = text.slice(start);
    if (options.onProgress && counter.bytes >= nextReport) {
      nextReport = counter.bytes + every;
      options.onProgress({ file: source.name, bytesRead: counter.bytes, totalBytes: source.size, records: lineNo });
    }
  }
  carry += decoder.decode();
  if (carry.length > 0) {
    lineNo++;
    yield { text: carry, number: lineNo };
  }
  options.onProgress?.({ file: source.name, bytesRead: counter.bytes, totalBytes: source.size, records: lineNo });
}

function nextBreak(text: string, from: number): number {
  const lf = text.indexOf('\n', from);
  const cr = text.indexOf('\r', from);
  if (cr < 0) return lf;
  if (lf < 0) return cr;
  return Math.min(lf, cr);
}

/** Reads every line of a (small) source into memory. */
export async function readAllLines(source: ByteSource, options: ReadLinesOptions = {}): Promise<Line[]> {
  const out: Line[] = [];
  for await (const l of readLines(source, options)) out.push(l);
  return out;
}

/** A whitespace-separated token with its 1-based column in the line. */
export interface Token {
  readonly text: string;
  readonly column: number;
}

/** Splits a line on runs of spaces/tabs (or on a given single-character delimiter), keeping columns. */
export function tokenize(line: string, delimiter?: string): Token[] {
  const out: Token[] = [];
  if (delimiter !== undefined && delimiter !== ' ') {
    let start = 0;
    for (;;) {
      const d = line.indexOf(delimiter, start);
      const end = d < 0 ? line.length : d;
      const raw = line.slice(start, end);
      const lead = raw.length - raw.trimStart().length;
      let text = raw.trim();
      // Spreadsheet exports quote fields: "A/G" → A/G ("" inside stands for one quote).
      if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1).replace(/""/g, '"');
      out.push({ text, column: start + lead + 1 });
      if (d < 0) break;
      start = d + 1;
    }
    return out;
  }
  const n = line.length;
  let i = 0;
  while (i < n) {
    while (i < n && isSpace(line.charCodeAt(i))) i++;
    if (i >= n) break;
    const s = i;
    while (i < n && !isSpace(line.charCodeAt(i))) i++;
    out.push({ text: line.slice(s, i), column: s + 1 });
  }
  return out;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 11 || c === 12;
}
