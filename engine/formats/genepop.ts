import { IndividualMajorBuilder } from '../data/builder.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import type { ByteSource, ProgressCallback } from '../io/byte-source.ts';
import { readLines, tokenize } from '../io/lines.ts';
import { FormatError } from '../io/format-error.ts';

export interface GenepopOptions {
  /** Copies per individual at every locus; default per locus from the code width (4/6 digits → 2, 2/3 → 1). */
  ploidy?: 1 | 2;
  /** Digits per allele (2 or 3) at every locus; default per locus from the code width. */
  digits?: 2 | 3;
  onProgress?: ProgressCallback;
}

const POP_LINE = /^\s*pop(\s+(.*))?\s*$/i;

/** True when a line is a GENEPOP population separator ("Pop", any case, optionally with a name). */
export function isPopLine(text: string): boolean {
  return POP_LINE.test(text);
}

/** How one locus's genotypes are written: copies and digits per copy. */
interface LocusCoding {
  ploidy: 1 | 2;
  digits: 2 | 3;
}

/** Code width → coding: 4 and 6 digits are diploid (2 or 3 per allele), 2 and 3 haploid. */
const CODING_BY_WIDTH: ReadonlyMap<number, LocusCoding> = new Map([
  [2, { ploidy: 1, digits: 2 }],
  [3, { ploidy: 1, digits: 3 }],
  [4, { ploidy: 2, digits: 2 }],
  [6, { ploidy: 2, digits: 3 }],
]);

function codingOf(width: number, options: GenepopOptions): LocusCoding | undefined {
  if (options.ploidy !== undefined || options.digits !== undefined) {
    const ploidy = options.ploidy ?? (width === 4 || width === 6 ? 2 : 1);
    const digits = options.digits ?? (width / ploidy === 2 ? 2 : 3);
    return ploidy * digits === width ? { ploidy, digits } : undefined;
  }
  return CODING_BY_WIDTH.get(width);
}

const ALL_ZEROS = /^0+$/;

/**
 * Locus names: one per line, or several on a line separated by commas — or, as some programs
 * write them, by spaces only. Spaces also occur inside names written one per line ("Locus 1"),
 * so the space split is used only when it, and not the comma split, matches the number of
 * genotypes on the first individual's line.
 */
function locusNames(lines: readonly string[], genotypes: number): string[] {
  const byComma = lines.flatMap((t) =>
    t
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== ''),
  );
  if (byComma.length === genotypes) return byComma;
  const bySpace = lines.flatMap((t) => t.split(/[\s,]+/).filter((n) => n !== ''));
  return bySpace.length === genotypes ? bySpace : byComma;
}

/**
 * Reads a GENEPOP file: a title line, locus names (one per line, or on one line separated by
 * commas or spaces), then populations, each introduced by a `Pop` line, with rows
 * `label, genotype genotype …`. Each locus has its own code width, so 2- and 3-digit loci and
 * haploid loci (one code per individual) may sit side by side; a haploid locus among diploid
 * ones is stored with its second copy missing and `ploidy: 1` on the locus.
 * Population names are the text after `Pop` when given, else the population's 1-based index.
 */
