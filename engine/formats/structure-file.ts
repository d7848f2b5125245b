import { IndividualMajorBuilder } from '../data/builder.ts';
import { MAX_PLOIDY, type GenotypeData } from '../data/genotype-data.ts';
import type { ByteSource, ProgressCallback } from '../io/byte-source.ts';
import { readLines, tokenize, type Token } from '../io/lines.ts';
import { FormatError } from '../io/format-error.ts';
import { column, isInteger, isNumber, looksGrouped, mode } from './layout-guess.ts';

/**
 * Layout of a STRUCTURE input file (the program's mainparams names in brackets). Any field
 * left undefined is detected from the file; what was detected is reported in
 * `source.assumptions`, and a caller overrides a wrong guess by setting the field.
 */
export interface StructureOptions {
  /** Copies per individual [PLOIDY]; default detected (rows per individual) or 2. */
  ploidy?: number;
  /** One row per individual [ONEROWPERIND]; otherwise `ploidy` rows per individual. */
  oneRowPerIndividual?: boolean;
  /** First row holds marker names [MARKERNAMES]. */
  markerNames?: boolean;
  /** A row of map distances follows the marker names [MAPDISTANCES]. */
  mapDistances?: boolean;
  /** A row of recessive alleles follows [RECESSIVEALLELES]. */
  recessiveAlleles?: boolean;
  /** Individual label column [LABEL]. */
  label?: boolean;
  /** Population column [POPDATA]. */
  popData?: boolean;
  /** PopFlag column [POPFLAG]. */
  popFlag?: boolean;
  /** Location column [LOCDATA]. */
  locData?: boolean;
  /** Phenotype column [PHENOTYPE]. */
  phenotype?: boolean;
  /** Number of further columns before the genotypes [EXTRACOLS]. */
  extraColumns?: number;
  /** The missing-allele value [MISSING]; default -9. */
  missing?: string;
  onProgress?: ProgressCallback;
}

/** The complete layout after detection. */
export interface StructureLayout {
  ploidy: number;
  oneRowPerIndividual: boolean;
  markerNames: boolean;
  mapDistances: boolean;
  recessiveAlleles: boolean;
  label: boolean;
  popData: boolean;
  popFlag: boolean;
  locData: boolean;
  phenotype: boolean;
  extraColumns: number;
  missing: string;
  /** Values on every genotype row (detected from the first rows). */
  valuesPerRow: number;
  /** Names at the start of the marker-name row that label leading columns, not loci. */
  headerLead: number;
}

const SAMPLE_ROWS = 400;

interface Row {
  tokens: Token[];
  line: number;
}

async function sampleRows(source: ByteSource, max: number): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const l of readLines(source)) {
    const tokens = tokenize(l.text);
    if (tokens.length === 0) continue;
    rows.push({ tokens, line: l.number });
    if (rows.length >= max) break;
  }
  return rows;
}

function metaCount(l: StructureLayout): number {
  return (
    (l.label ? 1 : 0) +
    (l.popData ? 1 : 0) +
    (l.popFlag ? 1 : 0) +
    (l.locData ? 1 : 0) +
    (l.phenotype ? 1 : 0) +
    l.extraColumns
  );
}

/**
 * Limits of layout detection, each with its reason.
 * - STRUCTURE names five optional leading columns (POPDATA, POPFLAG, LOCDATA, PHENOTYPE and one
 *   EXTRACOLS column are the common case), so when marker names fix the locus count a ploidy is
 *   plausible if it leaves at most this many leading columns besides the label.
 * - A header naming its leading columns ("ID POP loc1 …") names at most that many too.
 * - Extra columns that are not integers (coordinates, dates as decimals) are looked for among the
 *   first columns only: genotype values further right are checked by the reader, not guessed.
 */
const MAX_NAMED_LEADING = 5;
const EXTRA_SCAN_COLUMNS = 12;
const HEADER_META_NAME =
  /^(id|ids|ind|indiv|individuals?|labels?|samples?|names?|pop|pops|population|popflag|popdata|loc|locdata|location|region|group|phenotype)$/i;

/** Row 1 holds marker names: it is shorter than the data rows, or all text where data rows hold numbers. */
function hasMarkerNameRow(rows: readonly Row[], dataCount: number): boolean {
  if (rows.length < 2) return false;
  const r0 = rows[0]!.tokens;
  const allText =
    r0.length === dataCount &&
    r0.every((t) => !isNumber(t.text)) &&
    rows[1]!.tokens.slice(2).some((t) => isNumber(t.text));
  return r0.length < dataCount || allText;
}

