import type { FitOptions } from './fit-options.ts';
import {
  CLUSTER_DEFAULTS,
  LIMITS,
  POLICY,
  RANK_BY,
  runSettingProblem,
  SWEEP_DEFAULTS,
  type Model,
  type RunSetting,
} from '../util/choices.ts';
import { stallingUpdates } from './admixture/admixture-step.ts';
import { startSeed } from './start.ts';
import { type Clustering } from './combine-starts.ts';
import { type Policy, type RankBy } from './start-ranking.ts';

/** One start of a multi-start: which K, replicate and start index, and its seed. */
export interface StartTask {
  readonly K: number;
  readonly replicate: number;
  readonly index: number;
  readonly seed: number;
  /** A structured start: each individual's cluster to begin from (start.ts's startSteps). */
  readonly memberships?: Int32Array;
}

/** Screening of the starts (model/screening.ts). */
export interface Screening {
  /** Mixture model: EM iterations of the short runs (0: no screening, every start runs to convergence). */
  readonly iterations: number;
  /** Mixture model: fraction of a multi-start's starts run to convergence (at least MIN_KEPT starts, model/screening.ts). */
  readonly keep: number;
  /**
   * Admixture model: every start first runs to this tolerance on |Δ ln L| (0: no screening);
   * default CLUSTER_DEFAULTS.admixtureScreenTolerance.
   */
  readonly tolerance?: number;
  /** Admixture model: the starts of each multi-start run on to the fit's tolerance (default CLUSTER_DEFAULTS.admixtureScreenStarts). */
  readonly starts?: number;
}

/** A K sweep: `replicates` independent multi-starts of `starts` starts at each K. */
export interface SweepOptions {
  readonly kValues: readonly number[];
  readonly replicates: number;
  readonly starts: number;
  readonly policy: Policy;
  /** What best choice ranks starts by (default CLUSTER_DEFAULTS.rankBy). */
  readonly rankBy?: RankBy;
  readonly seed: number;
  readonly fit: FitOptions;
  /**
   * Admixture model: ADMIXTURE's cross-validation error with this many folds (absent or 0: none),
   * computed for the most likely replicate of each K.
   */
  readonly cvFolds?: number;
  /**
   * Screen the starts by short runs and run only the most promising to convergence
   * (model/screening.ts). Mixture model (EM, EMA and auto under best choice): absent, every start
   * runs to convergence. Admixture model (best choice): `tolerance` and `starts`, absent the
   * defaults (CLUSTER_DEFAULTS: off).
   */
  readonly screen?: Screening;
  /**
   * Adaptive starts (model/start-rule.ts): each (K, replicate) runs its starts in rounds of
   * `round` and stops once the two best agree within `agree` ln L; `starts` is then the cap.
   * Absent: every start runs. Not with screening.
   */
  readonly adaptive?: { readonly round: number; readonly agree: number };
  /**
   * Whether the first start of each multi-start begins from the data's structure (PCA, Ward's
   * clustering, k-means: analysis/structured-start.ts) instead of random parameters. Absent: the
   * model's default (SWEEP_DEFAULTS). Not for supervised fits or EMA-TAN.
   */
  readonly structuredStart?: boolean;
}

/** One multi-start result: replicate r at K. */
export interface SweepRun {
  readonly K: number;
  readonly replicate: number;
  readonly clustering: Clustering;
  /** Starts that completed (fewer than requested after a cancel). */
  readonly completedStarts: number;
  /** Which model the run fitted (absent: the mixture model). */
  readonly model?: Model;
  /** Admixture model with cross-validation: the mean held-out deviance (model/admixture/cross-validation.ts). */
  readonly cvError?: number;
}

/** The replicate of highest log-likelihood among runs (the first of equals): the one CV error and auto's choice are reported for. */
export function likeliestRun<R extends SweepRun>(runs: readonly R[]): R {
  return runs.reduce((a, b) => (b.clustering.logLik > a.clustering.logLik ? b : a));
}

