import type { GenotypeData } from '../data/genotype-data.ts';
import type { StartResult } from '../model/start.ts';
import { keptTasks, screenPlan } from '../model/screening.ts';
import type { StartTask, SweepOptions } from '../model/sweep.ts';
import { bestFoundTwice } from '../model/start-rule.ts';
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
 * progress counts both phases. With adaptive starts, the starts run in rounds (runAdaptive).
 * `then` is called for each start run to convergence; `runDone` when a (K, replicate) has all
 * the starts it will run (adaptive starts only: otherwise that is when its last start is in).
 */
export async function runSweepStarts(
  runner: StartRunner,
  data: GenotypeData,
  tasks: readonly StartTask[],
  o: SweepOptions,
  onProgress?: (p: SweepProgress) => void,
  then?: (task: StartTask, result: StartResult) => void,
  signal?: AbortSignal,
  runDone?: (K: number, replicate: number) => void,
): Promise<SweepStarts> {
  if (o.adaptive) return runAdaptive(runner, data, tasks, o, o.adaptive, onProgress, then, signal, runDone);
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

/**
 * Adaptive starts: every (K, replicate) runs its starts in index order, `round` at a time, until
 * its two best agree within `agree` ln L or it has run `o.starts`. A multi-start's next round joins
 * the runner's queue as soon as its own round is in (no multi-start waits for another's round), so
 * threads stay busy. Which starts run depends on each multi-start's results alone, never on the
 * number of threads or on timing. Progress counts against the starts still possible (the total
 * falls as multi-starts stop).
 */
async function runAdaptive(
  runner: StartRunner,
  data: GenotypeData,
  tasks: readonly StartTask[],
  o: SweepOptions,
  rule: { readonly round: number; readonly agree: number },
  onProgress?: (p: SweepProgress) => void,
  then?: (task: StartTask, result: StartResult) => void,
  signal?: AbortSignal,
  runDone?: (K: number, replicate: number) => void,
): Promise<SweepStarts> {
  const groups = new Map<string, { tasks: StartTask[]; logLiks: number[]; queued: number }>();
  const key = (t: StartTask) => `${t.K}/${t.replicate}`;
  for (const t of tasks) {
    if (!groups.has(key(t))) groups.set(key(t), { tasks: [], logLiks: [], queued: 0 });
    groups.get(key(t))!.tasks.push(t);
  }
  for (const g of groups.values()) g.tasks.sort((a, b) => a.index - b.index);
  // The runner's queue as it grows: each multi-start's first round, then the rounds `more` adds.
  const queue: StartTask[] = [];
  const nextRound = (g: { tasks: StartTask[]; queued: number }): StartTask[] => {
    const round = g.tasks.slice(g.queued, g.queued + rule.round);
    g.queued += round.length;
    queue.push(...round);
    return round;
  };
  for (const g of groups.values()) nextRound(g);
  const count = { total: tasks.length, perRun: o.starts, done: 0, screening: false };
  const hooks = progressHooks(count, onProgress, then);
  const run = await runner.run(
    data,
    [...queue],
    o.fit,
    {
      ...hooks,
      more: (t, result) => {
        const g = groups.get(key(t))!;
        g.logLiks.push(result.logLik);
        // Decided when the multi-start's round is in: the same decision whatever the order of its starts.
        if (g.logLiks.length < g.queued) return [];
        if (g.logLiks.length < g.tasks.length && !bestFoundTwice(g.logLiks, rule.agree)) return nextRound(g);
        count.total -= g.tasks.length - g.logLiks.length;
        runDone?.(t.K, t.replicate);
        return [];
      },
    },
    signal,
  );
  return { tasks: queue, results: run.results, cancelled: run.cancelled };
}
