/*
 * Screening of a multi-start's starts ("emEM", Biernacki, Celeux & Govaert 2003): every start
 * first runs a few EM iterations from its random parameters; only the starts of highest
 * log-likelihood at that point are run to convergence (from the same parameters, so a kept start
 * is exactly the start a full multi-start would run). docs/performance.md measures how often the
 * screened multi-start keeps the start a full one chooses.
 */
import type { FitOptions } from './mixture/fit.ts';
import type { Screening, StartTask, SweepOptions } from './sweep.ts';

export type { Screening } from './sweep.ts';

/** A screened multi-start runs at least this many starts to convergence. */
export const MIN_KEPT = 5;

/**
 * Whether a sweep screens its starts: the mixture model's EM, EMA and auto with best choice.
 * EMA-TAN and the admixture model run every start; averaging policies need every start.
 */
export function screens(o: SweepOptions): boolean {
  const s = o.screen;
  return (
    s !== undefined &&
    s.iterations > 0 &&
    o.fit.model !== 'admixture' &&
    o.fit.algorithm !== 'ema-tan' &&
    o.policy === 'best' &&
    keptStarts(o.starts, s.keep) < o.starts
  );
}

/** How many of `starts` starts a screened multi-start runs to convergence. */
export function keptStarts(starts: number, keep: number): number {
  return Math.min(starts, Math.max(MIN_KEPT, Math.ceil(keep * starts - 1e-9)));
}

/** The options of a screening run: EM for `iterations` iterations from the start's random parameters. */
export function screeningFit(fit: FitOptions, s: Screening): FitOptions {
  return { ...fit, model: 'mixture', algorithm: 'em', maxIterations: s.iterations };
}

/**
 * The tasks to run to convergence: of each (K, replicate), the `keptStarts` starts whose screening
 * run reached the highest log-likelihood (the lower index first among equals), in task order.
 * `logLiks[t]` belongs to `tasks[t]`.
 */
export function keptTasks(tasks: readonly StartTask[], logLiks: ArrayLike<number>, keep: number): StartTask[] {
  const groups = new Map<string, number[]>();
  tasks.forEach((t, k) => {
    const key = `${t.K}/${t.replicate}`;
    const g = groups.get(key) ?? [];
    g.push(k);
    groups.set(key, g);
  });
  const kept = new Set<number>();
  for (const g of groups.values()) {
    const score = (k: number) => (Number.isNaN(logLiks[k]!) ? -Infinity : logLiks[k]!);
    const order = [...g].sort((a, b) =>
      score(a) > score(b) ? -1 : score(a) < score(b) ? 1 : tasks[a]!.index - tasks[b]!.index,
    );
    for (const k of order.slice(0, keptStarts(g.length, keep))) kept.add(k);
  }
  return tasks.filter((_, k) => kept.has(k));
}
