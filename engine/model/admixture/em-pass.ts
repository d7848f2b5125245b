// The admixture model's EM pass in JavaScript, used where WebAssembly is missing: wasm-passes.ts
// runs the same operations in the same order (tests/model/wasm-passes.test.ts checks the bits).
import { detLog } from '../../util/det-math.ts';

/** What one EM pass reads and accumulates into (see emStep in admixture.ts). */
export interface PassArguments {
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
  /** Zeroed by the caller; receive Σ over copies of the ancestry posteriors per (individual, k) and (F row, k). */
  readonly Qn: Float64Array;
  readonly Fn: Float64Array;
  /** Scratch, shape (K,). */
  readonly terms: Float64Array;
}

/**
 * One pass over the observed copies: with w_ilak = q_ik f_kla / d_ila adds c·w to Qn and Fn for
 * each distinct allele (c copies) of each individual's genotype, and returns Σ c ln d (ln L),
 * computed as the sum of logs of running products (each d ≤ 1), flushed below 1e-250.
 */
export function emPass(a: PassArguments): number {
  const { N, L, K, genotypeOf, genotypeOffsets, heldOut, start, row, count, Q, F, Qn, Fn, terms } = a;
  let ll = 0;
  let product = 1;
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
        const c = count[j]!;
        let d = 0;
        for (let k = 0; k < K; k++) {
          const x = Q[qi + k]! * F[fr + k]!;
          terms[k] = x;
          d += x;
        }
        for (let t = 0; t < c; t++) {
          product *= d;
          if (product < 1e-250) {
            ll += detLog(product);
            product = 1;
          }
        }
        const s = c / d;
        for (let k = 0; k < K; k++) {
          const w = terms[k]! * s;
          Qn[qi + k]! += w;
          Fn[fr + k]! += w;
        }
      }
    }
  }
  return ll + detLog(product);
}
