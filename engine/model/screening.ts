/*
 * Screening of a multi-start's starts under best choice: every start first runs a short fit; only
 * the starts of highest log-likelihood at that point are run to the end (again from their seeds,
 * so a kept start is exactly the start a full multi-start would run).
 * - Mixture model ("emEM", Biernacki, Celeux & Govaert 2003): a few EM iterations from the start's
 *   random parameters; a fraction of the starts is kept (at least MIN_KEPT). Off by default
 *   (docs/performance.md measures how often it keeps the start a full multi-start chooses).
 * - Admixture model: the fit itself to a looser tolerance (|Δ ln L| < screen.tolerance); the
 *   `screen.starts` starts highest there are run on to the fit's tolerance. Off by default: on
 *   eHGDP at K = 8 the starts' ranking at a loose tolerance was often not their final ranking
 *   (docs/admixture-screening.md).
 */
import type { FitOptions } from './fit-options.ts';
import type { Screening, StartTask, SweepOptions } from './sweep.ts';
import { CLUSTER_DEFAULTS } from '../util/choices.ts';

export type { Screening } from './sweep.ts';

/** A screened mixture multi-start runs at least this many starts to convergence. */
export const MIN_KEPT = 5;

/** How a sweep screens its starts: the screening runs' options and how many starts of each multi-start run on. */
export interface ScreenPlan {
  readonly fit: FitOptions;
  readonly kept: number;
}

/**
 * The screening a sweep does, or undefined when every start runs to the end: under best choice
 * only (averaging policies need every start); the mixture model's EM, EMA and auto when
 * `screen.iterations` > 0 (EMA-TAN runs every start); the admixture model unless its screening
 * tolerance (default CLUSTER_DEFAULTS.admixtureScreenTolerance) is 0 or no looser than the fit's.
 */
export function screenPlan(o: SweepOptions): ScreenPlan | undefined {
  if (o.policy !== 'best') return undefined;
  const s = o.screen;
  if (o.fit.model === 'admixture') {
    const tolerance = s?.tolerance ?? CLUSTER_DEFAULTS.admixtureScreenTolerance;
    const kept = Math.min(o.starts, s?.starts ?? CLUSTER_DEFAULTS.admixtureScreenStarts);
    if (!(tolerance > (o.fit.tolerance ?? CLUSTER_DEFAULTS.tolerance)) || kept >= o.starts) return undefined;
    return { fit: { ...o.fit, tolerance }, kept };
  }
  if (s === undefined || !(s.iterations > 0) || o.fit.algorithm === 'ema-tan') return undefined;
  const kept = keptStarts(o.starts, s.keep);
  return kept < o.starts ? { fit: screeningFit(o.fit, s), kept } : undefined;
}

/** Whether a sweep screens its starts (screenPlan). */
export function screens(o: SweepOptions): boolean {
  return screenPlan(o) !== undefined;
}

/** How many of `starts` starts a screened mixture multi-start runs to convergence. */
export function keptStarts(starts: number, keep: number): number {
  return Math.min(starts, Math.max(MIN_KEPT, Math.ceil(keep * starts - 1e-9)));
}

/** The options of a mixture screening run: EM for `iterations` iterations from the start's random parameters. */
export function screeningFit(fit: FitOptions, s: Screening): FitOptions {
  return { ...fit, model: 'mixture', algorithm: 'em', maxIterations: s.iterations };
}

/**
 * The tasks to run to convergence: of each (K, replicate), the `kept` starts whose screening run
 * reached the highest log-likelihood (the lower index first among equals), in task order.
 * `logLiks[t]` belongs to `tasks[t]`.
 */
export function keptTasks(tasks: readonly StartTask[], logLiks: ArrayLike<number>, kept: number): StartTask[] {
  const groups = new Map<string, number[]>();
  tasks.forEach((t, k) => {
    const key = `${t.K}/${t.replicate}`;
    const g = groups.get(key) ?? [];
    g.push(k);
    groups.set(key, g);
  });
  const chosen = new Set<number>();
  for (const g of groups.values()) {
    const score = (k: number) => (Number.isNaN(logLiks[k]!) ? -Infinity : logLiks[k]!);
    const order = [...g].sort((a, b) =>
      score(a) > score(b) ? -1 : score(a) < score(b) ? 1 : tasks[a]!.index - tasks[b]!.index,
    );
    for (const k of order.slice(0, kept)) chosen.add(k);
  }
  return tasks.filter((_, k) => chosen.has(k));
}
