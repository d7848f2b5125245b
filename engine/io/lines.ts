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
    // Where the next CR is (−1: none to the end of the text): found once, not once a line, so
    // files with LF ends are not scanned to the chunk's end on every line.
    let cr = text.indexOf('\r');
    for (;;) {
      if (cr >= 0 && cr < start) cr = text.indexOf('\r', start);
      const lf = text.indexOf('\n', start);
      const nl = cr < 0 ? lf : lf < 0 ? cr : Math.min(lf, cr);
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

/**
 * Splits a line on runs of spaces/tabs, or on a given single-character delimiter, keeping each
 * token's column. With a delimiter, fields are read as spreadsheets write CSV (RFC 4180 within a
 * line): a field in double quotes may hold the delimiter, and "" inside stands for one quote;
 * spaces around a field are dropped. Written here rather than taken from a CSV library because
 * errors name each field's column and lines are streamed with progress; tests/formats/csv-fields
 * checks it against csv-parse.
 */
export function tokenize(line: string, delimiter?: string): Token[] {
  if (delimiter !== undefined && delimiter !== ' ') return splitDelimited(line, delimiter);
  const out: Token[] = [];
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

function splitDelimited(line: string, delimiter: string): Token[] {
  const out: Token[] = [];
  const n = line.length;
  let start = 0;
  for (;;) {
    let i = start;
    while (i < n && line[i] !== delimiter && isSpace(line.charCodeAt(i))) i++;
    const column = i + 1;
    const close = line[i] === '"' ? closingQuote(line, i + 1) : -1;
    // A quoted field runs to its closing quote (an unclosed quote is read as plain text).
    const d = line.indexOf(delimiter, close >= 0 ? close + 1 : start);
    const end = d < 0 ? n : d;
    const text =
      close >= 0
        ? line.slice(i + 1, close).replace(/""/g, '"') + line.slice(close + 1, end).trim()
        : line.slice(start, end).trim();
    out.push({ text, column });
    if (d < 0) return out;
    start = d + 1;
  }
}

/** The index of the quote that closes a field opened before `from` ("" is an escaped quote), or −1. */
function closingQuote(line: string, from: number): number {
  for (let k = from; ;) {
    const q = line.indexOf('"', k);
    if (q < 0) return -1;
    if (line[q + 1] !== '"') return q;
    k = q + 2;
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 11 || c === 12;
}
