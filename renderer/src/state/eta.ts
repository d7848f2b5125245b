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
