import type { Rng } from '../../util/rng.ts';
import { genotypeCode, maxGenotypes, type PreparedData } from '../prepared/prepared-data.ts';

/** How far a seeded cluster's frequencies start from the pooled ones toward its seed's genotype. */
export const SEED_WEIGHT = 0.5;

/**
 * Allele-sharing distance of every genotype of locus i to genotype `s` (docs/algorithms.md §3):
 * 1 − (copies shared, as multisets) / min(observed copies of the two); NaN where either genotype
 * has no observed copy. Genotypes' copies are sorted, missing (−1) first.
 */
function locusDistances(data: PreparedData, i: number, s: number, out: Float64Array): void {
  const { P, genotypeOffsets, genotypeAlleles } = data;
  const g0 = genotypeOffsets[i]!;
  const G = genotypeOffsets[i + 1]! - g0;
  const sb = (g0 + s) * P;
  let sFirst = 0;
  while (sFirst < P && genotypeAlleles[sb + sFirst]! < 0) sFirst++;
  for (let g = 0; g < G; g++) {
    const b = (g0 + g) * P;
    let first = 0;
    while (first < P && genotypeAlleles[b + first]! < 0) first++;
    const observed = Math.min(P - first, P - sFirst);
    if (observed === 0) {
      out[g] = NaN;
      continue;
    }
    // Multiset intersection of two sorted runs.
    let x = first;
    let y = sFirst;
    let shared = 0;
    while (x < P && y < P) {
      const a = genotypeAlleles[b + x]!;
      const c = genotypeAlleles[sb + y]!;
      if (a === c) {
        shared++;
        x++;
        y++;
      } else if (a < c) x++;
      else y++;
    }
    out[g] = 1 - shared / observed;
  }
}

/** Scratch of {@link updateNearest}: a locus's distances and a locus group's combined ones. */
interface NearestScratch {
  readonly sum: Float64Array;
  readonly count: Float64Array;
  readonly table: Float64Array;
  /** shape (2, maxCombined): per combined code of a group, Σ distances and the loci observed in both. */
  readonly groupSum: Float64Array[];
  readonly groupCount: Float64Array[];
}

function nearestScratch(data: PreparedData): NearestScratch {
  const combined = Math.max(1, data.groups.maxCombined);
  return {
    sum: new Float64Array(data.N),
    count: new Float64Array(data.N),
    table: new Float64Array(Math.max(1, maxGenotypes(data))),
    groupSum: [new Float64Array(combined), new Float64Array(combined)],
    groupCount: [new Float64Array(combined), new Float64Array(combined)],
  };
}

/**
 * Lowers `nearest[d]`, individual d's distance to its nearest seed, to its distance to individual
 * `seed` where that is smaller: the mean allele-sharing distance over the loci both have observed.
 * Loci taken together in a group (locus-groups.ts) are summed per combined code first, so each
 * individual is visited once per group.
 */
function updateNearest(data: PreparedData, seed: number, nearest: Float64Array, scratch: NearestScratch): void {
  const { N, locusCodes, genotypeOffsets, groups } = data;
  const { sum, count, table, groupSum, groupCount } = scratch;
  sum.fill(0);
  count.fill(0);
  for (let q = 0; q + 1 < groups.first.length; q++) {
    const from = groups.first[q]!;
    const to = groups.first[q + 1]!;
    if (groups.row[q]! < 0) {
      for (let i = from; i < to; i++) {
        const base = i * N;
        locusDistances(data, i, locusCodes[base + seed]!, table);
        for (let d = 0; d < N; d++) {
          const x = table[locusCodes[base + d]!]!;
          if (x === x) {
            sum[d]! += x;
            count[d]!++;
          }
        }
      }
      continue;
    }
    // Combined code Σ_j g_j · Π_{j' > j} G_j': extend the table locus by locus (first locus most significant).
    let size = 1;
    let cur = 0;
    groupSum[0]![0] = 0;
    groupCount[0]![0] = 0;
    for (let i = from; i < to; i++) {
      const G = genotypeOffsets[i + 1]! - genotypeOffsets[i]!;
      locusDistances(data, i, genotypeCode(data, i, seed), table);
      const [s0, s1, c0, c1] = [groupSum[cur]!, groupSum[1 - cur]!, groupCount[cur]!, groupCount[1 - cur]!];
      for (let c = 0; c < size; c++)
        for (let g = 0; g < G; g++) {
          const x = table[g]!;
          s1[c * G + g] = x === x ? s0[c]! + x : s0[c]!;
          c1[c * G + g] = x === x ? c0[c]! + 1 : c0[c]!;
        }
      size *= G;
      cur = 1 - cur;
    }
    const s = groupSum[cur]!;
    const n = groupCount[cur]!;
    const row = groups.row[q]! * N;
    for (let d = 0; d < N; d++) {
      const c = groups.codes[row + d]!;
      sum[d]! += s[c]!;
      count[d]! += n[c]!;
    }
  }
  for (let d = 0; d < N; d++) {
    // No locus observed in both: nothing says d is far, so 0 (an individual with no data never
    // becomes a seed by the D² rule).
    const dist = count[d]! > 0 ? sum[d]! / count[d]! : 0;
    if (dist < nearest[d]!) nearest[d] = dist;
  }
}

