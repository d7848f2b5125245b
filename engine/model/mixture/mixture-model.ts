import type { InitMethod } from '../../util/choices.ts';
import { genotypeCounts, type PreparedData } from '../prepared/prepared-data.ts';
import { gammaDraw, type Rng } from '../../util/rng.ts';
import { seededModel } from './seeded-start.ts';

/**
 * A naive Bayes mixture over genotypes (the no-admixture model): cluster weights θ_C and, per
 * cluster, allele frequencies at every locus; the copies of a genotype are independent draws.
 *   weights: shape (K,)
 *   theta:   shape (Σ r_i, K), row offsets[i] + a, column c: θ_ica = p(allele a at locus i | c)
 */
export interface MixtureModel {
  readonly K: number;
  readonly weights: Float64Array;
  readonly theta: Float64Array;
}

/** How random starting parameters are drawn. */
export type { InitMethod };

/** Pooled frequencies per prepared dataset (every start of a worker draws around the same ones). */
const pooledCache = new WeakMap<PreparedData, Float64Array>();

/**
 * Observed allele frequencies (add-½ smoothed), shape (Σ r_i,), the centre of the 'data' start.
 * Computed once per prepared dataset and shared: callers must not modify the array.
 */
export function pooledFrequencies(data: PreparedData): Float64Array {
  const known = pooledCache.get(data);
  if (known) return known;
  const f = new Float64Array(data.totalAlleles);
  const { P, offsets, alleles, genotypeOffsets, genotypeAlleles } = data;
  // Copies counted per distinct genotype, then spread over the genotype's alleles.
  const seen = genotypeCounts(data);
  for (let i = 0; i < data.L; i++) {
    const off = offsets[i]!;
    let total = 0;
    for (let g = genotypeOffsets[i]!; g < genotypeOffsets[i + 1]!; g++)
      for (let p = 0; p < P; p++) {
        const a = genotypeAlleles[g * P + p]!;
        if (a < 0) continue;
        f[off + a]! += seen[g]!;
        total += seen[g]!;
      }
    for (let a = 0; a < alleles[i]!; a++) f[off + a] = (f[off + a]! + 0.5) / (total + 0.5 * alleles[i]!);
  }
  pooledCache.set(data, f);
  return f;
}

/**
 * Random starting parameters (docs/algorithms.md §3: random parameters, never random memberships).
 * 'data' (this function's default; `--init`'s is 'individuals'): each cluster's frequencies at locus i from Dirichlet(p̂_i), centred on the
 * pooled frequencies p̂_i, so every cluster starts plausible and the first E step splits the
 * individuals into balanced random groups. 'flat': Dirichlet(1, …, 1) as in the text; on the toy
 * example of 8.3 it makes one cluster take almost everyone in most starts. 'individuals': each
 * cluster around one of K individuals chosen far apart (seeded-start.ts). Weights start equal.
 */
export function randomModel(
  data: PreparedData,
  K: number,
  rng: Rng,
  method: InitMethod = 'data',
  pooled?: Float64Array,
): MixtureModel {
  if (method === 'individuals') return seededModel(data, K, rng, pooled ?? pooledFrequencies(data));
  const centre = method === 'data' ? (pooled ?? pooledFrequencies(data)) : undefined;
  const theta = new Float64Array(data.totalAlleles * K);
  for (let i = 0; i < data.L; i++) {
    const o = data.offsets[i]!;
    const r = data.alleles[i]!;
    for (let c = 0; c < K; c++) {
      let s = 0;
      for (let a = 0; a < r; a++) {
        const x = (centre ? gammaDraw(centre[o + a]!, rng) : rng.exponential()) + 1e-12;
        theta[(o + a) * K + c] = x;
        s += x;
      }
      for (let a = 0; a < r; a++) theta[(o + a) * K + c]! /= s;
    }
  }
  return { K, weights: new Float64Array(K).fill(1 / K), theta };
}

/** A copy of a model with its clusters reordered: new cluster c is old cluster perm[c]. */
export function permuteModel(m: MixtureModel, perm: ArrayLike<number>): MixtureModel {
  const K = m.K;
  const weights = new Float64Array(K);
  const theta = new Float64Array(m.theta.length);
  for (let c = 0; c < K; c++) weights[c] = m.weights[perm[c]!]!;
  for (let row = 0; row < m.theta.length / K; row++)
    for (let c = 0; c < K; c++) theta[row * K + c] = m.theta[row * K + perm[c]!]!;
  return { K, weights, theta };
}

/** Largest absolute difference between two models' parameters (the L∞ norm used for convergence). */
export function maxParameterChange(a: MixtureModel, b: MixtureModel): number {
  let d = 0;
  for (let k = 0; k < a.weights.length; k++) d = Math.max(d, Math.abs(a.weights[k]! - b.weights[k]!));
  for (let k = 0; k < a.theta.length; k++) d = Math.max(d, Math.abs(a.theta[k]! - b.theta[k]!));
  return d;
}

/** p(x) = Σ_c θ_C(c) θ(x | c) for parameter row `row` (a locus–allele pair). */
export function marginalFrequency(model: MixtureModel, row: number): number {
  let p = 0;
  for (let c = 0; c < model.K; c++) p += model.weights[c]! * model.theta[row * model.K + c]!;
  return p;
}
