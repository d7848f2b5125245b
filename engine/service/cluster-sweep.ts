import type { Model } from '../util/choices.ts';
import type { AlgorithmChoice } from '../model/algorithm-choice.ts';
import { withCvErrorsOn } from './cross-validate.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import { modelFromMemberships } from '../model/mixture/fit.ts';
import { independenceMeasure } from '../model/mixture/independence.ts';
import { preparedData, type PreparedData } from '../model/prepared/prepared-data.ts';
import type { MixtureModel } from '../model/mixture/mixture-model.ts';
import { combineStarts, type Clustering } from '../model/combine-starts.ts';
import { continueStart, type StartResult } from '../model/start.ts';
import { DEFAULT_FIT, type FitOptions } from '../model/fit-options.ts';
import {
  likeliestRunAtK,
  runModel,
  startRanking,
  sweepTasks,
  dispatchOrder,
  wantsStructuredStart,
  validateSweep,
  type StartTask,
  type SweepOptions,
  type SweepRun,
} from '../model/sweep.ts';
import type { StartRunner } from './start-runner.ts';
import { runSweepStarts } from './sweep-starts.ts';
import { screenPlan } from '../model/screening.ts';
import { structuredMemberships } from '../analysis/structured-start.ts';

import type { SweepProgress } from './sweep-progress.ts';
import { SweepEstimate } from './sweep-estimate.ts';
import { CLUSTER_DEFAULTS } from '../util/choices.ts';

/**
 * The memberships each K's structured start begins from (analysis/structured-start.ts), when the
 * sweep has them (wantsStructuredStart); one PCA and one Ward clustering serve every K.
 */
export function structuredStarts(md: PreparedData, o: SweepOptions): Map<number, Int32Array> | undefined {
  return wantsStructuredStart(o) ? structuredMemberships(md, o.kValues) : undefined;
}

/** A fit's options: the defaults (DEFAULT_FIT) with `overrides` in their place. */
export function fitOptions(overrides: Partial<FitOptions> = {}): FitOptions {
  return { ...DEFAULT_FIT, ...overrides };
}

/**
 * The run a command works on in a result: the likeliest at K (K may be left out when the result
 * holds one K); `file` names the result in the messages.
 */
export function likeliestRunIn(runs: readonly SweepRun[], K: number | undefined, file: string): SweepRun {
  const ks = [...new Set(runs.map((r) => r.K))].sort((a, b) => a - b);
  if (K === undefined && ks.length > 1) throw new Error(`${file}: holds K = ${ks.join(', ')}; choose one (--k)`);
  const at = K ?? ks[0]!;
  if (!ks.includes(at)) throw new Error(`${file}: no run at K = ${at} (it holds K = ${ks.join(', ')})`);
  return likeliestRunAtK(runs, at);
}

export type { SweepProgress } from './sweep-progress.ts';

export interface SweepResult {
  readonly runs: readonly SweepRun[];
  readonly cancelled: boolean;
}

/**
 * Runs a sweep on a pool. Every start's seed derives from (seed, K, replicate, start), so the
 * result is the same, bit for bit, for any number of workers. Each (K, replicate) is combined
 * by the policy as soon as its starts are in; after a cancel, runs are combined from the
 * starts that completed. Screened sweeps (model/screening.ts) combine the starts kept.
 */
export async function runSweep(
  data: GenotypeData,
  o: SweepOptions,
  pool: StartRunner,
  onProgress?: (p: SweepProgress) => void,
  signal?: AbortSignal,
): Promise<SweepResult> {
  validateSweep(o, data.individuals.length);
  const md = preparedData(data);
  const tasks = dispatchOrder(sweepTasks(o, structuredStarts(md, o)));
  // Starts of each (K, replicate) that run to convergence (fewer than o.starts when screened;
  // with adaptive starts not known in advance: runDone below combines the run).
  const converging = o.adaptive ? Infinity : (screenPlan(o)?.kept ?? o.starts);
  const groups = new Map<
    string,
    { K: number; replicate: number; results: (StartResult | undefined)[]; left: number }
  >();
  for (const t of tasks) {
    const key = `${t.K}/${t.replicate}`;
    if (!groups.has(key))
      groups.set(key, {
        K: t.K,
        replicate: t.replicate,
        results: new Array(o.starts).fill(undefined),
        left: converging,
      });
  }
  const runs: SweepRun[] = [];
  const combine = (g: { K: number; replicate: number; results: (StartResult | undefined)[] }): SweepRun | undefined => {
    const done = g.results.filter((x): x is StartResult => x !== undefined);
    if (done.length === 0) return undefined;
    const run = {
      K: g.K,
      replicate: g.replicate,
      clustering: combineStarts(md, done, o.policy, startRanking(o), o.fit),
      completedStarts: done.length,
      ...runModel(o.fit),
    };
    g.results.fill(undefined);
    return run;
  };
  const progress = onProgress && withEstimate(o, tasks, onProgress);
  const finish = (g: { K: number; replicate: number; results: (StartResult | undefined)[]; left: number }) => {
    g.left = 0;
    const run = combine(g)!;
    runs.push(run);
    onProgress?.({ kind: 'run', run, completed: runs.length, total: groups.size });
  };
  const outcome = await runSweepStarts(
    pool,
    data,
    tasks,
    o,
    progress,
    (t, result) => {
      const g = groups.get(`${t.K}/${t.replicate}`)!;
      g.results[t.index] = result;
      if (--g.left === 0) finish(g);
    },
    signal,
    (K, replicate) => finish(groups.get(`${K}/${replicate}`)!),
  );
  if (outcome.cancelled) {
    for (const g of groups.values()) {
      if (g.left === 0) continue;
      const run = combine(g);
      if (run) runs.push(run);
    }
  }
  runs.sort((a, b) => a.K - b.K || a.replicate - b.replicate);
  if (outcome.cancelled || signal?.aborted) return { runs, cancelled: true };
  const withCv = await withCvErrorsOn(pool, data, md, runs, o, signal, onProgress);
  return withCv ? { runs: withCv, cancelled: false } : { runs, cancelled: true };
}

