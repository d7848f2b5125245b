import type { GenotypeData } from '../data/genotype-data.ts';
import type { StartResult } from '../model/start.ts';
import { keptTasks, screenPlan } from '../model/screening.ts';
import type { StartTask, SweepOptions } from '../model/sweep.ts';
import { progressHooks, type SweepProgress } from './sweep-progress.ts';
import type { StartRunner } from './start-runner.ts';

/** The starts a sweep ran to convergence. */
export interface SweepStarts {
  /** The tasks run to convergence (all of them, or those kept by screening), in task order. */
  readonly tasks: readonly StartTask[];
  /** Completed starts, position for position with `tasks` (missing ones were cancelled). */
  readonly results: readonly (StartResult | undefined)[];
  readonly cancelled: boolean;
}

/**
 * Runs a sweep's starts on a runner. When the options screen (model/screening.ts), every start
 * first runs its screening fit on the runner, and only the kept starts then run to convergence;
 * progress counts both phases. `then` is called for each start run to convergence.
 */
export async function runSweepStarts(
  runner: StartRunner,
  data: GenotypeData,
  tasks: readonly StartTask[],
  o: SweepOptions,
  onProgress?: (p: SweepProgress) => void,
  then?: (task: StartTask, result: StartResult) => void,
  signal?: AbortSignal,
): Promise<SweepStarts> {
  const plan = screenPlan(o);
  if (!plan) {
    const count = { total: tasks.length, perRun: Math.min(o.starts, tasks.length), done: 0, screening: false };
    const run = await runner.run(data, tasks, o.fit, progressHooks(count, onProgress, then), signal);
    return { tasks, results: run.results, cancelled: run.cancelled };
  }
  const perRun = o.starts + plan.kept;
  const count = { total: (tasks.length / o.starts) * perRun, perRun, done: 0, screening: true };
  const screening = await runner.run(data, tasks, plan.fit, progressHooks(count, onProgress), signal);
  if (screening.cancelled) return { tasks: [], results: [], cancelled: true };
  const logLiks = screening.results.map((r) => r?.logLik ?? -Infinity);
  const kept = keptTasks(tasks, logLiks, plan.kept);
  const later = { ...count, done: tasks.length, screening: false };
  const run = await runner.run(data, kept, o.fit, progressHooks(later, onProgress, then), signal);
  return { tasks: kept, results: run.results, cancelled: run.cancelled };
}