/**
 * Names at the start of the header that label leading columns: with m such names, one-row rows of
 * ploidy P hold m + P(T0 − m) values, and the names look like column titles.
 */
function headerLeadNames(header: readonly Token[], dataCount: number, ploidy: number): number {
  const T0 = header.length;
  const m = ploidy > 1 ? (ploidy * T0 - dataCount) / (ploidy - 1) : 0;
  const fits = Number.isInteger(m) && m >= 1 && m <= MAX_NAMED_LEADING && m < T0;
  return fits && header.slice(0, m).every((t) => HEADER_META_NAME.test(t.text)) ? m : 0;
}

/**
 * Rows per individual when labels repeat in equal runs (ONEROWPERIND=0), else undefined. With
 * marker names, the leading columns (values per row − loci) must also repeat unchanged within each
 * individual's rows, as STRUCTURE requires, however many EXTRACOLS there are.
 */
function repeatedRowsPerIndividual(data: readonly Row[], nLociFromNames: number | undefined): number | undefined {
  const runs = runLengths(column(data, 0));
  const r = runs[0]!;
  const complete = data.length >= SAMPLE_ROWS ? runs.slice(0, -1) : runs;
  if (r < 2 || r > MAX_PLOIDY || complete.length < 2 || !complete.every((x) => x === r)) return undefined;
  if (nLociFromNames === undefined) return r;
  const meta = mode(data.map((row) => row.tokens.length)) - nLociFromNames;
  if (meta < 1) return undefined;
  for (let g = 0; g + r <= data.length; g += r) {
    for (let k = 1; k < r; k++) {
      for (let j = 0; j < meta; j++) if (data[g + k]!.tokens[j]?.text !== data[g]!.tokens[j]?.text) return undefined;
    }
  }
  return r;
}

/** Ploidy that leaves a plausible number of leading columns when marker names fix the locus count (2 first). */
function ploidyFromNames(dataCount: number, nLoci: number, label: boolean): number {
  const lead = label ? 1 : 0;
  const fits = [2, 1, 3, 4, 5, 6, 7, 8].find((p) => {
    const e = dataCount - p * nLoci;
    return e >= lead && e <= lead + MAX_NAMED_LEADING;
  });
  return fits ?? 2;
}

/**
 * One past the last of the first columns holding a value that cannot be an allele code (a decimal
 * or text other than the missing value): every column before it is a leading column.
 */
function endOfNonAlleleColumns(first: readonly Row[], from: number, missing: string): number {
  let end = from;
  for (let j = from; j < from + EXTRA_SCAN_COLUMNS; j++) {
    if (column(first, j).some((v) => v !== '' && v !== missing && !isInteger(v))) end = j + 1;
  }
  return end;
}

/** A population column: integers, the same on an individual's rows, in contiguous groups. */
function looksLikePopulationColumn(values: readonly string[], missing: string, constant: boolean): boolean {
  return values.every((v) => isInteger(v) && v !== missing) && constant && looksGrouped(values);
}