/** The replicate at K of highest log-likelihood (what a view shows, projects on, checks); a RangeError when there is none. */
export function likeliestRunAtK<R extends SweepRun>(runs: readonly R[], K: number): R {
  const atK = runs.filter((r) => r.K === K);
  if (atK.length === 0) throw new RangeError(`no run at K = ${K}`);
  return likeliestRun(atK);
}

/** What a run of these fit options records as its model: nothing for the mixture model (the default). */
export function runModel(fit: FitOptions): Pick<SweepRun, 'model'> {
  return fit.model === 'admixture' ? { model: fit.model } : {};
}

/** Checks a sweep's options; throws a RangeError naming the bad value. */
export function validateSweep(o: SweepOptions, nIndividuals: number): void {
  if (o.kValues.length === 0) throw new RangeError('sweep: no K given');
  for (const K of o.kValues) {
    if (!Number.isInteger(K) || K < 1 || K > Math.max(1, nIndividuals))
      throw new RangeError(
        `sweep: K must be an integer from 1 to the number of individuals (${nIndividuals}), got ${K}`,
      );
  }
  const settings: [RunSetting, number][] = [
    ['replicates', o.replicates],
    ['starts', o.starts],
    ['epsilon', o.fit.epsilon],
    ...(o.fit.model === 'admixture' && o.fit.tolerance !== undefined
      ? [['tolerance', o.fit.tolerance] as [RunSetting, number]]
      : []),
  ];
  for (const [setting, value] of settings) {
    const problem = runSettingProblem(setting, value);
    if (problem) throw new RangeError(`sweep: ${problem}`);
  }
  if (!POLICY.values.includes(o.policy))
    throw new RangeError(`sweep: policy must be one of ${POLICY.values.join(', ')}, got ${String(o.policy)}`);
  if (o.fit.model === 'admixture' && o.policy !== 'best') {
    throw new RangeError(`sweep: the admixture model keeps the best start (policy best), got ${o.policy}`);
  }
  if (o.fit.model === 'admixture' && o.fit.algorithm === 'ema-tan') {
    throw new RangeError(`sweep: EMA-TAN belongs to the mixture model, not the admixture model`);
  }
  if (
    stallingUpdates(
      o.fit.qUpdate ?? CLUSTER_DEFAULTS.qUpdate,
      o.fit.fUpdate ?? CLUSTER_DEFAULTS.fUpdate,
      o.fit.acceleration ?? CLUSTER_DEFAULTS.acceleration,
    )
  )
    throw new RangeError(
      'sweep: under Anderson acceleration Q and F are both updated by Newton steps or both by EM (one of each can stall there); SQUAREM and plain steps take any pair',
    );
  if (o.fit.markerAveraging && o.fit.model !== 'admixture')
    throw new RangeError('sweep: marker averaging of F belongs to the admixture model (--model admixture)');
  if (o.adaptive) {
    const { round, agree } = o.adaptive;
    if (!Number.isInteger(round) || round < 2)
      throw new RangeError(`sweep: adaptive starts need rounds of at least 2 starts, got ${round}`);
    if (!(agree >= 0) || !Number.isFinite(agree))
      throw new RangeError(`sweep: adaptive starts need a non-negative agreement in ln L, got ${agree}`);
    if (o.policy !== 'best') throw new RangeError('sweep: adaptive starts keep the best start (policy best)');
    if (o.screen && (o.screen.iterations > 0 || (o.screen.tolerance ?? 0) > 0))
      throw new RangeError('sweep: adaptive starts and screening are alternatives; choose one');
  }
  if (o.cvFolds !== undefined && o.cvFolds !== 0) {
    if (o.fit.model !== 'admixture')
      throw new RangeError('sweep: cross-validation error belongs to the admixture model (--model admixture)');
    if (!Number.isInteger(o.cvFolds) || o.cvFolds < 2 || o.cvFolds > LIMITS.maxCvFolds)
      throw new RangeError(
        `sweep: cross-validation folds must be a whole number from 2 to ${LIMITS.maxCvFolds}, got ${o.cvFolds}`,
      );
  }
  if (o.fit.supervised) {
    const s = o.fit.supervised;
    if (o.fit.model !== 'admixture') throw new RangeError('sweep: supervised mode belongs to the admixture model');
    if (s.length !== nIndividuals)
      throw new RangeError(`sweep: supervised labels for ${s.length} individuals, but the data has ${nIndividuals}`);
    // A loop, not Math.max(...s): spreading one argument per individual overflows the stack.
    const K = s.reduce((m, k) => Math.max(m, k), -1) + 1;
    const seen = new Set(s);
    for (let k = 0; k < K; k++)
      if (!seen.has(k)) throw new RangeError(`sweep: supervised cluster ${k + 1} has no reference individual`);
    if (o.kValues.some((k) => k !== K))
      throw new RangeError(`sweep: supervised mode fits K = ${K} (one cluster per reference population)`);
  }
  if (o.screen) {
    const { iterations, keep } = o.screen;
    if (!Number.isInteger(iterations) || iterations < 0 || iterations > o.fit.maxIterations)
      throw new RangeError(
        `sweep: screening iterations must be a whole number from 0 to the iteration cap (${o.fit.maxIterations}), got ${iterations}`,
      );
    if (!(keep > 0 && keep <= 1))
      throw new RangeError(`sweep: the fraction of starts kept after screening must be in (0, 1], got ${keep}`);
    const { tolerance, starts } = o.screen;
    if (tolerance !== undefined && !(tolerance >= 0 && Number.isFinite(tolerance)))
      throw new RangeError(`sweep: the screening tolerance must be a number ≥ 0, got ${tolerance}`);
    if (starts !== undefined && !(Number.isInteger(starts) && starts >= 1))
      throw new RangeError(`sweep: the starts run on after screening must be a whole number ≥ 1, got ${starts}`);
  }
  if (o.structuredStart !== undefined && typeof o.structuredStart !== 'boolean')
    throw new RangeError(`sweep: structuredStart is true or false, got ${String(o.structuredStart)}`);
  if (o.rankBy !== undefined && !RANK_BY.values.includes(o.rankBy))
    throw new RangeError(`sweep: rankBy must be one of ${RANK_BY.values.join(', ')}, got ${String(o.rankBy)}`);
}

