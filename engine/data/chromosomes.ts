// Chromosomes as the loci name them: any name is accepted (scaffolds, contigs, numbers beyond 22,
// "chr" prefixes); the sex and organelle chromosomes are the names the user says (PLINK's X, Y,
// XY, MT by default), since a number such as 23 is X in human files and an autosome in cattle.
import type { GenotypeData } from './genotype-data.ts';
import { DEFAULT_SEX_CHROMOSOMES } from '../util/choices.ts';

export { DEFAULT_SEX_CHROMOSOMES };

/** The chromosome of loci that have none (a STRUCTURE or GENEPOP file): one run of every locus. */
export const NO_CHROMOSOME = '';

/** A chromosome name compared case-insensitively and without a "chr" prefix ("chrX" = "x" = "X"; "chrM" = "MT"). */
export function chromosomeKey(name: string): string {
  const bare = name.replace(/^chr/i, '').toUpperCase();
  return bare === 'M' ? 'MT' : bare;
}

/** The loci of each chromosome, in the order chromosomes first appear and the file's order within each. */
export function chromosomeRuns(data: GenotypeData): { chrom: string; loci: number[] }[] {
  const runs = new Map<string, number[]>();
  data.loci.forEach((locus, l) => {
    const c = locus.chrom ?? NO_CHROMOSOME;
    let run = runs.get(c);
    if (!run) runs.set(c, (run = []));
    run.push(l);
  });
  return [...runs].map(([chrom, loci]) => ({ chrom, loci }));
}

/**
 * Loci per chromosome, in order of first appearance (what `inspect` lists), and whether the
 * chromosome is a sex or organelle chromosome by the default names.
 */
export function chromosomeCounts(data: GenotypeData): { chrom: string; loci: number; sex: boolean }[] {
  const sex = chromosomeSet(DEFAULT_SEX_CHROMOSOMES);
  return chromosomeRuns(data).map((r) => ({ chrom: r.chrom, loci: r.loci.length, sex: sex(r.chrom) }));
}

/** A set of chromosome names matched as chromosomeKey does. */
export function chromosomeSet(names: readonly string[]): (chrom: string | undefined) => boolean {
  const keys = new Set(names.map(chromosomeKey));
  return (chrom) => chrom !== undefined && keys.has(chromosomeKey(chrom));
}

/**
 * Parses a chromosome list as PLINK's --chr takes it: names separated by commas, and ranges of
 * numbered chromosomes ("1-5,X"). Names are anything else, taken as written.
 */
export function parseChromosomeList(text: string, flag: string): string[] {
  const out: string[] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') throw new Error(`${flag}: an empty name in "${text}"`);
    const range = /^(?:chr)?(\d+)-(?:chr)?(\d+)$/i.exec(part);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      if (a > b) throw new Error(`${flag}: the range ${part} is empty`);
      for (let c = a; c <= b; c++) out.push(String(c));
    } else out.push(part);
  }
  return out;
}
