// The admixture issue's sweep target, shared by the report scripts that measure it
// (docs/scripts/admixture.ts, docs/scripts/admixture-f-update.ts): K = 2..8 × 10 starts, best start
// by the default ranking, seed 1, no CV, on worker threads.
import type { GenotypeData } from '../engine/data/genotype-data.ts';
import type { FitOptions } from '../engine/model/fit-options.ts';
import { DEFAULT_FIT } from '../engine/model/fit-options.ts';
import { nodeStartPool } from '../engine/node/worker-pool.ts';
import { runSweep } from '../engine/service/cluster-sweep.ts';
import { CLUSTER_DEFAULTS } from '../engine/util/choices.ts';

export interface TargetSweep {
  readonly runs: Awaited<ReturnType<typeof runSweep>>['runs'];
  /** Wall-clock seconds of the sweep. */
  readonly seconds: number;
}

/** Runs the target sweep of `data` with these fit options on `threads` worker threads. */
export async function runTargetSweep(data: GenotypeData, fit: FitOptions, threads: number): Promise<TargetSweep> {
  const pool = nodeStartPool(threads);
  const t = performance.now();
  const sweep = await runSweep(
    data,
    {
      kValues: [2, 3, 4, 5, 6, 7, 8],
      replicates: 1,
      starts: 10,
      policy: 'best',
      rankBy: CLUSTER_DEFAULTS.rankBy,
      seed: 1,
      fit,
    },
    pool,
  );
  pool.close();
  return { runs: sweep.runs, seconds: (performance.now() - t) / 1000 };
}

type Starts = readonly { readonly iterations: number }[];
/** The fewest–most accepted steps of a run's starts. */
export const stepRange = (s: Starts) =>
  `${Math.min(...s.map((x) => x.iterations))}–${Math.max(...s.map((x) => x.iterations))}`;
/** Starts stopped by the default step cap. */
export const cappedStarts = (s: Starts) => s.filter((x) => x.iterations >= DEFAULT_FIT.maxIterations).length;
