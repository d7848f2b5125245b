import { CLUSTER_DEFAULTS, type Policy, type RankBy, type StartAlgorithm } from '../util/choices.ts';
import { admixtureWork, type AdmixtureWork } from './admixture/admixture.ts';
import { admixtureFitOptions, admixtureFitSteps, admixtureStart } from './admixture/admixture-fit.ts';
import { alignToReference, permuteColumns } from './align.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import { eStep, eStepBuffers } from './mixture/e-step.ts';
import { logEvidence } from './mixture/evidence.ts';
import { usedClusters } from './cluster-use.ts';
import { describeChoice, type AlgorithmChoice } from './algorithm-choice.ts';
import { heldOutLogLiks } from './mixture/held-out.ts';
import { jackknifeError } from './mixture/block-deletion.ts';
import { fitSteps, modelFromMemberships, runToEnd, type FitResult, type StepInfo } from './mixture/fit.ts';
import { type FitOptions } from './fit-options.ts';
import { independenceMeasure } from './mixture/independence.ts';
import { preparedData, type PreparedData } from './prepared/prepared-data.ts';
import { permuteModel, randomModel, type MixtureModel } from './mixture/mixture-model.ts';
import { createRng, deriveSeed } from '../util/rng.ts';
import { tanData, type TanData, type TanDataOptions } from './tan/tan-data.ts';
import { tanFitSteps, type ParentWeights } from './tan/tan-fit.ts';
import { randomTanModel } from './tan/tan-model.ts';
import { detExp } from '../util/det-math.ts';

/** What a start needs: the naive Bayes view of the data and, for EMA-TAN, its TAN variables. */
export interface StartContext {
  readonly md: PreparedData;
  tan(o: TanDataOptions): TanData;
  /** The admixture model's per-dataset constants (built on first use). */
  admixtureWork(): AdmixtureWork;
}

/** A start context over a dataset; TAN variables are built on first use and cached per option set. */
export function startContext(data: GenotypeData, md: PreparedData = preparedData(data)): StartContext {
  const cache = new Map<string, TanData>();
  let work: AdmixtureWork | undefined;
  return {
    md,
    admixtureWork: () => (work ??= admixtureWork(md)),
    tan(o) {
      const key = `${o.window}/${o.order}/${o.orderSeed}`;
      let td = cache.get(key);
      if (!td) {
        td = tanData(data, o);
        cache.set(key, td);
      }
      return td;
    },
  };
}

function asContext(x: PreparedData | StartContext): StartContext {
  if ('md' in x) return x;
  let work: AdmixtureWork | undefined;
  return {
    md: x,
    admixtureWork: () => (work ??= admixtureWork(x)),
    tan: () => {
      throw new RangeError('EMA-TAN needs the genotype data: use startContext(data)');
    },
  };
}

/**
 * The allele-level summary of a clustering (cluster weights and allele frequencies per cluster
 * from the memberships), used for .P files, F_ST and marker ranking whatever the algorithm.
 */
export function summaryModel(md: PreparedData, posterior: Float64Array, K: number, opts: FitOptions): MixtureModel {
  return modelFromMemberships(md, posterior, K, { ...opts, algorithm: 'em' });
}

/** How the m starts of a multi-start are combined (section 7.4). */
export type { Policy };

/**
 * What best choice and weighted averaging rank starts by. 'likelihood' (default, chosen on the
 * accuracy suite: docs/accuracy.md) is the text's ln p(D | θ̂).
 * 'evidence' first prefers the starts that use the most clusters — clusters that
 * individuals are assigned to with a majority of their membership (usedClusters); a start that
 * leaves a cluster negligible answers a smaller K, which the sweep evaluates on its own — then ranks them
 * by their score, an approximation of ln p(D) that does not reward calling noise markers
 * informative (engine/model/mixture/evidence.ts). For EMA-TAN the score is ln p(D | θ̂).
 */
export type { RankBy };

