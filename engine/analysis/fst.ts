import { alleleCounts } from '../data/allele-counts.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import type { MixtureData } from '../model/mixture/mixture-data.ts';
import type { MixtureModel } from '../model/mixture/mixture-model.ts';
import { detLog } from '../util/det-math.ts';

/** F_ST of a clustering and its per-locus values (shape (L,)). */
export interface FstResult {
  readonly fst: number;
  readonly perLocus: Float64Array;
}

/**
 * The Reynolds, Weir & Cockerham (1983) estimator (equation 8.2 corrected, docs/algorithms.md §8)
 * for r clusters of sizes n_j (Σ n_j = N) with allele frequencies p_jk at each locus:
 *   p̄_k = Σ_j (n_j/N) p_jk,   n_c = (N − Σ_j n_j²/N)/(r − 1),
 *   b_i = 2 Σ_j n_j (1 − Σ_k p_jk²) / (2N − r),
 *   a_i = [2 Σ_j n_j Σ_k (p_jk − p̄_k)² − (r − 1) b_i] / (2 (r − 1) n_c),
 *   F_ST = −ln(1 − Σ_i a_i / Σ_i (a_i + b_i)).
 * Negative estimates (sampling error when clusters do not differ) are reported as 0, so identical
 * clusters give 0. Per-locus F_ST applies the same formula to one locus.
 *
 * @param sizes   shape (r,): n_j
 * @param freq    (i, j, k) → p_jk at locus i
 * @param alleles shape (L,): r_i
 */
export function reynoldsFst(
  sizes: ArrayLike<number>,
  L: number,
  alleles: ArrayLike<number>,
  freq: (i: number, j: number, k: number) => number,
): FstResult {
  const r = sizes.length;
  let N = 0;
  let sumSq = 0;
  for (let j = 0; j < r; j++) N += sizes[j]!;
  for (let j = 0; j < r; j++) sumSq += sizes[j]! ** 2;
  const perLocus = new Float64Array(L);
  if (r < 2 || N <= 0) return { fst: 0, perLocus };
  const nc = (N - sumSq / N) / (r - 1);
  let sumA = 0;
  let sumAB = 0;
  for (let i = 0; i < L; i++) {
    let b = 0;
    let between = 0;
    for (let k = 0; k < alleles[i]!; k++) {
      let mean = 0;
      for (let j = 0; j < r; j++) mean += (sizes[j]! / N) * freq(i, j, k);
      for (let j = 0; j < r; j++) between += sizes[j]! * (freq(i, j, k) - mean) ** 2;
    }
    for (let j = 0; j < r; j++) {
      let hom = 0;
      for (let k = 0; k < alleles[i]!; k++) hom += freq(i, j, k) ** 2;
      b += sizes[j]! * (1 - hom);
    }
    b = (2 * b) / (2 * N - r);
    const a = nc > 0 ? (2 * between - (r - 1) * b) / (2 * (r - 1) * nc) : 0;
    sumA += a;
    sumAB += a + b;
    perLocus[i] = a + b > 0 ? Math.max(0, -detLog(1 - a / (a + b))) : 0;
  }
  const fst = sumAB > 0 ? Math.max(0, -detLog(1 - sumA / sumAB)) : 0;
  return { fst, perLocus };
}

/** F_ST from a model's cluster weights and allele frequencies (the dissertation's choice), n_j = N·θ_C−j. */
export function fstFromModel(data: MixtureData, model: MixtureModel): FstResult {
  const K = model.K;
  const sizes = Array.from(model.weights, (w) => w * data.N);
  return reynoldsFst(sizes, data.L, data.alleles, (i, j, k) => model.theta[(data.offsets[i]! + k) * K + j]!);
}

/** F_ST from hard assignments: cluster sizes and observed allele frequencies within clusters (empty clusters dropped). */
export function fstFromAssignments(data: GenotypeData, clusters: ArrayLike<number>): FstResult {
  const groups = new Map<number, number[]>();
  for (let d = 0; d < clusters.length; d++) {
    const g = groups.get(clusters[d]!) ?? [];
    g.push(d);
    groups.set(clusters[d]!, g);
  }
  const members = [...groups.values()];
  const L = data.loci.length;
  const freqs = members.map((idx) =>
    data.loci.map((_, i) => {
      const c = alleleCounts(data, i, idx);
      const t = c.reduce((a, b) => a + b, 0);
      return t > 0 ? c.map((x) => x / t) : c;
    }),
  );
  return reynoldsFst(
    members.map((m) => m.length),
    L,
    data.loci.map((l) => l.alleles.length),
    (i, j, k) => freqs[j]![i]![k] ?? 0,
  );
}
