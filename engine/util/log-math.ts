import { detExp, detLog, detLog1p, detLogGamma } from './det-math.ts';

/** ln Γ(x), the same bits in every engine (det-math.ts). */
export const logGamma: (x: number) => number = detLogGamma;

/** ln(e^a + e^b) without overflow. */
export function logAddExp(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  return a > b ? a + detLog1p(detExp(b - a)) : b + detLog1p(detExp(a - b));
}

/**
 * Normalises row `row` of a row-major (rows × K) array of log values in place into
 * probabilities and returns the row's log-sum-exp.
 */
export function normalizeLogRow(values: Float64Array, row: number, K: number): number {
  const o = row * K;
  let max = -Infinity;
  for (let c = 0; c < K; c++) if (values[o + c]! > max) max = values[o + c]!;
  let sum = 0;
  for (let c = 0; c < K; c++) {
    const e = detExp(values[o + c]! - max);
    values[o + c] = e;
    sum += e;
  }
  for (let c = 0; c < K; c++) values[o + c]! /= sum;
  return max + detLog(sum);
}
