import { CLUSTER_DEFAULTS, type Policy, type RankBy } from '../util/choices.ts';
import { alignToReference, permuteColumns } from './align.ts';
import { eStep, eStepBuffers } from './mixture/e-step.ts';
import { type AlgorithmChoice } from './algorithm-choice.ts';
import { type FitOptions } from './fit-options.ts';
import { independenceMeasure } from './mixture/independence.ts';
import { type PreparedData } from './prepared/prepared-data.ts';
import { permuteModel, type MixtureModel } from './mixture/mixture-model.ts';
import { type ParentWeights } from './tan/tan-fit.ts';
import { detExp } from '../util/det-math.ts';

import { rankOf, rankStarts } from './start-ranking.ts';
import { autoChoice } from './algorithm-choice.ts';
import { emaFromEmStart, startSummary, type StartResult, type StartSummary } from './start.ts';

/** A multi-start clustering at one K. */
export interface Clustering {
  readonly K: number;
  readonly policy: Policy;
  readonly model: MixtureModel;
  /** shape (N, K): membership p(c | x_d) under the final model. */
  readonly Q: Float64Array;
  readonly logLik: number;
  /** shape (L,): posterior probability that each marker is informative (w_i). */
  readonly informative: Float64Array;
  /** shape (L,): I_P of equation 7.34. */
  readonly independence: Float64Array;
  /** Index of the best start (highest score or likelihood, as ranked). */
  readonly bestStart: number;
  readonly starts: readonly StartSummary[];
  /** EMA-TAN: the best start's linkage map. */
  readonly linkage?: readonly ParentWeights[];
  /** `--algorithm auto`: which algorithm's starts were combined, and why. */
  readonly algorithmChoice?: AlgorithmChoice;
}

/**
 * Combines completed starts by a policy. Best choice keeps the start ranked highest (by its
 * evidence score by default, or by likelihood as in the text; see {@link RankBy}). The averaging
 * policies first align every start's clusters to that start by membership overlap (label
 * switching), then average parameters and w_i uniformly or with weights ∝ exp(ℓ_s − max ℓ) of the
 * same ranking; memberships come from an E step of the averaged model.
 */
export function combineStarts(
  data: PreparedData,
  all: readonly StartResult[],
  policy: Policy,
  rankBy: RankBy = CLUSTER_DEFAULTS.rankBy,
  fit?: FitOptions,
): Clustering {
  if (all.length === 0) throw new RangeError('combineStarts: no completed start');
  const K = all[0]!.model.K;
  const rank = rankOf(rankBy);
  // 'auto': the starts are EM's; EMA is continued from the best of them, and the two fits are
  // compared by held-out log-likelihood; the starts of the chosen algorithm are then combined as usual.
  const fits = withAutoEma(data, all, rankBy, fit);
  const auto = fit ? autoChoice(data, fits, rankBy, fit) : undefined;
  const starts = auto ? fits.filter((s) => s.algorithm === auto.algorithm) : fits;
  const { best, used, most } = rankStarts(data, starts, rankBy);
  const summaries = fits.map(startSummary);
  const chosen = auto ? { algorithmChoice: auto } : {};
  if (policy === 'best' || starts.length === 1) {
    return {
      K,
      policy,
      model: best.model,
      Q: best.posterior,
      logLik: best.logLik,
      informative: best.informative,
      independence: independenceMeasure(data, best.model),
      bestStart: best.index,
      starts: summaries,
      ...(best.linkage ? { linkage: best.linkage } : {}),
      ...chosen,
    };
  }
  const u = starts.map((s, k) => (policy === 'uniform' ? 1 : used[k] === most ? detExp(rank(s) - rank(best)) : 0));
  const total = u.reduce((a, b) => a + b, 0);
  const weights = new Float64Array(K);
  const theta = new Float64Array(best.model.theta.length);
  const informative = new Float64Array(data.L);
  starts.forEach((s, k) => {
    const f = u[k]! / total;
    if (f === 0) return;
    const perm = alignToReference(best.posterior, s.posterior, data.N, K);
    const m = permuteModel(s.model, perm);
    for (let c = 0; c < K; c++) weights[c]! += f * m.weights[c]!;
    for (let j = 0; j < theta.length; j++) theta[j]! += f * m.theta[j]!;
    for (let i = 0; i < data.L; i++) informative[i]! += f * s.informative[i]!;
  });
  const model: MixtureModel = { K, weights, theta };
  if (best.linkage) {
    // EMA-TAN: memberships are averaged directly (the TAN tables are not re-evaluated).
    const Q = new Float64Array(data.N * K);
    starts.forEach((s, k) => {
      const f = u[k]! / total;
      if (f === 0) return;
      const q = permuteColumns(s.posterior, data.N, K, alignToReference(best.posterior, s.posterior, data.N, K));
      for (let x = 0; x < Q.length; x++) Q[x]! += f * q[x]!;
    });
    return {
      K,
      policy,
      model,
      Q,
      logLik: best.logLik,
      informative,
      independence: independenceMeasure(data, model),
      bestStart: best.index,
      starts: summaries,
      linkage: best.linkage,
      ...chosen,
    };
  }
  const buf = eStepBuffers(data, K, { resident: false });
  const logLik = eStep(data, model, buf);
  return {
    K,
    policy,
    model,
    Q: buf.posterior,
    logLik,
    informative,
    independence: independenceMeasure(data, model),
    bestStart: best.index,
    starts: summaries,
    ...chosen,
  };
}

/**
 * The starts, and under 'auto' (mixture model) the EMA fit from the best EM start when the
 * starts hold none (pieces of a sweep merged: each piece kept its best EM start only).
 */
function withAutoEma(
  data: PreparedData,
  starts: readonly StartResult[],
  rankBy: RankBy,
  fit: FitOptions | undefined,
): StartResult[] {
  if (fit?.algorithm !== 'auto' || fit.model === 'admixture') return [...starts];
  const em = starts.filter((s) => s.algorithm === 'em');
  if (em.length === 0 || starts.some((s) => s.algorithm === 'ema')) return [...starts];
  return [...starts, emaFromBestEm(data, em, rankBy, fit)];
}

/**
 * `--algorithm auto`: EMA continued from the best EM start of a multi-start (by the ranking), the
 * EMA candidate that {@link autoChoice} weighs against that EM start. Its index and seed are the
 * EM start's.
 */
export function emaFromBestEm(
  md: PreparedData,
  starts: readonly StartResult[],
  rankBy: RankBy,
  opts: FitOptions,
): StartResult {
  return emaFromEmStart(md, rankStarts(md, starts, rankBy).best, opts);
}