/** Detects the layout of a STRUCTURE file from its first rows; explicit options win. */
export async function detectStructureLayout(
  source: ByteSource,
  options: StructureOptions = {},
): Promise<{ layout: StructureLayout; assumptions: string[] }> {
  const rows = await sampleRows(source, SAMPLE_ROWS);
  if (rows.length === 0) throw new FormatError(source.name, 1, 1, 'the file is empty', 'STRUCTURE genotype rows');
  const assumptions: string[] = [];
  const missing = options.missing ?? '-9';
  const dataCount = mode(rows.slice(rows.length > 1 ? 1 : 0).map((r) => r.tokens.length));

  const markerNames = options.markerNames ?? hasMarkerNameRow(rows, dataCount);
  if (markerNames && options.markerNames === undefined)
    assumptions.push(`row 1 holds ${rows[0]!.tokens.length} marker names`);
  // Some tools also name the leading columns in the header ("ID POP loc1 loc2 …").
  const headerLead =
    markerNames && options.oneRowPerIndividual !== false
      ? headerLeadNames(rows[0]!.tokens, dataCount, options.ploidy ?? 2)
      : 0;
  if (headerLead > 0) {
    const named = rows[0]!.tokens
      .slice(0, headerLead)
      .map((t) => t.text)
      .join(', ');
    assumptions.push(`the first ${headerLead} name(s) of the header row (${named}) label the leading columns`);
  }
  const nLociFromNames = markerNames ? rows[0]!.tokens.length - headerLead : undefined;
  let header = markerNames ? 1 : 0;
  let mapDistances = options.mapDistances ?? false;
  let recessiveAlleles = options.recessiveAlleles ?? false;
  if (options.mapDistances === undefined && options.recessiveAlleles === undefined && nLociFromNames !== undefined) {
    // Optional rows with one entry per locus right after the names: map distances or recessive alleles.
    const next = rows[header];
    if (next && next.tokens.length === nLociFromNames && next.tokens.length !== dataCount) {
      const nonInt = next.tokens.some((t) => !isInteger(t.text));
      if (nonInt) mapDistances = true;
      else recessiveAlleles = true;
      assumptions.push(`row ${next.line} is a ${mapDistances ? 'map-distance' : 'recessive-allele'} row (skipped)`);
    }
  }
  header += (mapDistances ? 1 : 0) + (recessiveAlleles ? 1 : 0);
  const data = rows.slice(header);
  if (data.length === 0)
    throw new FormatError(
      source.name,
      rows[rows.length - 1]!.line + 1,
      1,
      'no genotype rows',
      'at least one individual',
    );

  // Rows per individual: labels repeat in equal runs when ONEROWPERIND=0.
  let oneRow = options.oneRowPerIndividual;
  let ploidy = options.ploidy;
  if (oneRow === undefined) {
    const r = options.label === false ? undefined : repeatedRowsPerIndividual(data, nLociFromNames);
    oneRow = r === undefined || (ploidy !== undefined && ploidy !== r);
    if (!oneRow) {
      ploidy ??= r!;
      assumptions.push(`${r} rows per individual (ONEROWPERIND=0), ploidy ${ploidy}`);
    }
  }
  const rowsPerInd = oneRow ? 1 : (ploidy ?? 2);
  const individuals: Row[][] = [];
  for (let i = 0; i + rowsPerInd <= data.length; i += rowsPerInd) individuals.push(data.slice(i, i + rowsPerInd));
  const first = individuals.map((g) => g[0]!);
  const constantWithin = (j: number) =>
    individuals.every((g) => g.every((r) => r.tokens[j]?.text === g[0]!.tokens[j]?.text));

  // Leading meta columns.
  let j = 0;
  let label = options.label;
  if (label === undefined) {
    const c0 = column(first, 0);
    label = !oneRow || c0.some((v) => !isNumber(v)) || (new Set(c0).size === c0.length && c0.length > 3);
    if (label) assumptions.push('column 1 holds individual labels');
  }
  if (label) j++;
  let popData = options.popData;
  let popFlag = options.popFlag ?? false;
  let locData = options.locData ?? false;
  const phenotype = options.phenotype ?? false;
  let extraColumns = options.extraColumns ?? 0;
  if (nLociFromNames !== undefined && oneRow && options.ploidy === undefined) {
    ploidy = ploidyFromNames(dataCount, nLociFromNames, label);
    if (ploidy !== 2) assumptions.push(`ploidy ${ploidy} (from the number of values per row)`);
  }
  ploidy ??= 2;
  const vpr = oneRow ? ploidy : 1;
  const remainingMeta = nLociFromNames !== undefined ? dataCount - vpr * nLociFromNames - j : undefined;
  if (remainingMeta !== undefined && remainingMeta < 0) {
    throw new FormatError(
      source.name,
      data[0]!.line,
      1,
      `rows have ${dataCount} values, too few for ${nLociFromNames} loci at ${vpr} value(s) per row`,
      'a consistent STRUCTURE layout (check ploidy, label and marker-name options)',
    );
  }
  // Without marker names, columns that cannot hold allele codes end the leading block.
  const nonAlleleEnd =
    remainingMeta === undefined && options.extraColumns === undefined ? endOfNonAlleleColumns(first, j, missing) : j;
  if (popData === undefined) {
    if (remainingMeta !== undefined) popData = remainingMeta >= 1;
    else {
      const genotypeValues = dataCount - Math.max(j + 1, nonAlleleEnd);
      popData =
        looksLikePopulationColumn(column(first, j), missing, constantWithin(j)) &&
        genotypeValues > 0 &&
        genotypeValues % vpr === 0;
    }
    if (popData) assumptions.push(`column ${j + 1} holds population labels`);
  }
  if (popData) j++;
  if (options.popFlag === undefined) {
    const c = column(first, j);
    const flagLike = c.every((v) => v === '0' || v === '1') && constantWithin(j);
    popFlag =
      remainingMeta !== undefined
        ? remainingMeta - (popData ? 1 : 0) >= 1 && flagLike
        : flagLike && !oneRow && dataCount - j - 1 > 0;
    if (popFlag) assumptions.push(`column ${j + 1} is a PopFlag column (0/1, not a locus)`);
  }
  if (popFlag) j++;
  if (remainingMeta !== undefined) {
    const left =
      remainingMeta - (popData ? 1 : 0) - (popFlag ? 1 : 0) - (locData ? 1 : 0) - (phenotype ? 1 : 0) - extraColumns;
    if (left > 0 && options.locData === undefined && options.extraColumns === undefined) {
      const c = column(first, j);
      if (left === 1 && c.every((v) => isInteger(v)) && constantWithin(j)) {
        locData = true;
        assumptions.push(`column ${j + 1} is a LocData column`);
      } else {
        extraColumns += left;
        assumptions.push(`${left} extra column(s) before the genotypes (ignored)`);
      }
    }
  } else if (nonAlleleEnd > j) {
    extraColumns += nonAlleleEnd - j;
    assumptions.push(`${nonAlleleEnd - j} extra column(s) before the genotypes (not allele codes; ignored)`);
  }
  const layout: StructureLayout = {
    ploidy,
    oneRowPerIndividual: oneRow,
    markerNames,
    mapDistances,
    recessiveAlleles,
    label,
    popData,
    popFlag,
    locData,
    phenotype,
    extraColumns,
    missing,
    valuesPerRow: dataCount,
    headerLead,
  };
  const genoValues = dataCount - metaCount(layout);
  if (genoValues <= 0 || genoValues % vpr !== 0) {
    throw new FormatError(
      source.name,
      data[0]!.line,
      1,
      `cannot split ${dataCount} values per row into ${metaCount(layout)} leading columns and loci of ${vpr} value(s)`,
      'a STRUCTURE layout: set the ploidy, rows per individual, label column or population column under Reading options (CLI: --ploidy, --one-row or --multi-row, --label, --pop-column, --extra-cols)',
    );
  }
  assumptions.push(`missing allele value ${missing}`);
  if (oneRow) assumptions.push(`one row per individual, ploidy ${ploidy}`);
  return { layout, assumptions };
}

