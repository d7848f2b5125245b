import { blockAlleleCounts, minorAlleleFrequency } from './allele-counts.ts';
import { locusPloidy, MISSING, type GenotypeData } from './genotype-data.ts';
import { locusCalls } from './packed-calls.ts';
import { chromosomeCounts } from './chromosomes.ts';

/** Summary statistics of a dataset; per-locus arrays have shape (nLoci,), per-individual (nIndividuals,). */
export interface DatasetSummary {
  readonly format?: string;
  readonly file?: string;
  readonly individuals: number;
  readonly loci: number;
  readonly ploidy: number;
  readonly phased: boolean;
  /** Populations in order of first appearance, with their sizes (individuals without a label under ''). */
  readonly populations: readonly { name: string; count: number }[];
  /** Loci per chromosome, in order of first appearance ('' for loci without one); sex: X, Y, XY or MT. */
  readonly chromosomes: readonly { chrom: string; loci: number; sex: boolean }[];
  readonly groups: readonly { name: string; count: number }[];
  /** Observed alleles per locus (alleles with at least one copy). */
  readonly allelesPerLocus: Int32Array;
  readonly allelesMin: number;
  readonly allelesMedian: number;
  readonly allelesMax: number;
  readonly allelesTotal: number;
  /** Fraction of allele copies missing, overall. */
  readonly missingRate: number;
  /** Fraction of genotypes with at least one missing copy. */
  readonly missingGenotypeRate: number;
  readonly missingPerLocus: Float64Array;
  readonly missingPerIndividual: Float64Array;
  /** Observed heterozygosity per locus (NaN for haploid data or no complete genotype). */
  readonly ho: Float64Array;
  /** Expected heterozygosity per locus (Nei's unbiased gene diversity; NaN with < 2 copies). */
  readonly he: Float64Array;
  readonly meanHo: number;
  readonly meanHe: number;
  /** Minor-allele frequency per locus for biallelic loci; NaN for others. */
  readonly maf: Float64Array;
  readonly biallelic: number;
  readonly monomorphic: number;
  readonly assumptions: readonly string[];
  readonly warnings: readonly string[];
}

function mean(xs: Float64Array): number {
  let s = 0;
  let n = 0;
  for (const x of xs)
    if (!Number.isNaN(x)) {
      s += x;
      n++;
    }
  return n === 0 ? NaN : s / n;
}

function tally(values: readonly (string | undefined)[]): { name: string; count: number }[] {
  const m = new Map<string, number>();
  for (const v of values) m.set(v ?? '', (m.get(v ?? '') ?? 0) + 1);
  return [...m].map(([name, count]) => ({ name, count }));
}

/** Computes the summary of a dataset in one pass over each locus block. */
export function summarize(data: GenotypeData): DatasetSummary {
  const N = data.individuals.length;
  const L = data.loci.length;
  const P = data.ploidy;
  const allelesPerLocus = new Int32Array(L);
  const missingPerLocus = new Float64Array(L);
  const missingPerInd = new Float64Array(N);
  const ho = new Float64Array(L);
  const he = new Float64Array(L);
  const maf = new Float64Array(L);
  let missingCopies = 0;
  let missingGenotypes = 0;
  let copiesTotal = 0;
  const copiesPerInd = data.loci.reduce((sum, _, l) => sum + locusPloidy(data, l), 0);
  let biallelic = 0;
  let monomorphic = 0;
  const scratch = data.packed ? new Int8Array(8 * data.packed.bytesPerLocus) : undefined;
  for (let l = 0; l < L; l++) {
    const calls = locusCalls(data, l, scratch);
    const counts = blockAlleleCounts(calls, data.loci[l]!.alleles.length, P);
    let observed = 0;
    let n = 0;
    let sumSq = 0;
    for (const c of counts)
      if (c > 0) {
        observed++;
        n += c;
      }
    for (const c of counts) sumSq += (c / (n || 1)) ** 2;
    allelesPerLocus[l] = observed;
    if (observed <= 1) monomorphic++;
    if (observed === 2) biallelic++;
    maf[l] = observed === 2 ? minorAlleleFrequency(counts) : NaN;
    he[l] = n >= 2 ? (n / (n - 1)) * (1 - sumSq) : NaN;
    let het = 0;
    let complete = 0;
    let miss = 0;
    const Pl = locusPloidy(data, l);
    for (let i = 0; i < N; i++) {
      const o = i * P;
      let m = 0;
      let differ = false;
      const a0 = calls[o]!;
      for (let p = 0; p < Pl; p++) {
        const a = calls[o + p]!;
        if (a === MISSING) m++;
        else if (a !== a0) differ = true;
      }
      miss += m;
      missingPerInd[i]! += m;
      if (m > 0) missingGenotypes++;
      else {
        complete++;
        if (differ) het++;
      }
    }
    missingCopies += miss;
    copiesTotal += N * Pl;
    missingPerLocus[l] = miss / (N * Pl);
    ho[l] = Pl > 1 && complete > 0 ? het / complete : NaN;
  }
  for (let i = 0; i < N; i++) missingPerInd[i] = L === 0 ? 0 : missingPerInd[i]! / copiesPerInd;
  const sorted = Array.from(allelesPerLocus).sort((a, b) => a - b);
  const median = L === 0 ? 0 : L % 2 === 1 ? sorted[(L - 1) / 2]! : (sorted[L / 2 - 1]! + sorted[L / 2]!) / 2;
  return {
    format: data.source?.format,
    file: data.source?.file,
    individuals: N,
    loci: L,
    chromosomes: chromosomeCounts(data),
    ploidy: P,
    phased: data.phased,
    populations: tally(data.individuals.map((i) => i.population)),
    groups: data.individuals.some((i) => i.group !== undefined) ? tally(data.individuals.map((i) => i.group)) : [],
    allelesPerLocus,
    allelesMin: sorted[0] ?? 0,
    allelesMedian: median,
    allelesMax: sorted[L - 1] ?? 0,
    allelesTotal: sorted.reduce((a, b) => a + b, 0),
    missingRate: copiesTotal === 0 ? 0 : missingCopies / copiesTotal,
    missingGenotypeRate: N * L === 0 ? 0 : missingGenotypes / (N * L),
    missingPerLocus,
    missingPerIndividual: missingPerInd,
    ho,
    he,
    meanHo: mean(ho),
    meanHe: mean(he),
    maf,
    biallelic,
    monomorphic,
    assumptions: data.source?.assumptions ?? [],
    warnings: data.source?.warnings ?? [],
  };
}