/** The outcome of one start. */
export interface StartResult {
  readonly index: number;
  readonly seed: number;
  readonly logLik: number;
  /**
   * What best choice ranks starts by (see {@link RankBy}): for EM and EMA the Cheeseman–Stutz
   * approximation of ln p(D) ({@link logEvidence}); for EMA-TAN ln p(D | θ̂).
   */
  readonly score: number;
  readonly iterations: number;
  readonly converged: boolean;
  readonly model: MixtureModel;
  /** shape (N, K). */
  readonly posterior: Float64Array;
  /** shape (L,). */
  readonly informative: Float64Array;
  /** EMA-TAN only: posterior weight of each marker's parent sets (a linkage map). */
  readonly linkage?: readonly ParentWeights[];
  /** The naive Bayes mixture: the algorithm of this fit (EMA or EM). */
  readonly algorithm?: StartAlgorithm;
}

/** The seed of start `index` of replicate `replicate` at K (independent of threads and order). */
export function startSeed(runSeed: number, K: number, replicate: number, index: number): number {
  return deriveSeed(runSeed, K, replicate, index);
}

/** One start from random parameters drawn with `seed`, as a generator of iterations. */
export function* startSteps(
  context: PreparedData | StartContext,
  K: number,
  opts: FitOptions,
  index: number,
  seed: number,
): Generator<StepInfo, StartResult> {
  const ctx = asContext(context);
  if (opts.algorithm === 'ema-tan') {
    const td = ctx.tan(opts.tan);
    const init = randomTanModel(td, K, createRng(seed));
    const r = yield* tanFitSteps(td, init, {
      alpha: opts.priors.alpha,
      alphaCluster: opts.priors.alphaCluster,
      epsilon: opts.epsilon,
      maxIterations: opts.maxIterations,
      warmup: opts.warmup,
      onlyC: false,
    });
    const informative = new Float64Array(ctx.md.L);
    for (const p of r.parentWeights) informative[p.locus] = p.cluster;
    const posterior = Float64Array.from(r.posterior);
    return {
      index,
      seed,
      logLik: r.logLik,
      score: r.logLik,
      iterations: r.iterations,
      converged: r.converged,
      model: summaryModel(ctx.md, posterior, K, opts),
      posterior,
      informative,
      linkage: r.parentWeights,
    };
  }
  if (opts.model === 'admixture') return yield* admixtureStartSteps(ctx, K, opts, index, seed);
  return yield* mixtureStartSteps(ctx.md, K, opts, index, seed);
}

/**
 * Whether EMA start `index` begins its MA steps only after EM has converged (docs/algorithms.md
 * §3): under 'mixed' (default) the odd-numbered starts do.
 */
export function startsAfterEm(opts: FitOptions, index: number): boolean {
  if (opts.algorithm === 'em') return false;
  const when = opts.emaStarts ?? CLUSTER_DEFAULTS.emaStarts;
  return when === 'after-em' || (when === 'mixed' && index % 2 === 1);
}

/**
 * One start of the naive Bayes mixture: EM, or EMA from random parameters, or — for the starts
 * {@link startsAfterEm} picks — EM to convergence and then EMA from EM's clusters. Under 'auto'
 * a start is an EM start: EMA runs once per multi-start, from the best of them, when the starts
 * are combined ({@link emaFromBestEm}).
 */
function* mixtureStartSteps(
  md: PreparedData,
  K: number,
  opts: FitOptions,
  index: number,
  seed: number,
): Generator<StepInfo, StartResult> {
  return yield* mixtureStartFrom(md, randomModel(md, K, createRng(seed), opts.init), opts, index, seed);
}

/**
 * A mixture start from given parameters, as a start from random ones runs (the same algorithms):
 * `--init-q` continues a clustering through it.
 */
export function continueStart(md: PreparedData, init: MixtureModel, opts: FitOptions): StartResult {
  return runToEnd(mixtureStartFrom(md, init, opts, 0, 0));
}

