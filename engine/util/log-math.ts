import gammaln from '@stdlib/math-base-special-gammaln';

/** ln Γ(x), from stdlib. */
export const logGamma: (x: number) => number = gammaln;

/** ln(e^a + e^b) without overflow. */
export function logAddExp(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  return a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
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
    const e = Math.exp(values[o + c]! - max);
    values[o + c] = e;
    sum += e;
  }
  for (let c = 0; c < K; c++) values[o + c]! /= sum;
  return max + Math.log(sum);
}