function runLengths(values: readonly string[]): number[] {
  const runs: number[] = [];
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    if (i > 0 && values[i] !== values[i - 1]) {
      runs.push(n);
      n = 0;
    }
    n++;
  }
  if (n > 0) runs.push(n);
  return runs;
}

/**
 * Reads a STRUCTURE file (one or several rows per individual, optional marker-name row and
 * optional leading columns) in a stream.
 */
export async function readStructure(source: ByteSource, options: StructureOptions = {}): Promise<GenotypeData> {
  const { layout, assumptions } = await detectStructureLayout(source, options);
  const file = source.name;
  const P = layout.ploidy;
  if (!Number.isInteger(P) || P < 1 || P > MAX_PLOIDY)
    throw new FormatError(file, 1, 1, `ploidy ${P} is not supported`, `1 to ${MAX_PLOIDY}`);
  const meta = metaCount(layout);
  const rowsPerInd = layout.oneRowPerIndividual ? 1 : P;
  const vpr = layout.oneRowPerIndividual ? P : 1;
  let headerRows = (layout.markerNames ? 1 : 0) + (layout.mapDistances ? 1 : 0) + (layout.recessiveAlleles ? 1 : 0);
  let names: string[] | undefined;
  let builder: IndividualMajorBuilder | undefined;
  let nLoci = 0;
  let expectedTokens = 0;
  const seen = new Map<string, number>();
  let group: Row[] = [];
  let nInd = 0;
  // Codes that often mark missing data in other programs' exports, counted when the missing
  // value was not given and never occurs, to warn rather than read them silently as alleles.
  const suspect = new Map<string, { count: number; line: number; column: number }>();
  let missingSeen = false;
  let largestAllele = -Infinity;

  const flush = () => {
    const r0 = group[0]!;
    const id = layout.label ? r0.tokens[0]!.text : `ind${nInd + 1}`;
    for (const r of group.slice(1)) {
      for (let j = 0; j < meta; j++) {
        if (r.tokens[j]!.text !== r0.tokens[j]!.text) {
          throw new FormatError(
            file,
            r.line,
            r.tokens[j]!.column,
            `column ${j + 1} differs between the rows of individual ${id}`,
            `"${r0.tokens[j]!.text}" as on line ${r0.line} (or check the rows-per-individual setting)`,
          );
        }
      }
    }
    const prev = seen.get(id);
    if (prev !== undefined)
      throw new FormatError(
        file,
        r0.line,
        r0.tokens[0]?.column ?? 1,
        `duplicate individual id "${id}" (first on line ${prev})`,
        'unique individual labels',
      );
    seen.set(id, r0.line);
    const pop = layout.popData ? r0.tokens[layout.label ? 1 : 0]!.text : undefined;
    const row = builder!.addIndividual(pop === undefined ? { id } : { id, population: pop });
    for (let k = 0; k < rowsPerInd; k++) {
      const toks = group[k]!.tokens;
      for (let l = 0; l < nLoci; l++) {
        for (let v = 0; v < vpr; v++) {
          const t = toks[meta + l * vpr + v]!;
          const copy = layout.oneRowPerIndividual ? v : k;
          if (t.text === layout.missing) {
            builder!.setAllele(row, l, copy, undefined);
            missingSeen = true;
          } else if (isInteger(t.text)) {
            const number = Number(t.text);
            const value = String(number);
            if (number > largestAllele) largestAllele = number;
            if (SUSPECT_MISSING.has(value)) {
              const c = suspect.get(value);
              if (c) c.count++;
              else suspect.set(value, { count: 1, line: group[k]!.line, column: t.column });
            }
            builder!.setAllele(row, l, copy, value);
          } else
            throw new FormatError(
              file,
              group[k]!.line,
              t.column,
              `allele code "${t.text}" is not a number`,
              `an integer allele code or the missing value ${layout.missing}`,
            );
        }
      }
    }
    nInd++;
    group = [];
  };

  let lastLine = 0;
  for await (const line of readLines(source, { onProgress: options.onProgress })) {
    lastLine = line.number;
    const tokens = tokenize(line.text);
    if (tokens.length === 0) continue;
    if (headerRows > 0) {
      if (layout.markerNames && names === undefined) names = tokens.slice(layout.headerLead).map((t) => t.text);
      headerRows--;
      continue;
    }
    if (builder === undefined) {
      expectedTokens = layout.valuesPerRow;
      nLoci = (expectedTokens - meta) / vpr;
      if (names !== undefined && names.length !== nLoci) {
        throw new FormatError(
          file,
          line.number,
          1,
          `the marker-name row has ${names.length} names but rows hold ${nLoci} loci`,
          'one marker name per locus',
        );
      }
      const loci = (names ?? Array.from({ length: nLoci }, (_, l) => `L${l + 1}`)).map((name) => ({ name }));
      builder = new IndividualMajorBuilder(loci, P);
    }
    if (tokens.length !== expectedTokens) {
      const col = tokens.length > expectedTokens ? tokens[expectedTokens]!.column : line.text.length + 1;
      throw new FormatError(
        file,
        line.number,
        col,
        `row has ${tokens.length} values`,
        `${expectedTokens} values (${meta} leading columns + ${nLoci} loci × ${vpr})`,
      );
    }
    group.push({ tokens, line: line.number });
    if (group.length === rowsPerInd) flush();
  }
  if (group.length > 0) {
    throw new FormatError(
      file,
      lastLine,
      1,
      `the last individual has ${group.length} of ${rowsPerInd} rows`,
      `${rowsPerInd} rows per individual`,
    );
  }
  if (builder === undefined || nInd === 0)
    throw new FormatError(file, lastLine + 1, 1, 'no genotype rows', 'at least one individual');
  const warnings: string[] = [];
  if (options.missing === undefined && !missingSeen) {
    for (const [value, c] of suspect) {
      // 0 is an ordinary allele in 0/1/2 (or ACGT as 0–3) SNP codings.
      if (value === '0' && largestAllele < 4) continue;
      warnings.push(
        `allele value ${value} occurs ${c.count} time(s) (first on line ${c.line}, column ${c.column}) and the missing value ${layout.missing} never does; if ${value} marks missing data, read the file with missing value ${value}`,
      );
    }
  }
  return builder.finish({ format: 'structure', file, assumptions, warnings });
}

/** Allele codes that other programs use for missing data (0 in many exports, -1, 999). */
const SUSPECT_MISSING = new Set(['0', '-1', '999', '-999']);