/** A mixture fit as a start's result, scored by its evidence. */
function finishStart(
  md: PreparedData,
  opts: FitOptions,
  r: FitResult,
  algorithm: StartAlgorithm,
  iterations: number,
  index: number,
  seed: number,
): StartResult {
  return {
    index,
    seed,
    logLik: r.logLik,
    score: logEvidence(
      md,
      r.model,
      r.posterior,
      r.logLik,
      r.informative,
      algorithm,
      opts.priors,
      opts.missing,
      r.counts,
    ),
    iterations,
    converged: r.converged,
    model: r.model,
    posterior: Float64Array.from(r.posterior),
    informative: r.informative,
    algorithm,
  };
}

function* mixtureStartFrom(
  md: PreparedData,
  init: MixtureModel,
  opts: FitOptions,
  index: number,
  seed: number,
): Generator<StepInfo, StartResult> {
  if (opts.algorithm === 'em' || opts.algorithm === 'auto') {
    const r = yield* fitSteps(md, init, { ...opts, algorithm: 'em' });
    return finishStart(md, opts, r, 'em', r.iterations, index, seed);
  }
  const ema = { ...opts, algorithm: 'ema' } as const;
  if (!startsAfterEm(opts, index)) {
    const a = yield* fitSteps(md, init, ema);
    return finishStart(md, opts, a, 'ema', a.iterations, index, seed);
  }
  const em = yield* fitSteps(md, init, { ...opts, algorithm: 'em' });
  return yield* emaAfterEm(md, em, em.iterations, opts, index, seed);
}

/**
 * EMA continued from an EM fit's clusters, sharing the iteration cap with the EM phase (as the
 * starts of a mixed EMA multi-start that begin their MA steps after EM do).
 */
function* emaAfterEm(
  md: PreparedData,
  em: { readonly model: MixtureModel },
  done: number,
  opts: FitOptions,
  index: number,
  seed: number,
): Generator<StepInfo, StartResult> {
  const a = yield* offsetSteps(
    fitSteps(md, em.model, { ...opts, algorithm: 'ema', maxIterations: Math.max(0, opts.maxIterations - done) }),
    done,
  );
  return finishStart(md, opts, a, 'ema', done + a.iterations, index, seed);
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
  const best = rankStarts(md, starts, rankBy).best;
  return runToEnd(emaAfterEm(md, best, best.iterations, opts, best.index, best.seed));
}

/** Re-yields a fit's iterations numbered after `offset` earlier ones (the second phase of a start). */
function* offsetSteps<R>(steps: Generator<StepInfo, R>, offset: number): Generator<StepInfo, R> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    yield { ...r.value, iteration: r.value.iteration + offset };
  }
}

/**
 * Supervised mode: the rows of Q that stay fixed, one-hot on each reference individual's cluster
 * (`supervised[i]`, −1 for individuals whose proportions are estimated).
 */
export function supervisedRows(supervised: ArrayLike<number>, K: number): { rows: Uint8Array; Q: Float64Array } {
  const N = supervised.length;
  const rows = new Uint8Array(N);
  const Q = new Float64Array(N * K);
  for (let i = 0; i < N; i++) {
    const k = supervised[i]!;
    if (k < 0) continue;
    if (!Number.isInteger(k) || k >= K)
      throw new RangeError(`supervised: individual ${i + 1} is in cluster ${k + 1}, but K = ${K}`);
    rows[i] = 1;
    Q[i * K + k] = 1;
  }
  return { rows, Q };
}

/**
 * One start of the admixture model: Q is the ancestry proportions (the "posterior" of the
 * mixture's results), the summary model's weights are the clusters' mean ancestry (what F_ST per K
 * weights them by) and its frequencies F. Ranked by ln L.
 */
