import { MISSING, type GenotypeData } from './genotype-data.ts';

/**
 * Genotype-level states of one locus: each distinct unordered genotype (any ploidy) gets an
 * index in order of appearance; a genotype with a missing copy is MISSING.
 * Returns states per individual, shape (N,), and the number of distinct genotypes (at least 1).
 */
export function genotypeStates(data: GenotypeData, locus: number): { values: Int16Array; count: number } {
  const N = data.individuals.length;
  const P = data.ploidy;
  const values = new Int16Array(N);
  const copy = new Int32Array(P);
  const seen = new Map<string, number>();
  for (let d = 0; d < N; d++) {
    let missing = false;
    for (let p = 0; p < P; p++) {
      copy[p] = data.calls[(locus * N + d) * P + p]!;
      if (copy[p] === MISSING) missing = true;
    }
    if (missing) {
      values[d] = MISSING;
      continue;
    }
    copy.sort();
    const key = copy.join(',');
    let g = seen.get(key);
    if (g === undefined) seen.set(key, (g = seen.size));
    values[d] = g;
  }
  if (seen.size > 0x7fff)
    throw new RangeError(
      `locus ${data.loci[locus]!.name}: ${seen.size} distinct genotypes is more than genotype-level variables can hold`,
    );
  return { values, count: Math.max(1, seen.size) };
}
