import { MISSING, type GenotypeData } from './genotype-data.ts';

/**
 * Allele counts of locus l over all individuals (or the given ones): shape (nAlleles,).
 * Missing copies are skipped.
 */
export function alleleCounts(data: GenotypeData, l: number, individuals?: ArrayLike<number>): Float64Array {
  const N = data.individuals.length;
  const P = data.ploidy;
  const counts = new Float64Array(data.loci[l]!.alleles.length);
  const base = l * N * P;
  if (individuals === undefined) {
    for (let k = base; k < base + N * P; k++) {
      const a = data.calls[k]!;
      if (a !== MISSING) counts[a]!++;
    }
  } else {
    for (let j = 0; j < individuals.length; j++) {
      const o = base + individuals[j]! * P;
      for (let p = 0; p < P; p++) {
        const a = data.calls[o + p]!;
        if (a !== MISSING) counts[a]!++;
      }
    }
  }
  return counts;
}

/** Minor-allele frequency: the second largest allele frequency (for biallelic loci, the usual MAF). NaN if no call. */
export function minorAlleleFrequency(counts: Float64Array): number {
  let total = 0;
  let first = 0;
  let second = 0;
  for (const c of counts) {
    total += c;
    if (c > first) {
      second = first;
      first = c;
    } else if (c > second) second = c;
  }
  return total === 0 ? NaN : second / total;
}
