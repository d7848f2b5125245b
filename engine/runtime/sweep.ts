import type { GenotypeData } from '../data/genotype-data.ts';
import type { FitOptions } from '../model/fit.ts';
import { mixtureData } from '../model/mixture-data.ts';
import { combineStarts, POLICIES, RANK_BY, startSeed, type Clustering, type Policy, type RankBy, type StartResult } from '../model/multi-start.ts';
import type { StartPool } from './pool.ts';
import type { StartTask } from './start-protocol.ts';

/** A K sweep: `replicates` independent multi-starts of `starts` starts at each K. */
export interface SweepOptions {
  readonly kValues: readonly number[];
  readonly replicates: number;
  readonly starts: number;
  readonly policy: Policy;
  /** What best choice ranks starts by (default 'evidence'). */
  readonly rankBy?: RankBy;
  readonly seed: number;
  readonly fit: FitOptions;
}

/** One multi-start result: replicate r at K. */
export interface SweepRun {
  readonly K: number;
  readonly replicate: number;
  readonly clustering: Clustering;
  /** Starts that completed (fewer than requested after a cancel). */
  readonly completedStarts: number;
}

export type SweepProgress =
  | { readonly kind: 'iteration'; readonly K: number; readonly replicate: number; readonly start: number; readonly iteration: number; readonly logLik: number }
  | { readonly kind: 'start'; readonly K: number; readonly replicate: number; readonly start: number; readonly logLik: number; readonly completed: number; readonly total: number }
  | { readonly kind: 'run'; readonly run: SweepRun; readonly completed: number; readonly total: number };

export interface SweepResult {
  readonly runs: readonly SweepRun[];
  readonly cancelled: boolean;
}

/** Checks a sweep's options; throws a RangeError naming the bad value. */
export function validateSweep(o: SweepOptions, nIndividuals: number): void {
  if (o.kValues.length === 0) throw new RangeError('sweep: no K given');
  for (const K of o.kValues) {
    if (!Number.isInteger(K) || K < 1 || K > Math.max(1, nIndividuals)) throw new RangeError(`sweep: K must be an integer from 1 to the number of individuals (${nIndividuals}), got ${K}`);
  }
  if (!Number.isInteger(o.replicates) || o.replicates < 1) throw new RangeError(`sweep: replicates must be a positive integer, got ${o.replicates}`);
  if (!Number.isInteger(o.starts) || o.starts < 1) throw new RangeError(`sweep: starts must be a positive integer, got ${o.starts}`);
  if (!(o.fit.epsilon > 0)) throw new RangeError(`sweep: epsilon must be positive, got ${o.fit.epsilon}`);
  if (!POLICIES.includes(o.policy)) throw new RangeError(`sweep: policy must be one of ${POLICIES.join(', ')}, got ${String(o.policy)}`);
  if (o.rankBy !== undefined && !RANK_BY.includes(o.rankBy)) throw new RangeError(`sweep: rankBy must be one of ${RANK_BY.join(', ')}, got ${String(o.rankBy)}`);
}

/**
 * Runs a sweep on a pool. Every start's seed derives from (seed, K, replicate, start), so the
 * result is the same, bit for bit, for any number of workers. Each (K, replicate) is combined
 * by the policy as soon as its starts are in; after a cancel, runs are combined from the
 * starts that completed.
 */
export async function runSweep(data: GenotypeData, o: SweepOptions, pool: StartPool, onProgress?: (p: SweepProgress) => void, signal?: AbortSignal): Promise<SweepResult> {
  validateSweep(o, data.individuals.length);
  const md = mixtureData(data);
  const tasks: StartTask[] = [];
  for (const K of o.kValues) for (let r = 0; r < o.replicates; r++) for (let s = 0; s < o.starts; s++) tasks.push({ K, replicate: r, index: s, seed: startSeed(o.seed, K, r, s) });
  const groups = new Map<string, { K: number; replicate: number; results: (StartResult | undefined)[]; left: number }>();
  for (const t of tasks) {
    const key = `${t.K}/${t.replicate}`;
    if (!groups.has(key)) groups.set(key, { K: t.K, replicate: t.replicate, results: new Array(o.starts).fill(undefined), left: o.starts });
  }
  const runs: SweepRun[] = [];
  let completedStarts = 0;
  const combine = (g: { K: number; replicate: number; results: (StartResult | undefined)[] }): SweepRun | undefined => {
    const done = g.results.filter((x): x is StartResult => x !== undefined);
    if (done.length === 0) return undefined;
    const run = { K: g.K, replicate: g.replicate, clustering: combineStarts(md, done, o.policy, o.rankBy), completedStarts: done.length };
    g.results.fill(undefined);
    return run;
  };
  const outcome = await pool.run(
    data,
    tasks,
    o.fit,
    {
      onIteration: (t, iteration, logLik) => onProgress?.({ kind: 'iteration', K: t.K, replicate: t.replicate, start: t.index, iteration, logLik }),
      onStart: (t, result) => {
        completedStarts++;
        onProgress?.({ kind: 'start', K: t.K, replicate: t.replicate, start: t.index, logLik: result.logLik, completed: completedStarts, total: tasks.length });
        const g = groups.get(`${t.K}/${t.replicate}`)!;
        g.results[t.index] = result;
        if (--g.left === 0) {
          const run = combine(g)!;
          runs.push(run);
          onProgress?.({ kind: 'run', run, completed: runs.length, total: groups.size });
        }
      },
    },
    signal,
  );
  if (outcome.cancelled) {
    for (const g of groups.values()) {
      if (g.left === 0) continue;
      const run = combine(g);
      if (run) runs.push(run);
    }
  }
  runs.sort((a, b) => a.K - b.K || a.replicate - b.replicate);
  return { runs, cancelled: outcome.cancelled };
}
