import type { GenotypeData } from '../data/genotype-data.ts';
import { bootstrapReplicate, resampledBlocks, type BootstrapTask } from '../model/admixture/bootstrap.ts';
import type { FitOptions } from '../model/fit-options.ts';
import { likeliestRunAtK, type SweepRun } from '../model/sweep.ts';
import { alignToReference, permuteColumns } from '../model/align.ts';
import { deriveSeed } from '../util/rng.ts';
import type { StartRunner } from './start-runner.ts';

/** Bootstrap standard errors and 95 % percentile intervals of an admixture run's Q. */
export interface AncestryBootstrap {
  readonly B: number;
  /** Genome windows resampled (markers with positions), or undefined: single markers. */
  readonly blocks: number | undefined;
  /** shape (N, K) each: the standard deviation over replicates, and the 2.5 % and 97.5 % quantiles. */
  readonly se: Float64Array;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
}

/**
 * The replicates of a bootstrap of `run` (B refits on markers resampled with replacement, in
 * blocks of consecutive markers where positions exist, each started from the estimate), each
 * seeded by (seed, K, replicate, b): the same replicates wherever they run.
 */
export function bootstrapTasks(run: SweepRun, B: number, seed: number): BootstrapTask[] {
  if (run.model !== 'admixture')
    throw new RangeError('the bootstrap of Q is for the admixture model (--model admixture)');
  if (!Number.isInteger(B) || B < 2) throw new RangeError(`bootstrap replicates: a whole number ≥ 2, got ${B}`);
  const { K } = run;
  return Array.from({ length: B }, (_, b) => ({
    K,
    Q: run.clustering.Q,
    F: run.clustering.model.theta,
    seed: deriveSeed(seed, K, run.replicate, b),
  }));
}

/**
 * Use case "bootstrap ancestry" (ADMIXTURE's -B) in this thread: per entry of Q the standard
 * deviation over the refits and the percentile interval. Seeded: the same seed gives the same
 * replicates; {@link bootstrapAncestryOn} runs them on a runner's workers with the same result.
 */
export function bootstrapAncestry(
  data: GenotypeData,
  run: SweepRun,
  B: number,
  seed: number,
  fit: FitOptions,
  onReplicate?: (done: number) => void,
): AncestryBootstrap {
  const tasks = bootstrapTasks(run, B, seed);
  const reps = tasks.map((task, b) => {
    const q = bootstrapReplicate(data, task, { ...fit, model: 'admixture' });
    onReplicate?.(b + 1);
    return q;
  });
  return summarizeBootstrap(reps, data, run.K);
}

/**
 * {@link bootstrapAncestry} with the replicates on the runner's workers (several at once; each
 * start of a worker's pool is one replicate); runners without workers for them run them in this
 * thread. Undefined when cancelled.
 */
export async function bootstrapAncestryOn(
  runner: StartRunner,
  data: GenotypeData,
  run: SweepRun,
  B: number,
  seed: number,
  fit: FitOptions,
  signal?: AbortSignal,
  onReplicate?: (done: number) => void,
): Promise<AncestryBootstrap | undefined> {
  if (!runner.runBootstrap) return bootstrapAncestry(data, run, B, seed, fit, onReplicate);
  const tasks = bootstrapTasks(run, B, seed);
  const done = await runner.runBootstrap(data, tasks, { ...fit, model: 'admixture' }, signal, onReplicate);
  if (done.cancelled || done.results.some((r) => r === undefined)) return undefined;
  return summarizeBootstrap(done.results as Float64Array[], data, run.K);
}

/**
 * Use case "bootstrap a sweep's run" (the app): {@link bootstrapAncestryOn} of the run at K with the
 * highest ln L, its columns in the order of `shown` (the memberships a view draws, shape (N, K)).
 */
export async function bootstrapSweepRun(
  runner: StartRunner,
  data: GenotypeData,
  runs: readonly SweepRun[],
  K: number,
  B: number,
  seed: number,
  fit: FitOptions,
  shown?: Float64Array,
  signal?: AbortSignal,
  onReplicate?: (done: number) => void,
): Promise<(AncestryBootstrap & { replicate: number }) | undefined> {
  const run = likeliestRunAtK(runs, K);
  const N = data.individuals.length;
  if (shown && shown.length !== N * K) throw new RangeError(`the memberships shown are not (${N}, ${K})`);
  const b = await bootstrapAncestryOn(runner, data, run, B, seed, fit, signal, onReplicate);
  if (!b) return undefined;
  const perm = shown ? alignToReference(shown, run.clustering.Q, N, K) : undefined;
  const order = (a: Float64Array) => (perm ? permuteColumns(a, N, K, perm) : a);
  return { ...b, replicate: run.replicate, se: order(b.se), lower: order(b.lower), upper: order(b.upper) };
}

/** Per entry of Q over the replicates of `data`'s bootstrap: standard deviation and the 2.5 % and 97.5 % quantiles. */
export function summarizeBootstrap(reps: readonly Float64Array[], data: GenotypeData, K: number): AncestryBootstrap {
  const N = data.individuals.length;
  const blocks = resampledBlocks(data);
  const B = reps.length;
  const se = new Float64Array(N * K);
  const lower = new Float64Array(N * K);
  const upper = new Float64Array(N * K);
  const values = new Float64Array(B);
  for (let x = 0; x < N * K; x++) {
    let mean = 0;
    for (let b = 0; b < B; b++) mean += values[b] = reps[b]![x]!;
    mean /= B;
    let ss = 0;
    for (let b = 0; b < B; b++) ss += (values[b]! - mean) ** 2;
    se[x] = Math.sqrt(ss / (B - 1));
    values.sort();
    lower[x] = quantile(values, 0.025);
    upper[x] = quantile(values, 0.975);
  }
  return { B, blocks, se, lower, upper };
}

/** The p-quantile of sorted values (linear interpolation between order statistics, R's type 7). */
function quantile(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}
