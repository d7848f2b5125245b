/** Progress of one K of a running sweep, as the Run view shows it. */
export interface KProgress {
  readonly K: number;
  done: number;
  readonly total: number;
  startedAt?: number;
  finishedAt?: number;
}

/**
 * Seconds left for a K, from its rate so far; undefined until the rate can be measured. `now`
 * comes from a clock that ticks every half second, so it can lag behind `startedAt` (set when
 * the K's first start finished): no estimate then, never a negative one.
 */
export function etaSeconds(p: KProgress, now: number): number | undefined {
  if (!p.startedAt || p.done === 0 || p.done >= p.total) return undefined;
  const elapsed = now - p.startedAt;
  if (!(elapsed > 0)) return undefined;
  return ((elapsed / p.done) * (p.total - p.done)) / 1000;
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
    total += p.K * p.total;
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
