import { alleleCounts } from '../data/allele-counts.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import { maxGenotypes, type PreparedData } from '../model/prepared/prepared-data.ts';
import { locusMarginal } from '../model/prepared/locus-groups.ts';
import { rowLoops } from '../model/mixture/row-loops.ts';
import type { MixtureModel } from '../model/mixture/mixture-model.ts';
import { detLog } from '../util/det-math.ts';
import type { Model } from '../util/choices.ts';

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
  const parts = new Float64Array(2 * L);
  for (let i = 0; i < L; i++) locusComponents(sizes, alleles[i]!, (j, k) => freq(i, j, k), parts, 2 * i);
  return combineLoci(parts, L);
}

/**
 * The estimator's a_i and b_i at one locus (written to out[at], out[at + 1]) for clusters of sizes
 * `sizes` (those of size 0 left out: they are not sampled there) with `r` alleles.
 */
function locusComponents(
  sizes: ArrayLike<number>,
  r: number,
  freq: (j: number, k: number) => number,
  out: Float64Array,
  at: number,
): void {
  let N = 0;
  let sumSq = 0;
  let clusters = 0;
  for (let j = 0; j < sizes.length; j++) {
    const n = sizes[j]!;
    if (!(n > 0)) continue;
    N += n;
    sumSq += n * n;
    clusters++;
  }
  out[at] = 0;
  out[at + 1] = 0;
  if (clusters < 2) return;
  const nc = (N - sumSq / N) / (clusters - 1);
  let b = 0;
  let between = 0;
  for (let k = 0; k < r; k++) {
    let mean = 0;
    for (let j = 0; j < sizes.length; j++) if (sizes[j]! > 0) mean += (sizes[j]! / N) * freq(j, k);
    for (let j = 0; j < sizes.length; j++) if (sizes[j]! > 0) between += sizes[j]! * (freq(j, k) - mean) ** 2;
  }
  for (let j = 0; j < sizes.length; j++) {
    if (!(sizes[j]! > 0)) continue;
    let hom = 0;
    for (let k = 0; k < r; k++) hom += freq(j, k) ** 2;
    b += sizes[j]! * (1 - hom);
  }
  b = (2 * b) / (2 * N - clusters);
  out[at] = nc > 0 ? (2 * between - (clusters - 1) * b) / (2 * (clusters - 1) * nc) : 0;
  out[at + 1] = b;
}

/** F_ST over loci from their (a_i, b_i) pairs, and per locus. */
function combineLoci(parts: Float64Array, L: number): FstResult {
  const perLocus = new Float64Array(L);
  let sumA = 0;
  let sumAB = 0;
  for (let i = 0; i < L; i++) {
    const a = parts[2 * i]!;
    const b = parts[2 * i + 1]!;
    sumA += a;
    sumAB += a + b;
    perLocus[i] = a + b > 0 ? Math.max(0, -detLog(1 - a / (a + b))) : 0;
  }
  const fst = sumAB > 0 ? Math.max(0, -detLog(1 - sumA / sumAB)) : 0;
  return { fst, perLocus };
}

/**
 * F_ST of a clustering read from its memberships and the observed genotypes: at locus i cluster
 * j's allele counts are the observed copies weighted by membership, n_ijk = Σ_d Q_dj c_dik, its
 * frequencies p_ijk = n_ijk / Σ_k n_ijk and its size the individuals typed there, n_ij =
 * Σ_d Q_dj (observed copies of d) / ploidy. These are the sample's frequencies, as the estimator
 * assumes: the model's cluster frequencies are posterior means whose prior pseudo-counts pull a
 * cluster of a few individuals towards uniform frequencies, which took F_ST to 0 on samples of
 * 5 per population (docs/algorithms.md §8). Hard memberships give {@link fstFromAssignments}.
 *
 * @param Q shape (N, K): memberships (rows sum to 1)
 */
export function fstFromMemberships(data: PreparedData, Q: ArrayLike<number>, K: number): FstResult {
  const { N, L, P, groups, genotypeOffsets } = data;
  const parts = new Float64Array(2 * L);
  const W = new Float64Array(maxGenotypes(data) * K);
  const counts = new Float64Array(data.alleles.reduce((m, r) => Math.max(m, r), 0) * K);
  const sizes = new Float64Array(K);
  const copies = new Float64Array(K);
  // W[g, j] = Σ over individuals with genotype g of Q_dj: summed per combined code of each locus
  // group first (one visit of each individual per group, as the expected counts), then per locus.
  const loops = rowLoops(data, K, Math.max(1, groups.maxCombined, maxGenotypes(data)));
  for (let k = 0; k < N * K; k++) loops.rows[k] = Q[k]!;
  const table = loops.table;
  for (let q = 0; q + 1 < groups.first.length; q++) {
    const i0 = groups.first[q]!;
    const size = groups.size[q]!;
    table.fill(0, 0, size * K);
    if (groups.row[q]! < 0) loops.gather(data.locusCodes, i0 * N);
    else loops.gather(groups.codes, groups.row[q]! * N);
    let stride = size;
    for (let i = i0; i < groups.first[q + 1]!; i++) {
      const g0 = genotypeOffsets[i]!;
      const G = genotypeOffsets[i + 1]! - g0;
      stride /= G;
      locusMarginal(table, size, stride, G, K, W);
      const r = data.alleles[i]!;
      counts.fill(0, 0, r * K);
      sizes.fill(0);
      copies.fill(0);
      for (let g = 0; g < G; g++) {
        let observed = 0;
        for (let p = 0; p < P; p++) {
          const a = data.genotypeAlleles[(g0 + g) * P + p]!;
          if (a < 0) continue;
          observed++;
          for (let j = 0; j < K; j++) counts[a * K + j]! += W[g * K + j]!;
        }
        for (let j = 0; j < K; j++) sizes[j]! += (W[g * K + j]! * observed) / P;
      }
      for (let k = 0; k < r; k++) for (let j = 0; j < K; j++) copies[j]! += counts[k * K + j]!;
      locusComponents(sizes, r, (j, k) => counts[k * K + j]! / copies[j]!, parts, 2 * i);
    }
  }
  return combineLoci(parts, L);
}

/** F_ST from a model's cluster weights and allele frequencies (the dissertation's choice), n_j = N·θ_C−j. */
export function fstFromModel(data: PreparedData, model: MixtureModel): FstResult {
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

/** What F_ST per K reads of a fitted run. */
export interface FstOfRun {
  readonly K: number;
  /** shape (N, K): memberships (mixture) or ancestry proportions (admixture). */
  readonly Q: ArrayLike<number>;
  readonly model: MixtureModel;
  /** Absent: the mixture model. */
  readonly kind?: Model;
}

/**
 * F_ST of a run as Choose K and the marker ranking report it: between the clusters its
 * memberships define (mixture model, {@link fstFromMemberships}), or between the ancestral
 * populations whose maximum-likelihood frequencies the admixture model fitted ({@link fstFromModel}).
 */
export function runFst(data: PreparedData, run: FstOfRun): FstResult {
  return run.kind === 'admixture' ? fstFromModel(data, run.model) : fstFromMemberships(data, run.Q, run.K);
}