function* admixtureStartSteps(
  ctx: StartContext,
  K: number,
  opts: FitOptions,
  index: number,
  seed: number,
): Generator<StepInfo, StartResult> {
  const md = ctx.md;
  const known = opts.supervised ? supervisedRows(opts.supervised, K) : undefined;
  const work = known ? admixtureWork(md, undefined, known.rows) : ctx.admixtureWork();
  const init = admixtureStart(md, K, createRng(seed), opts, known);
  const r = yield* admixtureFitSteps(md, work, init, admixtureFitOptions(opts));
  const weights = new Float64Array(K);
  for (let i = 0; i < md.N; i++) for (let k = 0; k < K; k++) weights[k]! += r.params.Q[i * K + k]! / md.N;
  const model = { K, weights, theta: r.params.F };
  const informative = r.informative ?? new Float64Array(md.L).fill(1);
  return {
    index,
    seed,
    logLik: r.logLik,
    score: r.logLik,
    iterations: r.iterations,
    converged: r.converged,
    model,
    posterior: r.params.Q,
    informative,
  };
}

/** Runs one start to the end. */
export function runStart(
  data: PreparedData | StartContext,
  K: number,
  opts: FitOptions,
  index: number,
  seed: number,
): StartResult {
  return runToEnd(startSteps(data, K, opts, index, seed));
}

/** Summary of a start kept in results. */
export type StartSummary = Pick<
  StartResult,
  'index' | 'seed' | 'logLik' | 'score' | 'iterations' | 'converged' | 'algorithm'
>;

/** What results keep of a start (no parameters). */
export function startSummary(s: StartSummary): StartSummary {
  const { index, seed, logLik, score, iterations, converged, algorithm } = s;
  return { index, seed, logLik, score, iterations, converged, ...(algorithm ? { algorithm } : {}) };
}

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
  const buf = eStepBuffers(data, K);
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

/** What a ranking ranks a start by. */
function rankOf(rankBy: RankBy): (s: StartResult) => number {
  return rankBy === 'evidence' ? (s) => s.score : (s) => s.logLik;
}

/**
 * Best choice among starts: under 'evidence' only the starts that use the most clusters compete
 * (usedClusters), then the highest rank wins (ties: the lower index).
 */
function rankStarts(
  data: PreparedData,
  starts: readonly StartResult[],
  rankBy: RankBy,
): { best: StartResult; used: number[]; most: number } {
  const K = starts[0]!.model.K;
  const rank = rankOf(rankBy);
  const used = starts.map((s) => (rankBy === 'evidence' ? usedClusters(s.posterior, data.N, K) : K));
  const most = Math.max(...used);
  let best: StartResult | undefined;
  starts.forEach((s, k) => {
    if (used[k] !== most) return;
    if (!best || rank(s) > rank(best) || (rank(s) === rank(best) && s.index < best.index)) best = s;
  });
  return { best: best!, used, most };
}

/** The best start of each algorithm the starts ran (one start when they ran one). */
export function bestPerAlgorithm(
  data: PreparedData,
  starts: readonly StartResult[],
  rankBy: RankBy = CLUSTER_DEFAULTS.rankBy,
): StartResult[] {
  const groups = new Map<string, StartResult[]>();
  for (const s of starts) groups.set(s.algorithm ?? '', [...(groups.get(s.algorithm ?? '') ?? []), s]);
  return [...groups.values()].map((g) => rankStarts(data, g, rankBy).best);
}

/**
 * EMA is kept only when its held-out gain over EM is this many standard errors above 0 (paired
 * over individuals, and over genome windows where the markers have positions); otherwise EM, the
 * model with every marker informative.
 */
export const AUTO_EMA_Z = 2;

/** Σ (a_d − b_d) and its z score: the sum over its standard error, paired over individuals. */
export function pairedGain(a: Float64Array, b: Float64Array): { total: number; z: number } {
  const { total, se } = pairedTotal(a, b);
  return { total, z: zScore(total, se) };
}

