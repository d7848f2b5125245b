// The passes of the admixture Q block's Newton step in JavaScript, used where WebAssembly is
// missing: wasm-passes.ts runs the same operations in the same order (tests/model/wasm-passes.test.ts).
import { detLog } from '../../util/det-math.ts';

/** x^c for an integer c ≥ 1 by c − 1 products (as the WebAssembly passes compute it). */
function power(x: number, c: number): number {
  let y = x;
  for (let t = 1; t < c; t++) y *= x;
  return y;
}

/** What the passes of the Q block's Newton step read and accumulate into (see q-newton.ts). */
export interface NewtonPassArguments {
  readonly N: number;
  readonly L: number;
  readonly K: number;
  readonly genotypeOf: Uint8Array | Uint16Array | Int32Array;
  readonly genotypeOffsets: Int32Array;
  readonly heldOut: Uint8Array | undefined;
  readonly start: Int32Array;
  readonly row: Int32Array;
  readonly count: Float64Array;
  readonly Q: Float64Array;
  readonly F: Float64Array;
  /** Zeroed by the caller, shape (N, K) and (N, K(K+1)/2): Σ c f/d and the packed lower triangle of Σ c f fᵀ/d². */
  readonly gradient: Float64Array;
  readonly hessian: Float64Array;
  /** Shape (N, K): the step Δ; shape (N,): 1 for the individuals to check, and their gains (zeroed) and running products (ones). */
  readonly step: Float64Array;
  readonly pending: Uint8Array;
  readonly gain: Float64Array;
  readonly ratio: Float64Array;
}

/**
 * The gradient g_i = Σ c f/d and the packed lower triangle of A_i = Σ c f fᵀ/d² of every
 * individual's ln L at (Q, F) (d = q_i · f, f the copy's row of F, c its count), added to
 * a.gradient and a.hessian, term by term.
 */
export function derivativesPass(a: NewtonPassArguments): void {
  const { N, L, K, genotypeOf, genotypeOffsets, heldOut, start, row, count, Q, F, gradient, hessian } = a;
  const T = (K * (K + 1)) / 2;
  for (let l = 0; l < L; l++) {
    const gOff = genotypeOffsets[l]!;
    const base = l * N;
    for (let i = 0; i < N; i++) {
      if (heldOut !== undefined && heldOut[i * L + l] === 1) continue;
      const g = gOff + genotypeOf[base + i]!;
      const end = start[g + 1]!;
      const qi = i * K;
      for (let j = start[g]!; j < end; j++) {
        const fr = row[j]! * K;
        let d = 0;
        for (let k = 0; k < K; k++) d += Q[qi + k]! * F[fr + k]!;
        const u = 1 / d;
        const w = count[j]! * u;
        let t = i * T;
        for (let k = 0; k < K; k++) {
          const f = F[fr + k]!;
          gradient[qi + k]! += w * f;
          const y = u * f;
          for (let m = 0; m <= k; m++) hessian[t++]! += y * (w * F[fr + m]!);
        }
      }
    }
  }
}

/**
 * For every pending individual, ln L_i(q + Δ) − ln L_i(q) at F: adds to a.gain the logs of running
 * products of the ratios (1 + Δ·f/d)^c, a logarithm (detLog) only when a product leaves [1e-200, 1e200]
 * after a locus;
 * the caller adds the log of what is left in a.ratio.
 */
export function gainPass(a: NewtonPassArguments): void {
  const { N, L, K, genotypeOf, genotypeOffsets, heldOut, start, row, count, Q, F, step, pending, gain, ratio } = a;
  for (let l = 0; l < L; l++) {
    const gOff = genotypeOffsets[l]!;
    const base = l * N;
    for (let i = 0; i < N; i++) {
      if (pending[i] === 0 || (heldOut !== undefined && heldOut[i * L + l] === 1)) continue;
      const g = gOff + genotypeOf[base + i]!;
      const end = start[g + 1]!;
      const qi = i * K;
      let p = ratio[i]!;
      for (let j = start[g]!; j < end; j++) {
        const fr = row[j]! * K;
        let d = 0;
        let e = 0;
        for (let k = 0; k < K; k++) {
          const f = F[fr + k]!;
          d += Q[qi + k]! * f;
          e += step[qi + k]! * f;
        }
        const x = 1 + e / d;
        const c = count[j]!;
        p *= c === 1 ? x : c === 2 ? x * x : power(x, c);
      }
      if (p < 1e-200 || p > 1e200) {
        gain[i]! += detLog(p);
        p = 1;
      }
      ratio[i] = p;
    }
  }
}
