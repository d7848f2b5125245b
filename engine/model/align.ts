import { maxAssignment } from '../util/hungarian.ts';

/**
 * The permutation that best matches the clusters of `q` to those of `reference` (both shape
 * (N, K), row-major) by maximum membership overlap Σ_d ref[d][c]·q[d][perm[c]]: cluster c of the
 * aligned result is cluster perm[c] of `q`.
 */
export function alignToReference(reference: Float64Array, q: Float64Array, N: number, K: number): Int32Array {
  const overlap = new Float64Array(K * K);
  for (let d = 0; d < N; d++) {
    const o = d * K;
    for (let a = 0; a < K; a++) {
      const r = reference[o + a]!;
      if (r === 0) continue;
      for (let b = 0; b < K; b++) overlap[a * K + b]! += r * q[o + b]!;
    }
  }
  return maxAssignment(overlap, K);
}

/** Reorders the columns of an (N, K) matrix: column c of the result is column perm[c] of q. */
export function permuteColumns(q: Float64Array, N: number, K: number, perm: ArrayLike<number>): Float64Array {
  const out = new Float64Array(q.length);
  for (let d = 0; d < N; d++) for (let c = 0; c < K; c++) out[d * K + c] = q[d * K + perm[c]!]!;
  return out;
}
