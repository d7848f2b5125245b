import { readAllBytes, type ByteSource } from './byte-source.ts';
import { gunzipChunks, isGzip } from './gzip.ts';

/**
 * The fields of one line of whitespace-separated text, as offsets into the whole text: read
 * without a string or an object per field, so tables of a hundred thousand lines (a .bim) cost
 * what their few wanted fields cost. Valid only during the visit that receives it.
 */
export interface LineFields {
  /** The line's number (1-based, counting blank lines). */
  readonly number: number;
  /** Fields on the line (0 for a blank line). */
  readonly count: number;
  /** Field f's text. */
  text(f: number): string;
  /** Field f's 1-based column. */
  column(f: number): number;
  /** Field f as a whole number of decimal digits with an optional '-', else NaN. */
  integer(f: number): number;
  /** The last field's 1-based column (0 on a blank line). */
  readonly lastColumn: number;
  /** The column just past the line's last character. */
  readonly width: number;
}

/** Fields kept per line; fields past this are counted but not located. */
const MAX_FIELDS = 64;

/** A whole text source (gunzipped when it is gzip), decoded as UTF-8 without a BOM. */
export async function readAllText(source: ByteSource): Promise<string> {
  const head = await readAllBytes(source);
  const bytes = isGzip(head)
    ? await readAllBytes({
        name: source.name,
        chunks: () =>
          gunzipChunks(
            source.name,
            (async function* () {
              yield head;
            })(),
          ),
      })
    : head;
  const text = new TextDecoder('utf-8').decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Calls `visit` for each line of `text` (LF, CRLF or CR ends) with its fields split on runs of
 * spaces and tabs, as tokenize() in lines.ts splits them.
 */
export function scanFields(text: string, visit: (line: LineFields) => void): void {
  const starts = new Int32Array(MAX_FIELDS);
  const ends = new Int32Array(MAX_FIELDS);
  let lineStart = 0;
  let count = 0;
  let number = 0;
  let lineEnd = 0;
  let lastStart = -1;
  const line: LineFields = {
    get number() {
      return number;
    },
    get count() {
      return count;
    },
    get lastColumn() {
      return count > 0 ? lastStart - lineStart + 1 : 0;
    },
    get width() {
      return lineEnd - lineStart + 1;
    },
    text: (f) => text.slice(starts[located(f)]!, ends[f]!),
    column: (f) => starts[located(f)]! - lineStart + 1,
    integer(f) {
      let k = starts[located(f)]!;
      const end = ends[f]!;
      const negative = text.charCodeAt(k) === 45;
      if (negative) k++;
      if (k === end) return Number.NaN;
      let v = 0;
      for (; k < end; k++) {
        const d = text.charCodeAt(k) - 48;
        if (d < 0 || d > 9) return Number.NaN;
        v = v * 10 + d;
      }
      return negative ? -v : v;
    },
  };
  /** f, when the line has that field and it was located (the first MAX_FIELDS are). */
  const located = (f: number) => {
    if (!(f >= 0 && f < count && f < MAX_FIELDS)) throw new RangeError(`field ${f + 1} of line ${number} is not read`);
    return f;
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    number++;
    lineStart = i;
    count = 0;
    let c = text.charCodeAt(i);
    for (;;) {
      while (c === 32 || c === 9) c = text.charCodeAt(++i);
      if (i >= n || c === 10 || c === 13) break;
      const s = i;
      lastStart = s;
      while (i < n && c !== 32 && c !== 9 && c !== 10 && c !== 13) c = text.charCodeAt(++i);
      if (count < MAX_FIELDS) {
        starts[count] = s;
        ends[count] = i;
      }
      count++;
    }
    lineEnd = i;
    visit(line);
    if (c === 13) c = text.charCodeAt(++i);
    if (c === 10) i++;
  }
}
