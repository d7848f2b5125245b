import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * Writing large result files without holding them as one string: the text is made in pieces
 * and written a megabyte at a time. A 100,000-SNP .P file or result JSON built whole took tens of
 * megabytes at the peak of a run (the string, the rope of pieces that made it, its bytes).
 */

/** Characters gathered before a write. */
const FLUSH_AT = 1 << 20;

/** A file written in pieces, a batch of FLUSH_AT characters at a time. */
class TextFile {
  private readonly fd: number;
  private batch: string[] = [];
  private size = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  write(piece: string): void {
    this.batch.push(piece);
    this.size += piece.length;
    if (this.size >= FLUSH_AT) this.flush();
  }

  private flush(): void {
    if (this.batch.length > 0) writeSync(this.fd, this.batch.join(''));
    this.batch = [];
    this.size = 0;
  }

  /** Writes what is left and closes the file (also after a failure: what was made is kept). */
  close(): void {
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
    }
  }
}

/** Writes the text `write` makes, piece by piece, to `path` (replacing it). */
function writeFile(path: string, make: (write: (piece: string) => void) => void): void {
  const file = new TextFile(path);
  try {
    make((piece) => file.write(piece));
  } finally {
    file.close();
  }
}

/** Writes lines, each ended by LF (as toText joins them), to `path` (replacing it). */
export function writeLines(path: string, lines: Iterable<string>): void {
  writeFile(path, (write) => {
    for (const line of lines) write(line + '\n');
  });
}

/** Writes `value` as JSON.stringify(value) would, piece by piece. */
export function writeJson(path: string, value: unknown): void {
  writeFile(path, (write) => jsonPieces(value, write));
}

/** Elements of a long array stringified in one call (no element of which is itself large). */
const SLICE = 4096;

/**
 * The text of JSON.stringify(value) in pieces, in order (their concatenation is that text,
 * character for character): what is not large goes to JSON.stringify whole, a long array in
 * slices of SLICE elements; only arrays and objects that hold something large are walked.
 */
export function jsonPieces(value: unknown, out: (piece: string) => void): void {
  if (!large(value)) {
    const text = JSON.stringify(value);
    if (text !== undefined) out(text);
    return;
  }
  if (Array.isArray(value)) {
    out('[');
    for (let i = 0; i < value.length; i += SLICE) {
      const slice: unknown[] = value.slice(i, i + SLICE);
      if (i > 0) out(',');
      if (!slice.some(large)) {
        out(JSON.stringify(slice).slice(1, -1));
        continue;
      }
      slice.forEach((x, j) => {
        if (j > 0) out(',');
        // JSON.stringify writes null for what has no JSON text in an array.
        if (omitted(x)) out('null');
        else jsonPieces(x, out);
      });
    }
    out(']');
    return;
  }
  out('{');
  let first = true;
  for (const [key, x] of Object.entries(value)) {
    if (omitted(x)) continue; // as JSON.stringify leaves such properties out
    out(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    jsonPieces(x, out);
  }
  out('}');
}

/** An array longer than SLICE, or a plain array or object that holds one. */
function large(x: unknown): x is object {
  if (!walked(x)) return false;
  if (Array.isArray(x)) return x.length > SLICE || x.some(large);
  return Object.values(x).some(large);
}

/** Values JSON.stringify gives no text of (left out of objects, null in arrays). */
function omitted(x: unknown): boolean {
  return x === undefined || typeof x === 'function' || typeof x === 'symbol';
}

/** Plain arrays and objects, which jsonPieces walks (not typed arrays, nor objects with toJSON). */
function walked(x: unknown): x is object {
  return (
    x !== null &&
    typeof x === 'object' &&
    !ArrayBuffer.isView(x) &&
    !(x instanceof Number || x instanceof String || x instanceof Boolean) &&
    typeof (x as { toJSON?: unknown }).toJSON !== 'function'
  );
}
