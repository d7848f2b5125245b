import { detLog } from '../../util/det-math.ts';
import type { PassData } from './pass-data.ts';

/** Rows of F per block of the derivative pass at K: about 4 MiB of Hessians. */
export function fBlockRows(K: number): number {
  return Math.max(1, Math.floor((1 << 22) / (4 * K * (K + 1))));
}

/** A block of loci l0 ≤ l < l1 and their rows of F (rowBase and `rows` after it). */
export interface FBlock {
  readonly l0: number;
  readonly l1: number;
  readonly rowBase: number;
  readonly rows: number;
}

/**
 * The loci in order, in blocks of at most fBlockRows(K) rows of F (one locus alone may exceed it):
 * the blocks of F's derivative pass. `offsets`: per locus its first row (length L + 1).
 */
export function* fBlocks(offsets: Int32Array, L: number, K: number): Generator<FBlock> {
  const blockRows = fBlockRows(K);
  for (let l0 = 0; l0 < L;) {
    const rowBase = offsets[l0]!;
    let l1 = l0 + 1;
    while (l1 < L && offsets[l1 + 1]! - rowBase <= blockRows) l1++;
    yield { l0, l1, rowBase, rows: offsets[l1]! - rowBase };
    l0 = l1;
  }
}

/** What the derivative pass of F's Newton step reads (every pass's data, Q and F) and writes (f-newton.ts). */
export interface FDerivativeArguments extends PassData {
  /** Shape (N, K(K+1)/2): per individual the packed lower triangle of q qᵀ. */
  readonly outer: Float64Array;
  /** Zeroed by the caller; rows from rowBase (the first row of the loci passed): shape (rows, K) and (rows, K(K+1)/2). */
  readonly gradient: Float64Array;
  readonly hessian: Float64Array;
  /** Shape (L,): receives ln L of each locus passed. */
  readonly lociLL: Float64Array;
}

/**
 * For loci l0 ≤ l < l1: per observed entry (an allele of an individual's genotype, c copies) with
 * d = q·f, w = c/d and v = w/d, adds w q to the gradient of the allele's row and v q qᵀ (packed)
 * to its negative Hessian; ln L of each locus (running products flushed below 1e-250, as the EM
 * pass) into lociLL. The WebAssembly pass (wasm-passes.ts) does the same operations in the same order.
 */
export function fDerivativesPass(a: FDerivativeArguments, l0: number, l1: number, rowBase: number): void {
  const { N, L, K, genotypeOf, genotypeOffsets, heldOut, start, row, count, Q, F, outer, gradient, hessian } = a;
  const T = (K * (K + 1)) / 2;
  for (let l = l0; l < l1; l++) {
    const gOff = genotypeOffsets[l]!;
    let ll = 0;
    let product = 1;
    for (let i = 0; i < N; i++) {
      if (heldOut !== undefined && heldOut[i * L + l] === 1) continue;
      const g = gOff + genotypeOf[l * N + i]!;
      const q = i * K;
      const o = i * T;
      for (let j = start[g]!; j < start[g + 1]!; j++) {
        const r = row[j]!;
        const c = count[j]!;
        let d = 0;
        for (let k = 0; k < K; k++) d += Q[q + k]! * F[r * K + k]!;
        for (let t = 0; t < c; t++) {
          product *= d;
          if (product < 1e-250) {
            ll += detLog(product);
            product = 1;
          }
        }
        const w = c / d;
        const v = w / d;
        const gr = (r - rowBase) * K;
        for (let k = 0; k < K; k++) gradient[gr + k]! += w * Q[q + k]!;
        const hr = (r - rowBase) * T;
        for (let t = 0; t < T; t++) hessian[hr + t]! += v * outer[o + t]!;
      }
    }
    a.lociLL[l] = ll + detLog(product);
  }
}

/**
 * ψ_l, ln L of locus l's copies, with the locus's rows of F read from `rows` (row r at
 * (r − firstRow)·K: F itself with firstRow 0, or a step check's trial frequencies with the
 * locus's first row): the same operations in the same order as fDerivativesPass's ln L, so the
 * same bits (and the WebAssembly floglik pass's).
 */
export function locusLogLik(a: PassData, l: number, rows: Float64Array, firstRow: number): number {
  const { N, L, K, genotypeOf, genotypeOffsets, heldOut, start, row, count, Q } = a;
  const gOff = genotypeOffsets[l]!;
  let ll = 0;
  let product = 1;
  for (let i = 0; i < N; i++) {
    if (heldOut !== undefined && heldOut[i * L + l] === 1) continue;
    const g = gOff + genotypeOf[l * N + i]!;
    const q = i * K;
    for (let j = start[g]!; j < start[g + 1]!; j++) {
      const fr = (row[j]! - firstRow) * K;
      let d = 0;
      for (let k = 0; k < K; k++) d += Q[q + k]! * rows[fr + k]!;
      for (let c = count[j]!; c > 0; c--) {
        product *= d;
        if (product < 1e-250) {
          ll += detLog(product);
          product = 1;
        }
      }
    }
  }
  return ll + detLog(product);
}