/** The individuals with at least one observed copy at some locus (everyone when no one has one). */
function typedIndividuals(data: PreparedData): number[] {
  const { N, L, P, genotypeOffsets, genotypeAlleles } = data;
  const typed = new Uint8Array(N);
  // Most individuals are typed at the first loci: only those not yet seen typed are checked on.
  let pending = Int32Array.from({ length: N }, (_, d) => d);
  for (let i = 0; i < L && pending.length > 0; i++) {
    const g0 = genotypeOffsets[i]!;
    let left = 0;
    for (const d of pending) {
      // Copies are sorted with missing (−1) first: the last one is observed unless all are missing.
      if (genotypeAlleles[(g0 + genotypeCode(data, i, d)) * P + P - 1]! >= 0) typed[d] = 1;
      else pending[left++] = d;
    }
    pending = pending.subarray(0, left);
  }
  const list: number[] = [];
  for (let d = 0; d < N; d++) if (typed[d]) list.push(d);
  return list.length > 0 ? list : Array.from({ length: N }, (_, d) => d);
}

/**
 * Starting parameters seeded on K individuals chosen far apart (`--init individuals`; the
 * k-means++ rule of Arthur & Vassilvitskii 2007 with the allele-sharing distance): the first
 * seed uniformly, each next one with probability ∝ D(d)², D(d) the individual's distance to its
 * nearest seed. Cluster c's frequencies at locus i are (1 − λ) p̂_i + λ · (its seed's copies of each
 * allele / its observed copies), λ = {@link SEED_WEIGHT}; p̂_i alone where the seed is missing.
 * From random parameters every cluster is a random draw, and with many markers the first E step
 * hands nearly everyone to the few clusters that happen to fit best: the others stay empty (on
 * eHGDP at K = 20, EM's starts end with 5–9 clusters used). A cluster started on an individual
 * keeps at least the individuals that resemble it. Weights start equal. Returns a MixtureModel
 * (written out: mixture-model.ts imports this module).
 */
export function seededModel(
  data: PreparedData,
  K: number,
  rng: Rng,
  pooled: Float64Array,
): { K: number; weights: Float64Array; theta: Float64Array } {
  const { N, L, P, offsets, alleles, genotypeOffsets, genotypeAlleles } = data;
  const nearest = new Float64Array(N).fill(Infinity);
  const scratch = nearestScratch(data);
  // Individuals with at least one observed copy: the first seed (and a seed drawn when no one
  // is farther than 0) is drawn uniformly among them (among everyone if no one has data).
  const typed = typedIndividuals(data);
  const uniformPick = () => typed[Math.min(typed.length - 1, Math.floor(rng.uniform() * typed.length))]!;
  const seeds: number[] = [uniformPick()];
  for (let c = 1; c < K; c++) {
    updateNearest(data, seeds[c - 1]!, nearest, scratch);
    let total = 0;
    for (let d = 0; d < N; d++) total += nearest[d]! * nearest[d]!;
    let pick = uniformPick();
    if (total > 0) {
      let u = rng.uniform() * total;
      for (let d = 0; d < N; d++) {
        u -= nearest[d]! * nearest[d]!;
        if (u < 0 || d === N - 1) {
          pick = d;
          break;
        }
      }
    }
    seeds.push(pick);
  }
  const theta = new Float64Array(data.totalAlleles * K);
  for (let i = 0; i < L; i++) {
    const o = offsets[i]!;
    const g0 = genotypeOffsets[i]!;
    for (let c = 0; c < K; c++) {
      const g = g0 + genotypeCode(data, i, seeds[c]!);
      let observed = 0;
      for (let p = 0; p < P; p++) if (genotypeAlleles[g * P + p]! >= 0) observed++;
      const lambda = observed > 0 ? SEED_WEIGHT : 0;
      for (let a = 0; a < alleles[i]!; a++) theta[(o + a) * K + c] = (1 - lambda) * pooled[o + a]!;
      for (let p = 0; p < P; p++) {
        const a = genotypeAlleles[g * P + p]!;
        if (a >= 0) theta[(o + a) * K + c]! += lambda / observed;
      }
    }
  }
  return { K, weights: new Float64Array(K).fill(1 / K), theta };
}
