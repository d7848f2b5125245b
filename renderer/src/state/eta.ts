/** Progress of one K of a running sweep, as the Run view shows it. */
export interface KProgress {
  readonly K: number;
  done: number;
  /** The most starts the K can run (with adaptive starts, the cap until it finishes; then what ran). */
  total: number;
  /**
   * Adaptive starts: the starts dispatched together at this K (a round of every replicate); the K
   * is expected to stop after two rounds, or after the round under way (engine/model/start-rule.ts).
   */
  readonly round?: number;
  startedAt?: number;
  finishedAt?: number;
}

/** The starts a K is expected to run in all: its total, or with adaptive starts what the rule will likely run. */
export function expectedStarts(p: KProgress): number {
  if (!p.round || p.finishedAt !== undefined) return p.total;
  const underWay = Math.ceil((p.done + 1) / p.round) * p.round;
  return Math.min(p.total, Math.max(2 * p.round, underWay));
}

/**
 * Seconds left for a K, from its rate so far; undefined until the rate can be measured. `now`
 * comes from a clock that ticks every half second, so it can lag behind `startedAt` (set when
 * the K's first start finished): no estimate then, never a negative one.
 */
export function etaSeconds(p: KProgress, now: number): number | undefined {
  const total = expectedStarts(p);
  if (!p.startedAt || p.done === 0 || p.done >= total) return undefined;
  const elapsed = now - p.startedAt;
  if (!(elapsed > 0)) return undefined;
  return ((elapsed / p.done) * (total - p.done)) / 1000;
}

/**
 * Seconds left for a whole sweep: the elapsed time since it began, scaled by the work left over
 * the work done, where a start at K costs K (an iteration's E step and counts are linear in K).
 * Undefined before the first start finishes and once everything is done.
 */
export function sweepEtaSeconds(progress: readonly KProgress[], startedAt: number, now: number): number | undefined {
  let done = 0;
  let total = 0;
  for (const p of progress) {
    done += p.K * p.done;
    total += p.K * expectedStarts(p);
  }
  const elapsed = now - startedAt;
  if (done === 0 || done >= total || !(elapsed > 0)) return undefined;
  return ((elapsed / done) * (total - done)) / 1000;
}

/**
 * Seconds left before any start has finished: the engine's estimate (from the starts at work),
 * less the time since it came; undefined once a start has finished (sweepEtaSeconds then).
 */
export function earlyEtaSeconds(
  progress: readonly KProgress[],
  early: { readonly seconds: number; readonly at: number } | null,
  now: number,
): number | undefined {
  if (!early || progress.some((p) => p.done > 0)) return undefined;
  return Math.max(0, early.seconds - Math.max(0, now - early.at) / 1000);
}

/**
 * Seconds left for the cross-validation stage, from its folds so far (folds at all K cost about
 * the same); undefined before the first fold finishes and once all are done.
 */
export function cvEtaSeconds(
  cv: { readonly completed: number; readonly total: number; readonly startedAt: number },
  now: number,
): number | undefined {
  const elapsed = now - cv.startedAt;
  if (cv.completed === 0 || cv.completed >= cv.total || !(elapsed > 0)) return undefined;
  return ((elapsed / cv.completed) * (cv.total - cv.completed)) / 1000;
}

/** "42 s", "3 min 05 s", "1 h 02 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}
