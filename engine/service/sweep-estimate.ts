// How long a sweep's starts will take, estimated before any start has finished (when the time per
// finished start cannot be measured yet: a long first start showed "0 of 180 starts" and no time
// for minutes). The estimate comes from the starts at work: how fast each iterates, and how many
// iterations it still needs, from how fast its convergence measure falls.

/** One progress report of a running start: its iteration, convergence measure and the time (ms). */
export interface Observation {
  readonly iteration: number;
  readonly change: number;
  readonly at: number;
}

/**
 * Iterations a fit still needs to bring its convergence measure (the parameter change, or the
 * change of ln L) to `threshold`, from two reports a and b (a earlier): EM and its accelerations
 * converge linearly — the measure shrinks by a roughly constant factor ρ per iteration — so from
 * change c it takes ln(threshold / c) / ln ρ more, with ρ = (c_b / c_a)^(1 / (i_b − i_a)).
 * 0 at or below the threshold; at most `cap` − i_b; undefined while the measure is not falling
 * (or is not a finite positive number).
 */
export function iterationsLeft(a: Observation, b: Observation, threshold: number, cap: number): number | undefined {
  // A first iteration's measure can be infinite (ln L from −∞): no rate from it.
  const usable = (c: number) => c > 0 && Number.isFinite(c);
  if (!usable(a.change) || !usable(b.change) || !(b.iteration > a.iteration)) return undefined;
  if (b.change <= threshold) return 0;
  const rate = Math.pow(b.change / a.change, 1 / (b.iteration - a.iteration));
  if (!(rate < 1)) return undefined;
  return Math.max(0, Math.min(cap - b.iteration, Math.ceil(Math.log(threshold / b.change) / Math.log(rate))));
}

/** The starts of a sweep: how many at each K. */
export interface SweepPlan {
  readonly startsAtK: ReadonlyMap<number, number>;
  /** What the fits stop on, and their iteration cap. */
  readonly threshold: number;
  readonly maxIterations: number;
}

/**
 * Seconds the sweep's starts still need, before any has finished: each start at work gives its
 * seconds per iteration (between its first and last report) and its iterations left (from its
 * first report past half its iterations to its last, {@link iterationsLeft}); a start not begun
 * costs what one at work will cost in all, scaled by K (an iteration's E step and counts are
 * linear in K); the work left is shared by as many workers as starts are at work. Undefined until
 * every start at work has reported a falling measure at two iterations.
 */
export function secondsLeft(
  plan: SweepPlan,
  running: ReadonlyMap<string, { readonly K: number; readonly reports: readonly Observation[] }>,
  begun: ReadonlyMap<number, number>,
): number | undefined {
  if (running.size === 0) return undefined;
  let left = 0;
  let perK = 0; // seconds a whole start takes per unit of K, over the starts at work
  for (const { K, reports } of running.values()) {
    const b = reports[reports.length - 1];
    const a = reports.find((r) => r.iteration * 2 >= (b?.iteration ?? 0)) ?? reports[0];
    if (!a || !b || a === b) return undefined;
    const more = iterationsLeft(a, b, plan.threshold, plan.maxIterations);
    const first = reports[0]!;
    if (more === undefined || !(b.iteration > first.iteration)) return undefined;
    const pace = (b.at - first.at) / 1000 / (b.iteration - first.iteration);
    left += more * pace;
    perK += ((b.iteration + more) * pace) / K;
  }
  perK /= running.size;
  for (const [K, starts] of plan.startsAtK) left += Math.max(0, starts - (begun.get(K) ?? 0)) * perK * K;
  return left / running.size;
}

/**
 * Follows a sweep's progress and gives {@link secondsLeft} until its first start finishes (after
 * that, the time per finished start is the better measure and the callers use it).
 */
export class SweepEstimate {
  private readonly running = new Map<string, { K: number; reports: Observation[] }>();
  private readonly begun = new Map<number, number>();
  private finished = false;

  constructor(private readonly plan: SweepPlan) {}

  /** A start's report; returns the estimate then (undefined once a start has finished). */
  iteration(K: number, key: string, iteration: number, change: number, at: number): number | undefined {
    if (this.finished) return undefined;
    let s = this.running.get(key);
    if (!s) {
      s = { K, reports: [] };
      this.running.set(key, s);
      this.begun.set(K, (this.begun.get(K) ?? 0) + 1);
    }
    s.reports.push({ iteration, change, at });
    return secondsLeft(this.plan, this.running, this.begun);
  }

  /** A start finished: no more estimates from here. */
  startDone(): void {
    this.finished = true;
  }
}
