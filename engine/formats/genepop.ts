import { IndividualMajorBuilder } from '../data/builder.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import type { ByteSource, ProgressCallback } from '../io/byte-source.ts';
import { readLines, tokenize } from '../io/lines.ts';
import { FormatError } from './errors.ts';

export interface GenepopOptions {
  /** Copies per individual; default from the width of the first genotype (4/6 digits → 2, 2/3 → 1). */
  ploidy?: 1 | 2;
  /** Digits per allele (2 or 3); default from the first genotype. */
  digits?: 2 | 3;
  onProgress?: ProgressCallback;
}

const POP_LINE = /^\s*pop(\s+(.*))?\s*$/i;

/** True when a line is a GENEPOP population separator ("Pop", any case, optionally with a name). */
export function isPopLine(text: string): boolean {
  return POP_LINE.test(text);
}

/**
 * Reads a GENEPOP file: a title line, locus names (one per line or comma-separated), then
 * populations, each introduced by a `Pop` line, with rows `label, genotype genotype …`.
 * Population names are the text after `Pop` when given, else the population's 1-based index.
 */
export async function readGenepop(source: ByteSource, options: GenepopOptions = {}): Promise<GenotypeData> {
  const file = source.name;
  const assumptions: string[] = [];
  let stage: 'title' | 'loci' | 'body' = 'title';
  const lociNames: string[] = [];
  let builder: IndividualMajorBuilder | undefined;
  let ploidy = options.ploidy;
  let digits = options.digits;
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
      if (lociNames.length === 0) throw new FormatError(file, line.number, 1, 'a Pop line before any locus name', 'locus names after the title line');
      stage = 'body';
      popIndex++;
      popName = pop[2]?.trim() || String(popIndex);
      continue;
    }
    if (stage === 'loci') {
      for (const part of text.split(',')) {
        const name = part.trim();
        if (name !== '') lociNames.push(name);
      }
      continue;
    }
    // An individual: "label , genotypes".
    const comma = text.indexOf(',');
    if (comma < 0) throw new FormatError(file, line.number, 1, 'individual line without a comma', '"label, genotype genotype ..." or a Pop line');
    const label = text.slice(0, comma).trim();
    const tokens = tokenize(text.slice(comma + 1)).map((t) => ({ text: t.text, column: t.column + comma + 1 }));
    if (tokens.length !== lociNames.length) {
      const col = tokens.length > lociNames.length ? tokens[lociNames.length]!.column : text.length + 1;
      throw new FormatError(file, line.number, col, `${tokens.length} genotypes on the line`, `${lociNames.length} (one per locus)`);
    }
    if (builder === undefined) {
      const w = tokens[0]!.text.length;
      if (ploidy === undefined) ploidy = w === 4 || w === 6 ? 2 : 1;
      if (digits === undefined) digits = (ploidy === 2 ? w / 2 : w) === 2 ? 2 : 3;
      if ((digits !== 2 && digits !== 3) || w !== digits * ploidy) {
        throw new FormatError(file, line.number, tokens[0]!.column, `genotype "${tokens[0]!.text}" has ${w} digits`, '2 or 3 digits per allele (e.g. 0102 or 102104)');
      }
      assumptions.push(`${ploidy === 2 ? 'diploid' : 'haploid'} genotypes, ${digits} digits per allele`);
      builder = new IndividualMajorBuilder(lociNames.map((name) => ({ name })), ploidy);
    }
    let id = label;
    if (id === '') id = `ind${builder.individuals.length + 1}`;
    if (seen.has(id)) {
      duplicateLabels++;
      id = `${id}#${duplicateLabels}`;
    }
    seen.set(id, line.number);
    const row = builder.addIndividual({ id, population: popName });
    const width = digits! * ploidy!;
    tokens.forEach((t, l) => {
      if (t.text.length !== width || !/^\d+$/.test(t.text)) {
        throw new FormatError(file, line.number, t.column, `genotype "${t.text}" is not ${width} digits`, `${ploidy === 2 ? 'two' : 'one'} ${digits}-digit allele code(s), zeros for missing`);
      }
      for (let p = 0; p < ploidy!; p++) {
        const code = Number(t.text.slice(p * digits!, (p + 1) * digits!));
        builder!.setAllele(row, l, p, code === 0 ? undefined : String(code));
      }
    });
  }
  if (lastLine === 0) throw new FormatError(file, 1, 1, 'the file is empty', 'a GENEPOP title line');
  if (builder === undefined) {
    throw new FormatError(file, lastLine, 1, stage === 'body' ? 'no individuals after the Pop line' : 'no Pop line', 'a Pop line followed by individuals');
  }
  const warnings =
    duplicateLabels > 0
      ? [`${duplicateLabels} individual label(s) repeat (common in GENEPOP files that label individuals by population); repeats were renamed label#n`]
      : [];
  return builder.finish({ format: 'genepop', file, assumptions, warnings });
}
