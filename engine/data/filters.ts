import { alleleCounts, minorAlleleFrequency } from './allele-counts.ts';
import { locusPloidy, MISSING, range, subsetData, type GenotypeData } from './genotype-data.ts';

/** Pre-clustering filters; each is off when undefined. Thresholds are fractions in [0, 1]. */
export interface FilterOptions {
  /** Drop individuals whose fraction of missing allele copies exceeds this. */
  maxIndividualMissing?: number;
  /** Drop loci whose fraction of missing allele copies exceeds this. */
  maxLocusMissing?: number;
  /** Drop loci with fewer than two observed alleles. */
  dropMonomorphic?: boolean;
  /** Drop loci whose minor-allele frequency (second most common allele) is below this. */
  minMaf?: number;
}

export interface Removed {
  readonly name: string;
  readonly reason: string;
}

export interface FilterResult {
  readonly data: GenotypeData;
  readonly removedIndividuals: readonly Removed[];
  readonly removedLoci: readonly Removed[];
}

function checkFraction(name: string, v: number | undefined): void {
  if (v !== undefined && !(v >= 0 && v <= 1))
    throw new RangeError(`applyFilters: ${name} must be a fraction in [0, 1], got ${v}`);
}

/**
 * Applies the filters in the order PLINK users expect: individuals by missingness first, then
 * loci by missingness, monomorphism and minor-allele frequency (computed on the kept individuals).
 */
export function applyFilters(data: GenotypeData, opts: FilterOptions): FilterResult {
  checkFraction('maxIndividualMissing', opts.maxIndividualMissing);
  checkFraction('maxLocusMissing', opts.maxLocusMissing);
  checkFraction('minMaf', opts.minMaf);
  const N = data.individuals.length;
  const L = data.loci.length;
  const P = data.ploidy;
  const removedIndividuals: Removed[] = [];
  let keepInd = range(N);
  if (opts.maxIndividualMissing !== undefined) {
    const miss = new Float64Array(N);
    let copies = 0;
    for (let l = 0; l < L; l++) {
      const Pl = locusPloidy(data, l);
      copies += Pl;
      for (let i = 0; i < N; i++)
        for (let p = 0; p < Pl; p++) if (data.calls[(l * N + i) * P + p] === MISSING) miss[i]!++;
    }
    keepInd = keepInd.filter((i) => {
      const f = miss[i]! / Math.max(1, copies);
      if (f > opts.maxIndividualMissing!) {
        removedIndividuals.push({
          name: data.individuals[i]!.id,
          reason: `missing ${(100 * f).toFixed(1)}% > ${(100 * opts.maxIndividualMissing!).toFixed(1)}%`,
        });
        return false;
      }
      return true;
    });
  }
  const removedLoci: Removed[] = [];
  const keepLoci: number[] = [];
  for (let l = 0; l < L; l++) {
    const name = data.loci[l]!.name;
    const counts = alleleCounts(data, l, keepInd);
    const called = counts.reduce((a, b) => a + b, 0);
    const missFrac = keepInd.length === 0 ? 0 : 1 - called / (keepInd.length * locusPloidy(data, l));
    if (opts.maxLocusMissing !== undefined && missFrac > opts.maxLocusMissing) {
      removedLoci.push({
        name,
        reason: `missing ${(100 * missFrac).toFixed(1)}% > ${(100 * opts.maxLocusMissing).toFixed(1)}%`,
      });
      continue;
    }
    const observed = counts.filter((c) => c > 0).length;
    if (opts.dropMonomorphic && observed < 2) {
      removedLoci.push({ name, reason: 'monomorphic' });
      continue;
    }
    if (opts.minMaf !== undefined) {
      const maf = minorAlleleFrequency(counts);
      if (!(maf >= opts.minMaf)) {
        removedLoci.push({ name, reason: `MAF ${Number.isNaN(maf) ? 'undefined' : maf.toFixed(4)} < ${opts.minMaf}` });
        continue;
      }
    }
    keepLoci.push(l);
  }
  return { data: subsetData(data, keepLoci, keepInd), removedIndividuals, removedLoci };
}
