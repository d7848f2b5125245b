import { detLog, detExp } from '../../util/det-math.ts';
import { detLogInto } from '../../util/det-math-bulk.ts';
import { genotypeLogs } from './e-step.ts';
import { maxGenotypes, type MixtureData } from './mixture-data.ts';
import type { MixtureModel } from './mixture-model.ts';
import type { LocusBlocks } from './genome-windows.ts';

/**
 * The delete-one-block jackknife standard error of a total over B blocks (a held-out
 * log-likelihood, which grows with the markers), from the totals T₋b without each block: each
 * T₋b is first scaled to the whole, B/(B − 1) · T₋b, then √((B − 1)/B · Σ_b (x_b − mean x)²).
 * For a plain sum of block terms t_b this is √B times their standard deviation, exactly. NaN
 * with fewer than two blocks.
 */
export function jackknifeError(withoutBlock: ArrayLike<number>): number {
  const B = withoutBlock.length;
  if (B < 2) return NaN;
  const scale = B / (B - 1);
  let mean = 0;
  for (let b = 0; b < B; b++) mean += scale * withoutBlock[b]!;
  mean /= B;
  let ss = 0;
  for (let b = 0; b < B; b++) ss += (scale * withoutBlock[b]! - mean) ** 2;
  return Math.sqrt(((B - 1) / B) * ss);
}

/**
 * Adds to out[b], for every block b, Σ_d ln p(x_d without block b's loci) under the model
 * (ln Σ_c θ_C(c) Π over the other loci θ_ic(x_di)); missing copies are skipped as in the E step.
 * Two passes over the loci: the first sums each individual's rows, the second takes each block
 * out of them; memory N × K twice, whatever the number of blocks.
 */
export function addBlockDeletedLogLiks(
  data: MixtureData,
  model: MixtureModel,
  blocks: LocusBlocks,
  out: Float64Array,
): void {
  const { N, L, genotypeOf } = data;
  const K = model.K;
  const lt = new Float64Array(model.theta.length);
  detLogInto(model.theta, lt);
  const lg = new Float64Array(Math.max(1, maxGenotypes(data)) * K);
  const rows = new Float64Array(N * K);
  for (let c = 0; c < K; c++) rows[c] = detLog(model.weights[c]!);
  for (let d = 1; d < N; d++) rows.copyWithin(d * K, 0, K);
  const addLocus = (i: number, target: Float64Array, sign: number) => {
    genotypeLogs(data, i, K, lt, lg);
    for (let d = 0; d < N; d++) {
      const g = genotypeOf[i * N + d]! * K;
      for (let c = 0; c < K; c++) target[d * K + c]! += sign * lg[g + c]!;
    }
  };
  for (let i = 0; i < L; i++) addLocus(i, rows, 1);
  // Loci of each block, in order.
  const members: number[][] = Array.from({ length: blocks.count }, () => []);
  for (let i = 0; i < L; i++) members[blocks.of[i]!]!.push(i);
  const without = new Float64Array(N * K);
  for (let b = 0; b < blocks.count; b++) {
    if (members[b]!.length === 0) continue;
    without.set(rows);
    for (const i of members[b]!) addLocus(i, without, -1);
    let total = 0;
    for (let d = 0; d < N; d++) {
      const o = d * K;
      let max = -Infinity;
      for (let c = 0; c < K; c++) if (without[o + c]! > max) max = without[o + c]!;
      let sum = 0;
      for (let c = 0; c < K; c++) sum += detExp(without[o + c]! - max);
      total += max + detLog(sum);
    }
    out[b]! += total;
  }
}
