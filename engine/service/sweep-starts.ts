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
 * Adaptive starts: every (K, replicate) runs its starts in index order, `round` at a time (all
 * multi-starts' rounds dispatched together, so threads stay busy), until its two best agree within
 * `agree` ln L or it has run `o.starts`. Which starts run depends on the starts' results alone,
 * never on the number of threads. Progress counts against the starts still possible (the total
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
  const groups = new Map<string, { tasks: StartTask[]; logLiks: number[]; open: boolean }>();
  for (const t of tasks) {
    const key = `${t.K}/${t.replicate}`;
    if (!groups.has(key)) groups.set(key, { tasks: [], logLiks: [], open: true });
    groups.get(key)!.tasks.push(t);
  }
  for (const g of groups.values()) g.tasks.sort((a, b) => a.index - b.index);
  const ran: StartTask[] = [];
  const results: (StartResult | undefined)[] = [];
  let total = tasks.length;
  while (true) {
    const round = [...groups.values()].flatMap((g) =>
      g.open ? g.tasks.slice(g.logLiks.length, g.logLiks.length + rule.round) : [],
    );
    if (round.length === 0) break;
    const count = { total, perRun: o.starts, done: ran.length, screening: false };
    const run = await runner.run(data, round, o.fit, progressHooks(count, onProgress, then), signal);
    ran.push(...round);
    results.push(...run.results);
    if (run.cancelled) return { tasks: ran, results, cancelled: true };
    round.forEach((t, k) => groups.get(`${t.K}/${t.replicate}`)!.logLiks.push(run.results[k]!.logLik));
    for (const g of groups.values()) {
      if (!g.open) continue;
      if (g.logLiks.length < g.tasks.length && !bestFoundTwice(g.logLiks, rule.agree)) continue;
      g.open = false;
      total -= g.tasks.length - g.logLiks.length;
      runDone?.(g.tasks[0]!.K, g.tasks[0]!.replicate);
    }
  }
  return { tasks: ran, results, cancelled: false };
}
