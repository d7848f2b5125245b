import type { PreparedData } from '../model/prepared/prepared-data.ts';
import { marginalFrequency, type MixtureModel } from '../model/mixture/mixture-model.ts';
import { detLog } from '../util/det-math.ts';

/**
 * Mutual information under the naive Bayes model (docs/algorithms.md §10), natural logs:
 * I(X_i; C) with p(c) = θ_C, p(x | c) = θ_ic, p(x) = Σ_c θ_C θ_ic. Shape (L,).
 */
export function mutualInformationWithCluster(data: PreparedData, model: MixtureModel): Float64Array {
  const K = model.K;
  const out = new Float64Array(data.L);
  for (let i = 0; i < data.L; i++) {
    const off = data.offsets[i]!;
    let s = 0;
    for (let a = 0; a < data.alleles[i]!; a++) {
      const t = (off + a) * K;
      const px = marginalFrequency(model, off + a);
      if (px <= 0) continue;
      for (let c = 0; c < K; c++) {
        const pxc = model.weights[c]! * model.theta[t + c]!;
        if (pxc > 0) s += pxc * detLog(model.theta[t + c]! / px);
      }
    }
    out[i] = Math.max(0, s);
  }
  return out;
}

/** Joint p(c, x_i, x_j) = θ_C θ_ic(x_i) θ_jc(x_j) of the model, as a callback over indices. */
function joint(data: PreparedData, model: MixtureModel, i: number, j: number) {
  const K = model.K;
  const oi = data.offsets[i]!;
  const oj = data.offsets[j]!;
  return (c: number, a: number, b: number) =>
    model.weights[c]! * model.theta[(oi + a) * K + c]! * model.theta[(oj + b) * K + c]!;
}

/** I(X_i; X_j) under the model (the pairwise quantity of Figure 8.1). */
export function pairwiseMutualInformation(data: PreparedData, model: MixtureModel, i: number, j: number): number {
  const K = model.K;
  const ri = data.alleles[i]!;
  const rj = data.alleles[j]!;
  const p = joint(data, model, i, j);
  const pab = new Float64Array(ri * rj);
  for (let c = 0; c < K; c++) for (let a = 0; a < ri; a++) for (let b = 0; b < rj; b++) pab[a * rj + b]! += p(c, a, b);
  const pa = new Float64Array(ri);
  const pb = new Float64Array(rj);
  for (let a = 0; a < ri; a++)
    for (let b = 0; b < rj; b++) {
      pa[a]! += pab[a * rj + b]!;
      pb[b]! += pab[a * rj + b]!;
    }
  let s = 0;
  for (let a = 0; a < ri; a++)
    for (let b = 0; b < rj; b++) {
      const x = pab[a * rj + b]!;
      if (x > 0) s += x * detLog(x / (pa[a]! * pb[b]!));
    }
  return Math.max(0, s);
}

/**
 * I(X_i; C | X_j) under the model: what X_i still tells about the cluster once X_j is known.
 * Zero when X_i is redundant given X_j.
 */
export function conditionalMutualInformation(data: PreparedData, model: MixtureModel, i: number, j: number): number {
  const K = model.K;
  const ri = data.alleles[i]!;
  const rj = data.alleles[j]!;
  const p = joint(data, model, i, j);
  const pb = new Float64Array(rj);
  const pab = new Float64Array(ri * rj);
  const pcb = new Float64Array(K * rj);
  for (let c = 0; c < K; c++)
    for (let a = 0; a < ri; a++)
      for (let b = 0; b < rj; b++) {
        const x = p(c, a, b);
        pb[b]! += x;
        pab[a * rj + b]! += x;
        pcb[c * rj + b]! += x;
      }
  let s = 0;
  for (let c = 0; c < K; c++)
    for (let a = 0; a < ri; a++)
      for (let b = 0; b < rj; b++) {
        const x = p(c, a, b);
        if (x > 0) s += x * detLog((x * pb[b]!) / (pab[a * rj + b]! * pcb[c * rj + b]!));
      }
  return Math.max(0, s);
}
