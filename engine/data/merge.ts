import { allocateCalls, MISSING, type GenotypeData, type Individual, type Locus } from './genotype-data.ts';

/**
 * Appends the individuals of `other` to `base`, matching loci by name and alleles by their
 * original names (new alleles are added to the locus's table). Loci of `base` absent from
 * `other` are missing for its individuals. The ploidy must agree. The appended individuals keep
 * their labels unless `unlabel` (then they are the ones to classify).
 */
export function appendIndividuals(base: GenotypeData, other: GenotypeData, unlabel = true): GenotypeData {
  if (base.ploidy !== other.ploidy)
    throw new RangeError(`appendIndividuals: ploidy ${other.ploidy} does not match the training data's ${base.ploidy}`);
  const P = base.ploidy;
  const N1 = base.individuals.length;
  const N2 = other.individuals.length;
  const N = N1 + N2;
  const ids = new Set(base.individuals.map((i) => i.id));
  const dup = other.individuals.find((i) => ids.has(i.id));
  if (dup) throw new RangeError(`appendIndividuals: individual "${dup.id}" is in both files`);
  const otherLocus = new Map(other.loci.map((l, k) => [l.name, k]));
  const loci: Locus[] = base.loci.map((l) => ({ ...l, alleles: [...l.alleles] }));
  const maps = loci.map((l, k) => {
    const j = otherLocus.get(l.name);
    if (j === undefined) return undefined;
    const index = new Map(l.alleles.map((a, x) => [a, x]));
    return other.loci[j]!.alleles.map((a) => {
      let x = index.get(a);
      if (x === undefined) {
        x = l.alleles.length;
        (loci[k]!.alleles as string[]).push(a);
        index.set(a, x);
      }
      return x;
    });
  });
  const maxA = Math.max(0, ...loci.map((l) => l.alleles.length));
  const calls = allocateCalls(loci.length * N * P, maxA);
  loci.forEach((_, l) => {
    calls.set(base.calls.subarray(l * N1 * P, (l + 1) * N1 * P), l * N * P);
    const j = otherLocus.get(base.loci[l]!.name);
    const map = maps[l];
    for (let d = 0; d < N2; d++)
      for (let p = 0; p < P; p++) {
        const a = j === undefined ? MISSING : other.calls[(j * N2 + d) * P + p]!;
        calls[(l * N + N1 + d) * P + p] = a === MISSING || !map ? MISSING : map[a]!;
      }
  });
  const individuals: Individual[] = [
    ...base.individuals,
    ...other.individuals.map((i) => (unlabel ? { id: i.id } : i)),
  ];
  return { ploidy: P, individuals, loci, calls, phased: base.phased && other.phased, source: base.source };
}