/**
 * Every start of a sweep in a fixed order (K, replicate, start), each with its derived seed; the
 * first start of each multi-start at a K in `structured` begins from those memberships.
 */
export function sweepTasks(o: SweepOptions, structured?: ReadonlyMap<number, Int32Array>): StartTask[] {
  const tasks: StartTask[] = [];
  for (const K of o.kValues)
    for (let r = 0; r < o.replicates; r++)
      for (let s = 0; s < o.starts; s++) {
        const memberships = s === 0 ? structured?.get(K) : undefined;
        tasks.push({
          K,
          replicate: r,
          index: s,
          seed: startSeed(o.seed, K, r, s),
          ...(memberships ? { memberships } : {}),
        });
      }
  return tasks;
}

/** Whether a sweep's multi-starts each hold a structured start (SweepOptions.structuredStart). */
export function wantsStructuredStart(o: SweepOptions): boolean {
  const byDefault = SWEEP_DEFAULTS[o.fit.model ?? CLUSTER_DEFAULTS.model].structuredStart;
  return (o.structuredStart ?? byDefault) && !o.fit.supervised && o.fit.algorithm !== 'ema-tan';
}

/**
 * The order a sweep hands its starts to the workers: the largest K first (a start's time grows with
 * K, several-fold from K = 2 to K = 8), so that the last starts handed out are short and no thread
 * idles long at the end, as one did with ascending K. Within a K, task order. Results do not depend on it (each start's
 * seed is its own).
 */
export function dispatchOrder(tasks: readonly StartTask[]): StartTask[] {
  return [...tasks].sort((a, b) => b.K - a.K);
}

/** What best choice ranks a sweep's starts by: the admixture model always by likelihood. */
export function startRanking(o: SweepOptions): RankBy | undefined {
  return o.fit.model === 'admixture' ? 'likelihood' : o.rankBy;
}