/**
 * The progress with an estimate of the time the starts will take (kind 'estimate') after each
 * iteration report until the first start finishes (service/sweep-estimate.ts); screened sweeps,
 * whose first runs stop early on a looser rule, get none.
 */
function withEstimate(
  o: SweepOptions,
  tasks: readonly StartTask[],
  onProgress: (p: SweepProgress) => void,
): (p: SweepProgress) => void {
  if (screenPlan(o)) return onProgress;
  // Adaptive starts: expect two rounds a multi-start (the rule's common stop, docs/admixture-defaults.md).
  const expected = o.adaptive ? Math.min(o.starts, 2 * o.adaptive.round) : Infinity;
  const startsAtK = new Map<number, number>();
  for (const t of tasks) if (t.index < expected) startsAtK.set(t.K, (startsAtK.get(t.K) ?? 0) + 1);
  const threshold = o.fit.model === 'admixture' ? (o.fit.tolerance ?? CLUSTER_DEFAULTS.tolerance) : o.fit.epsilon;
  const estimate = new SweepEstimate({ startsAtK, threshold, maxIterations: o.fit.maxIterations });
  return (p) => {
    onProgress(p);
    if (p.kind === 'start') estimate.startDone();
    if (p.kind !== 'iteration') return;
    const seconds = estimate.iteration(
      p.K,
      `${p.K}/${p.replicate}/${p.start}`,
      p.iteration,
      p.change,
      performance.now(),
    );
    if (seconds !== undefined) onProgress({ kind: 'estimate', seconds });
  };
}

/** A clustering that holds one start (nothing to rank): a continued fit or a restored result. */
function singleStartClustering(
  md: PreparedData,
  model: MixtureModel,
  fitted: { Q: Float64Array; logLik: number; informative: Float64Array; iterations: number; converged: boolean },
): Clustering {
  const { Q, logLik, informative, iterations, converged } = fitted;
  const starts = [{ index: 0, seed: 0, logLik, score: logLik, iterations, converged }];
  return {
    K: model.K,
    policy: 'best',
    model,
    Q,
    logLik,
    informative,
    independence: independenceMeasure(md, model),
    bestStart: 0,
    starts,
  };
}

/** Use case "continue a clustering": one fit started from a membership matrix Q of shape (N, K). */
export function continueFromMemberships(data: GenotypeData, Q: Float64Array, K: number, o: SweepOptions): SweepRun {
  if (o.fit.model === 'admixture')
    throw new RangeError('continuing from a membership matrix fits the mixture model (leave out --model admixture)');
  const md = preparedData(data);
  if (Q.length !== md.N * K)
    throw new RangeError(`the membership matrix has ${Q.length / K} rows but the data has ${md.N} individuals`);
  // One start from the memberships' clusters, run as any start (under auto: EMA and EM, held-out
  // individuals choose).
  const start = continueStart(md, modelFromMemberships(md, Q, K, o.fit), o.fit);
  const clustering = combineStarts(md, [start], 'best', o.rankBy, o.fit);
  return { K, replicate: 0, clustering, completedStarts: 1 };
}

/** A run as saved (a project file, a result JSON): its parameters and memberships. */
export interface SavedRun {
  readonly K: number;
  readonly replicate: number;
  readonly logLik: number;
  readonly completedStarts: number;
  readonly Q: ArrayLike<number>;
  readonly weights: ArrayLike<number>;
  readonly theta: ArrayLike<number>;
  readonly informative: ArrayLike<number>;
  readonly model?: Model;
  readonly cvError?: number;
  /** `--algorithm auto`: which algorithm the run kept, and why. */
  readonly algorithmChoice?: AlgorithmChoice;
}

/** Use case "import results": saved runs back as sweep runs of a dataset; throws when a run does not fit it. */
export function restoreRuns(data: GenotypeData | PreparedData, runs: readonly SavedRun[]): SweepRun[] {
  const md = 'individuals' in data ? preparedData(data) : data;
  return runs.map((r) => {
    const K = r.K;
    if (r.Q.length !== md.N * K || r.theta.length !== md.totalAlleles * K || r.weights.length !== K) {
      throw new RangeError(`run K=${K} does not fit this dataset (${md.N} individuals, ${md.totalAlleles} alleles)`);
    }
    const model = { K, weights: Float64Array.from(r.weights), theta: Float64Array.from(r.theta) };
    const fitted = {
      Q: Float64Array.from(r.Q),
      logLik: r.logLik,
      informative: Float64Array.from(r.informative),
      iterations: 0,
      converged: true,
    };
    return {
      K,
      replicate: r.replicate,
      clustering: {
        ...singleStartClustering(md, model, fitted),
        ...(r.algorithmChoice ? { algorithmChoice: r.algorithmChoice } : {}),
      },
      completedStarts: r.completedStarts,
      ...(r.model === 'admixture' ? { model: r.model } : {}),
      ...(r.cvError !== undefined ? { cvError: r.cvError } : {}),
    };
  });
}
