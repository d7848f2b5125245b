import { FormatError } from '../io/format-error.ts';

/** A table read from ARFF or CSV: nominal columns as strings, numeric ones as numbers (NaN = missing). */
export interface RawTable {
  readonly names: readonly string[];
  readonly kinds: readonly ('nominal' | 'numeric')[];
  /** Column-major cells: strings for nominal (undefined = missing), numbers for numeric. */
  readonly columns: readonly (readonly (string | undefined)[] | Float64Array)[];
  readonly rows: number;
}

function splitArffValues(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === ',') {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/** Reads an ARFF file (nominal and numeric attributes, '?' missing). */
export function readArff(name: string, text: string): RawTable {
  const names: string[] = [];
  const kinds: ('nominal' | 'numeric')[] = [];
  const rows: string[][] = [];
  let inData = false;
  text.split(/\r?\n/).forEach((raw, k) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('%')) return;
    const lower = line.toLowerCase();
    if (!inData && lower.startsWith('@attribute')) {
      const m = /^@attribute\s+('([^']*)'|"([^"]*)"|(\S+))\s+(.*)$/i.exec(line);
      if (!m) throw new FormatError(name, k + 1, 1, 'unreadable @attribute line', '@attribute name type');
      names.push(m[2] ?? m[3] ?? m[4]!);
      const type = m[5]!.trim().toLowerCase();
      kinds.push(type.startsWith('{') ? 'nominal' : /^(numeric|real|integer)/.test(type) ? 'numeric' : 'nominal');
    } else if (lower.startsWith('@data')) inData = true;
    else if (inData) {
      const v = splitArffValues(line);
      if (v.length !== names.length)
        throw new FormatError(name, k + 1, 1, `${v.length} values`, `${names.length} values`);
      rows.push(v);
    }
  });
  return toColumns(names, kinds, rows, '?');
}

/** Reads a CSV with a header row; columns whose every present value is numeric are numeric; '' missing. */
export function readCsvTable(name: string, text: string): RawTable {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length < 2) throw new FormatError(name, 1, 1, 'no data rows', 'a header and rows');
  const names = lines[0]!.split(',').map((s) => s.trim());
  const rows = lines.slice(1).map((l, k) => {
    const v = l.split(',').map((s) => s.trim());
    if (v.length !== names.length) throw new FormatError(name, k + 2, 1, `${v.length} fields`, `${names.length}`);
    return v;
  });
  const kinds = names.map((_, c) =>
    c < names.length - 1 && rows.every((r) => r[c] === '' || r[c] === 'NA' || !Number.isNaN(Number(r[c])))
      ? 'numeric'
      : 'nominal',
  ) as ('nominal' | 'numeric')[];
  return toColumns(names, kinds, rows, '');
}

function toColumns(names: string[], kinds: ('nominal' | 'numeric')[], rows: string[][], missing: string): RawTable {
  const columns = names.map((_, c) =>
    kinds[c] === 'numeric'
      ? Float64Array.from(rows, (r) =>
          r[c] === missing || r[c] === '' || r[c] === '?' || r[c] === 'NA' ? NaN : Number(r[c]),
        )
      : rows.map((r) => (r[c] === missing || r[c] === '?' ? undefined : r[c])),
  );
  return { names, kinds, columns, rows: rows.length };
}