/** Σ (a_d − b_d) and its standard error, paired over individuals: √(n · sample variance of the differences). */
function pairedTotal(a: Float64Array, b: Float64Array): { total: number; se: number } {
  const n = a.length;
  let total = 0;
  for (let d = 0; d < n; d++) total += a[d]! - b[d]!;
  const mean = total / n;
  let ss = 0;
  for (let d = 0; d < n; d++) ss += (a[d]! - b[d]! - mean) ** 2;
  return { total, se: Math.sqrt((ss / Math.max(1, n - 1)) * n) };
}

function zScore(total: number, se: number): number {
  return se > 0 ? total / se : total > 0 ? Infinity : total < 0 ? -Infinity : 0;
}

/**
 * The paired gain with the markers' sampling added where markers are linked: its standard error
 * is √(se² over individuals + se² of a delete-one-window jackknife over genome windows), from
 * the held-out totals without each window (`withoutA[b]`, `withoutB[b]`). Linked markers make a
 * window one piece of evidence: a gain that rests on a few windows (clusters that are the
 * haplotypes of one linkage block) is not a gain over the genome.
 */
export function windowedGain(
  a: Float64Array,
  b: Float64Array,
  withoutA: Float64Array,
  withoutB: Float64Array,
): { total: number; z: number; windows: number } {
  const { total, se } = pairedTotal(a, b);
  const byWindow = jackknifeError(withoutA.map((x, w) => x - withoutB[w]!));
  const error = Number.isFinite(byWindow) ? Math.sqrt(se ** 2 + byWindow ** 2) : se;
  return { total, z: zScore(total, error), windows: withoutA.length };
}

/** auto's rule: EMA when its paired held-out gain over EM is more than AUTO_EMA_Z standard errors, else EM. */
export function algorithmByGain(gain: { readonly z: number }): 'ema' | 'em' {
  return gain.z > AUTO_EMA_Z ? 'ema' : 'em';
}

/**
 * `--algorithm auto` (docs/algorithms.md §4): when the starts ran both EMA and EM, the best start
 * of each (by the ranking) is refitted on 4/5 of the individuals and scored on the other fifth,
 * five times; EMA is chosen when it predicts held-out individuals better by more than
 * AUTO_EMA_Z standard errors (paired over individuals; where the markers have positions, the
 * error also counts the sampling of genome windows, {@link windowedGain}), else EM.
 */
function autoChoice(
  data: PreparedData,
  starts: readonly StartResult[],
  rankBy: RankBy,
  fit: FitOptions,
): AlgorithmChoice | undefined {
  const ema = starts.filter((s) => s.algorithm === 'ema');
  const em = starts.filter((s) => s.algorithm === 'em');
  if (ema.length === 0 || em.length === 0) return undefined;
  const rows = [new Float64Array(data.N), new Float64Array(data.N)];
  const windows = data.windows && data.windows.count >= 2 ? data.windows : undefined;
  const perWindow = windows ? [new Float64Array(windows.count), new Float64Array(windows.count)] : undefined;
  const [emaHeldOut, emHeldOut] = heldOutLogLiks(
    data,
    [
      { model: rankStarts(data, ema, rankBy).best.model, algorithm: 'ema' },
      { model: rankStarts(data, em, rankBy).best.model, algorithm: 'em' },
    ],
    fit,
    undefined,
    rows,
    windows && perWindow ? { blocks: windows, perBlock: perWindow } : undefined,
  );
  const heldOut = { ema: emaHeldOut!, em: emHeldOut! };
  // Too few individuals to hold any out: the dissertation's EMA (describeChoice says so).
  if (!Number.isFinite(heldOut.ema) || !Number.isFinite(heldOut.em)) return describeChoice('ema', heldOut);
  const gain = perWindow
    ? windowedGain(rows[0]!, rows[1]!, perWindow[0]!, perWindow[1]!)
    : pairedGain(rows[0]!, rows[1]!);
  return describeChoice(algorithmByGain(gain), heldOut, gain);
}
