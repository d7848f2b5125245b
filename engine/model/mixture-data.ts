import type { AlleleCalls, GenotypeData } from '../data/genotype-data.ts';

/**
 * What the clustering loops read: the calls in the data model's locus-major layout plus the
 * per-locus allele offsets that index the parameter arrays.
 *   alleles: shape (L,), r_i = number of alleles of locus i (at least 1)
 *   offsets: shape (L + 1,), offsets[i] = Σ_{i' < i} r_i'; a (locus, allele) pair is row offsets[i] + a
 */
export interface MixtureData {
  readonly N: number;
  readonly L: number;
  readonly P: number;
  readonly calls: AlleleCalls;
  readonly alleles: Int32Array;
  readonly offsets: Int32Array;
  /** Σ_i r_i. */
  readonly totalAlleles: number;
}

/** Prepares a dataset for clustering (no copy of the calls). */
export function mixtureData(data: GenotypeData): MixtureData {
  const L = data.loci.length;
  const alleles = new Int32Array(L);
  const offsets = new Int32Array(L + 1);
  for (let i = 0; i < L; i++) {
    alleles[i] = Math.max(1, data.loci[i]!.alleles.length);
    offsets[i + 1] = offsets[i]! + alleles[i]!;
  }
  return { N: data.individuals.length, L, P: data.ploidy, calls: data.calls, alleles, offsets, totalAlleles: offsets[L]! };
}
