import { IndividualMajorBuilder } from '../data/builder.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import type { ByteSource, ProgressCallback } from '../io/byte-source.ts';
import { readLines, tokenize, type Token } from '../io/lines.ts';
import { FormatError } from '../io/format-error.ts';

export interface TableOptions {
  /** Field delimiter; default detected from the header (tab, comma, semicolon, else spaces). */
  delimiter?: string;
  /** Name of the population column (default: a column named pop/population). */
  populationColumn?: string;
  /** Name of the higher-group column (default: a column named group/region). */
  groupColumn?: string;
  onProgress?: ProgressCallback;
}

const MISSING_CELLS = new Set(['', 'na', 'nan', 'n/a', '.', './.', '.|.', '?', '-', '--', '-9', 'nn', 'missing']);
const MISSING_ALLELES = new Set(['.', '?', 'n', '-', '-9', 'na']);
const ID_NAMES = new Set(['id', 'ind', 'individual', 'sample', 'iid', 'name', 'label']);
const POP_NAMES = new Set(['pop', 'population', 'popid', 'pop_id', 'fid']);
const GROUP_NAMES = new Set(['group', 'region', 'continent']);

/**
 * Splits a genotype cell into allele names: "A/G", "A|G", "120/124", "0/1", or compact "AG"
 * for single-letter alleles. Returns null for a missing cell; undefined entries are missing copies.
 * '0' counts as missing only in letter-coded cells (e.g. "0/0" is a valid 0/1-coded genotype).
 */
export function splitGenotypeCell(cell: string): (string | undefined)[] | null {
  const c = cell.trim();
  if (MISSING_CELLS.has(c.toLowerCase())) return null;
  let parts: string[];
  if (c.includes('/') || c.includes('|')) parts = c.split(/[/|]/).map((p) => p.trim());
  else if (/^[ACGTNacgtn]{2,8}$/.test(c)) parts = c.split('');
  else parts = [c];
  const letterCoded = parts.some((p) => /^[A-Za-z]+$/.test(p) && p.toLowerCase() !== 'n' && p.toLowerCase() !== 'na');
  return parts.map((p) => {
    const lower = p.toLowerCase();
    if (p === '' || MISSING_ALLELES.has(lower)) return undefined;
    if (p === '0' && letterCoded) return undefined;
    return /^[a-z]+$/.test(p) ? p.toUpperCase() : p;
  });
}

function detectDelimiter(header: string): string | undefined {
  if (header.includes('\t')) return '\t';
  if (header.includes(',')) return ',';
  if (header.includes(';')) return ';';
  return undefined;
}

/**
 * Reads a genotype table: a header row (id column, optional population and group columns,
 * then one column per locus) and one row per individual.
 */
