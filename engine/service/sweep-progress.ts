import type { StartResult } from '../model/start.ts';
import type { StartTask, SweepRun } from '../model/sweep.ts';
import type { StartHooks } from './start-runner.ts';

/** What a sweep reports while it runs. */
export type SweepProgress =
  | {
      readonly kind: 'iteration';
      readonly K: number;
      readonly replicate: number;
      readonly start: number;
      readonly iteration: number;
      readonly logLik: number;
      /** The fit's convergence measure (parameter change, or ln L change for the admixture model). */
      readonly change: number;
      /**
       * The loci ln L is over while a stage fits a subset of them (the admixture model's subset
       * stage: its ln L is far above the whole data's); absent: every locus.
       */
      readonly loci?: number;
    }
  | {
      readonly kind: 'start';
      readonly K: number;
      readonly replicate: number;
      readonly start: number;
      readonly logLik: number;
      readonly completed: number;
      readonly total: number;
      /** Start runs per (K, replicate), screening runs included (for per-K progress). */
      readonly perRun: number;
      /** A screening run (model/screening.ts), not a start run to convergence. */
      readonly screening: boolean;
    }
  | { readonly kind: 'run'; readonly run: SweepRun; readonly completed: number; readonly total: number }
  /**
   * The admixture model's cross-validation after the starts (CV error per K): `completed` of
   * `total` folds; reported once with 0 as the stage begins.
   */
  | { readonly kind: 'cv'; readonly completed: number; readonly total: number }
  /**
   * Before the first start finishes: the seconds the starts will still take, from the starts at
   * work (service/sweep-estimate.ts); not the combining of starts or cross-validation after them.
   */
  | { readonly kind: 'estimate'; readonly seconds: number };

/** Where a runner's finished starts fall in a sweep's progress. */
export interface ProgressCount {
  /** Start runs in the whole sweep (screening runs included); read at each start (adaptive starts lower it). */
  readonly total: number;
  /** Start runs per (K, replicate). */
  readonly perRun: number;
  /** Start runs finished before these hooks (an earlier phase of the same sweep). */
  readonly done: number;
  readonly screening: boolean;
}

/**
 * Runner hooks that report iterations and finished starts as sweep progress (`completed` counts
 * the finished start runs of `total`); `then` runs after each finished start.
 */
export function progressHooks(
  count: ProgressCount,
  onProgress?: (p: SweepProgress) => void,
  then?: (task: StartTask, result: StartResult) => void,
): StartHooks {
  const { perRun, screening } = count;
  let completed = count.done;
  return {
    onIteration: (t, iteration, logLik, change, loci) =>
      onProgress?.({
        kind: 'iteration',
        K: t.K,
        replicate: t.replicate,
        start: t.index,
        iteration,
        logLik,
        change,
        ...(loci ? { loci } : {}),
      }),
    onStart: (t, result) => {
      completed++;
      onProgress?.({
        kind: 'start',
        K: t.K,
        replicate: t.replicate,
        start: t.index,
        logLik: result.logLik,
        completed,
        total: count.total,
        perRun,
        screening,
      });
      then?.(t, result);
    },
  };
}