export async function readGenepop(source: ByteSource, options: GenepopOptions = {}): Promise<GenotypeData> {
  const file = source.name;
  let stage: 'title' | 'loci' | 'body' = 'title';
  const nameLines: string[] = [];
  let lociNames: string[] | undefined;
  let builder: IndividualMajorBuilder | undefined;
  let codings: (LocusCoding | undefined)[] = [];
  let popIndex = 0;
  let popName: string | undefined;
  let lastLine = 0;
  const seen = new Map<string, number>();
  let duplicateLabels = 0;
  for await (const line of readLines(source, { onProgress: options.onProgress })) {
    lastLine = line.number;
    const text = line.text;
    if (stage === 'title') {
      stage = 'loci';
      continue;
    }
    if (text.trim() === '') continue;
    const pop = POP_LINE.exec(text);
    if (pop) {
      if (nameLines.length === 0)
        throw new FormatError(
          file,
          line.number,
          1,
          'a Pop line before any locus name',
          'locus names after the title line',
        );
      stage = 'body';
      popIndex++;
      popName = pop[2]?.trim() || String(popIndex);
      continue;
    }
    if (stage === 'loci') {
      nameLines.push(text);
      continue;
    }
    // An individual: "label , genotypes".
    const comma = text.indexOf(',');
    if (comma < 0)
      throw new FormatError(
        file,
        line.number,
        1,
        'individual line without a comma',
        '"label, genotype genotype ..." or a Pop line',
      );
    const label = text.slice(0, comma).trim();
    const tokens = tokenize(text.slice(comma + 1)).map((t) => ({ text: t.text, column: t.column + comma + 1 }));
    lociNames ??= locusNames(nameLines, tokens.length);
    if (tokens.length !== lociNames.length) {
      const col = tokens.length > lociNames.length ? tokens[lociNames.length]!.column : text.length + 1;
      throw new FormatError(
        file,
        line.number,
        col,
        `${tokens.length} genotypes on the line`,
        `${lociNames.length} (one per locus)`,
      );
    }
    if (builder === undefined) {
      // Diploid storage unless every locus is haploid (or ploidy 1 was given); compacted at the end.
      builder = new IndividualMajorBuilder(
        lociNames.map((name) => ({ name })),
        options.ploidy ?? 2,
      );
      codings = lociNames.map(() => undefined);
    }
    let id = label;
    if (id === '') id = `ind${builder.individuals.length + 1}`;
    if (seen.has(id)) {
      duplicateLabels++;
      id = `${id}#${duplicateLabels}`;
    }
    seen.set(id, line.number);
    const row = builder.addIndividual({ id, population: popName });
    tokens.forEach((t, l) => {
      if (!/^\d+$/.test(t.text)) {
        throw new FormatError(
          file,
          line.number,
          t.column,
          `genotype "${t.text}" is not a number`,
          'digits: one or two 2- or 3-digit allele codes, zeros for missing',
        );
      }
      const known = codings[l];
      if (ALL_ZEROS.test(t.text) && (known === undefined || t.text.length !== known.ploidy * known.digits)) {
        for (let p = 0; p < builder!.ploidy; p++) builder!.setAllele(row, l, p, undefined);
        return;
      }
      const coding = known ?? codingOf(t.text.length, options);
      if (coding === undefined || coding.ploidy > builder!.ploidy) {
        throw new FormatError(
          file,
          line.number,
          t.column,
          `genotype "${t.text}" has ${t.text.length} digits`,
          '2 or 3 digits per allele (e.g. 0102 or 102104; 01 or 102 for a haploid locus)',
        );
      }
      const width = coding.ploidy * coding.digits;
      if (t.text.length !== width) {
        throw new FormatError(
          file,
          line.number,
          t.column,
          `genotype "${t.text}" is not ${width} digits`,
          `${width} digits as earlier at locus ${lociNames![l]} (${describe(coding)})`,
        );
      }
      codings[l] = coding;
      for (let p = 0; p < builder!.ploidy; p++) {
        const code = p < coding.ploidy ? Number(t.text.slice(p * coding.digits, (p + 1) * coding.digits)) : 0;
        builder!.setAllele(row, l, p, code === 0 ? undefined : String(code));
      }
    });
  }
  if (lastLine === 0) throw new FormatError(file, 1, 1, 'the file is empty', 'a GENEPOP title line');
  if (builder === undefined) {
    throw new FormatError(
      file,
      lastLine,
      1,
      stage === 'body' ? 'no individuals after the Pop line' : 'no Pop line',
      'a Pop line followed by individuals',
    );
  }
  const warnings =
    duplicateLabels > 0
      ? [
          `${duplicateLabels} individual label(s) repeat (common in GENEPOP files that label individuals by population); repeats were renamed label#n`,
        ]
      : [];
  const data = builder.finish({
    format: 'genepop',
    file,
    assumptions: codingAssumptions(codings, lociNames ?? []),
    warnings,
  });
  return withLocusPloidy(
    data,
    codings.map((c) => c?.ploidy ?? 2),
  );
}

function describe(c: LocusCoding): string {
  return `${c.ploidy === 2 ? 'diploid' : 'haploid'}, ${c.digits} digits per allele`;
}

/** What was read, grouped: "diploid, 3 digits per allele (8 loci); haploid, 3 digits per allele (mtDNA)". */
function codingAssumptions(codings: readonly (LocusCoding | undefined)[], names: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  codings.forEach((c, l) => {
    const key = c === undefined ? 'no genotype observed' : describe(c);
    groups.set(key, [...(groups.get(key) ?? []), names[l]!]);
  });
  if (groups.size === 1) return [`${[...groups.keys()][0]} genotypes`];
  return [...groups].map(([key, loci]) => `${key}: ${loci.length > 4 ? `${loci.length} loci` : loci.join(', ')}`);
}

/**
 * Marks haploid loci of a diploid dataset (their second copy is missing by construction), or,
 * when every locus is haploid, keeps one copy per individual.
 */
function withLocusPloidy(data: GenotypeData, locusPloidy: readonly number[]): GenotypeData {
  if (data.ploidy === 1) return data;
  if (locusPloidy.every((p) => p === 1)) {
    const calls =
      data.calls.constructor === Int16Array
        ? new Int16Array(data.calls.length / 2)
        : new Int8Array(data.calls.length / 2);
    for (let k = 0; k < calls.length; k++) calls[k] = data.calls[2 * k]!;
    return { ...data, ploidy: 1, calls };
  }
  if (locusPloidy.every((p) => p === data.ploidy)) return data;
  return {
    ...data,
    loci: data.loci.map((locus, l) => (locusPloidy[l]! < data.ploidy ? { ...locus, ploidy: locusPloidy[l]! } : locus)),
  };
}