export async function readGenotypeTable(source: ByteSource, options: TableOptions = {}): Promise<GenotypeData> {
  const file = source.name;
  let delimiter = options.delimiter;
  let header: Token[] | undefined;
  let popCol = -1;
  let groupCol = -1;
  let lociCols: number[] = [];
  let builder: IndividualMajorBuilder | undefined;
  let ploidy = 0;
  const seen = new Map<string, number>();
  const pending: { tokens: Token[]; line: number }[] = [];
  let lastLine = 0;

  const addRow = (tokens: Token[], lineNo: number) => {
    if (tokens.length !== header!.length) {
      const col =
        tokens.length > header!.length ? tokens[header!.length]!.column : (tokens[tokens.length - 1]?.column ?? 1);
      throw new FormatError(
        file,
        lineNo,
        col,
        `row has ${tokens.length} fields`,
        `${header!.length} fields as in the header`,
      );
    }
    const id = tokens[0]!.text;
    if (id === '') throw new FormatError(file, lineNo, 1, 'empty individual id', 'an id in the first column');
    const prev = seen.get(id);
    if (prev !== undefined)
      throw new FormatError(
        file,
        lineNo,
        tokens[0]!.column,
        `duplicate individual id "${id}" (first on line ${prev})`,
        'unique ids',
      );
    seen.set(id, lineNo);
    const cells = lociCols.map((c) => splitGenotypeCell(tokens[c]!.text));
    if (builder === undefined) {
      const first = cells.find((c) => c !== null);
      if (first === undefined) {
        pending.push({ tokens, line: lineNo });
        return;
      }
      ploidy = first.length;
      builder = new IndividualMajorBuilder(
        lociCols.map((c) => ({ name: header![c]!.text })),
        ploidy,
      );
      const queued = pending.splice(0);
      for (const q of queued) addRow(q.tokens, q.line);
    }
    const row = builder.addIndividual({
      id,
      ...(popCol >= 0 && tokens[popCol]!.text !== '' ? { population: tokens[popCol]!.text } : {}),
      ...(groupCol >= 0 && tokens[groupCol]!.text !== '' ? { group: tokens[groupCol]!.text } : {}),
    });
    cells.forEach((alleles, l) => {
      // A haploid-looking table of decimal numbers (weights, heights) is measurements, not alleles.
      if (ploidy === 1 && alleles !== null && /^-?\d+\.\d+$/.test(alleles[0] ?? '')) {
        const t = tokens[lociCols[l]!]!;
        throw new FormatError(
          file,
          lineNo,
          t.column,
          `"${t.text}" in column "${header![lociCols[l]!]!.text}" is a decimal number: the table looks like measurements, not genotypes`,
          'genotypes such as A/G, 0/1, 120/124 or one allele per cell',
        );
      }
      if (alleles === null) {
        for (let p = 0; p < ploidy; p++) builder!.setAllele(row, l, p, undefined);
        return;
      }
      if (alleles.length !== ploidy) {
        const t = tokens[lociCols[l]!]!;
        throw new FormatError(
          file,
          lineNo,
          t.column,
          `genotype "${t.text}" has ${alleles.length} allele(s)`,
          `${ploidy} alleles (the ploidy of the first genotype; mixed ploidy is not supported)`,
        );
      }
      alleles.forEach((a, p) => builder!.setAllele(row, l, p, a));
    });
  };

  for await (const line of readLines(source, { onProgress: options.onProgress })) {
    lastLine = line.number;
    if (line.text.trim() === '' || line.text.startsWith('#')) continue;
    if (header === undefined) {
      delimiter ??= detectDelimiter(line.text);
      header = tokenize(line.text, delimiter);
      const names = header.map((t) => t.text.toLowerCase());
      if (
        !ID_NAMES.has(names[0]!) &&
        splitGenotypeCell(names[names.length - 1]!)?.every((a) => a !== undefined && /^\d+$/.test(a))
      ) {
        throw new FormatError(
          file,
          line.number,
          1,
          'the first row looks like data, not a header',
          'a header row: id, [pop], [group], locus names',
        );
      }
      popCol = options.populationColumn
        ? names.indexOf(options.populationColumn.toLowerCase())
        : names.findIndex((n, k) => k > 0 && POP_NAMES.has(n));
      groupCol = options.groupColumn
        ? names.indexOf(options.groupColumn.toLowerCase())
        : names.findIndex((n, k) => k > 0 && GROUP_NAMES.has(n));
      if (options.populationColumn && popCol < 0)
        throw new FormatError(
          file,
          line.number,
          1,
          `no column named "${options.populationColumn}"`,
          'the population column given',
        );
      lociCols = header.map((_, k) => k).filter((k) => k > 0 && k !== popCol && k !== groupCol);
      if (lociCols.length === 0)
        throw new FormatError(
          file,
          line.number,
          line.text.length + 1,
          'no locus columns',
          'one column per locus after the id',
        );
      continue;
    }
    addRow(tokenize(line.text, delimiter), line.number);
  }
  if (lastLine === 0 || header === undefined)
    throw new FormatError(file, 1, 1, 'the file is empty', 'a header row and one row per individual');
  if (builder === undefined) {
    if (pending.length === 0) throw new FormatError(file, lastLine + 1, 1, 'no individuals', 'one row per individual');
    throw new FormatError(file, pending[0]!.line, 1, 'every genotype is missing', 'at least one called genotype');
  }
  const assumptions = [
    `delimiter ${delimiter === '\t' ? 'tab' : delimiter === undefined ? 'spaces' : `"${delimiter}"`}`,
    `ploidy ${ploidy} (from the first genotype)`,
    popCol >= 0 ? `population column "${header[popCol]!.text}"` : 'no population column',
  ];
  return builder.finish({ format: 'table', file, assumptions, warnings: [] });
}
