import { MISSING, type GenotypeData } from './genotype-data.ts';
import { locusCalls } from './packed-calls.ts';

/**
 * Allele counts of locus l over all individuals (or the given ones): shape (nAlleles,).
 * Missing copies are skipped.
 */
export function alleleCounts(
  data: GenotypeData,
  l: number,
  individuals?: ArrayLike<number>,
  scratch?: Int8Array,
): Float64Array {
  const calls = locusCalls(data, l, scratch);
  return blockAlleleCounts(calls, data.loci[l]!.alleles.length, data.ploidy, individuals);
}

/** Allele counts of one locus's block of calls (see {@link locusCalls}); missing copies skipped. */
export function blockAlleleCounts(
  calls: ArrayLike<number>,
  nAlleles: number,
  P: number,
  individuals?: ArrayLike<number>,
): Float64Array {
  const counts = new Float64Array(nAlleles);
  if (individuals === undefined) {
    for (let k = 0; k < calls.length; k++) {
      const a = calls[k]!;
      if (a !== MISSING) counts[a]!++;
    }
  } else {
    for (let j = 0; j < individuals.length; j++) {
      const o = individuals[j]! * P;
      for (let p = 0; p < P; p++) {
        const a = calls[o + p]!;
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
