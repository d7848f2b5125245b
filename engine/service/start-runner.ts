import type { GenotypeData } from '../data/genotype-data.ts';
import type { FitOptions } from '../model/fit-options.ts';
import type { StartResult } from '../model/start.ts';
import type { StartTask } from '../model/sweep.ts';
import type { CvFold, CvFoldTask } from '../model/admixture/cross-validation.ts';
import type { BootstrapTask } from '../model/admixture/bootstrap.ts';
import type { AssignFoldTask } from './assign-fold.ts';
import type { ProjectTask } from './project-share.ts';

/** What a runner reports while it works. */
export interface StartHooks {
  /** A running start reported an iteration and its convergence measure (throttled by the worker). */
  onIteration?(task: StartTask, iteration: number, logLik: number, change: number, loci?: number): void;
  /** A start finished. */
  onStart?(task: StartTask, result: StartResult): void;
  /**
   * Starts to run once this one has finished (adaptive starts: a multi-start's next round); the
   * runner runs them in the same call, after the others, their results after the given tasks'.
   */
  more?(task: StartTask, result: StartResult): readonly StartTask[];
}

export interface StartRun {
  /** Completed starts in task order (missing ones were cancelled). */
  readonly results: (StartResult | undefined)[];
  readonly cancelled: boolean;
}

/**
 * Runs the starts of a sweep somewhere (in process, on worker threads, in a browser worker):
 * what the clustering use cases need from the runtime (engine/runtime/pool.ts implements it).
 */
export interface StartRunner {
  run(
    data: GenotypeData,
    tasks: readonly StartTask[],
    options: FitOptions,
    hooks?: StartHooks,
    signal?: AbortSignal,
  ): Promise<StartRun>;
  /** Runs folds of the admixture model's cross-validation (runners without it leave them to the caller's thread). */
  runCvFolds?(
    data: GenotypeData,
    tasks: readonly CvFoldTask[],
    options: FitOptions,
    signal?: AbortSignal,
    /** Called as each fold finishes, with the folds finished so far. */
    onFold?: (completed: number) => void,
  ): Promise<{ results: (CvFold | undefined)[]; cancelled: boolean }>;
  /** Runs bootstrap replicates of the admixture model (results: each replicate's Q, in task order). */
  runBootstrap?(
    data: GenotypeData,
    tasks: readonly BootstrapTask[],
    options: FitOptions,
    signal?: AbortSignal,
    /** Called as each replicate finishes, with the replicates finished so far. */
    onReplicate?: (completed: number) => void,
  ): Promise<{ results: (Float64Array | undefined)[]; cancelled: boolean }>;
  /** Workers the runner uses at most (what a task list is shared into). */
  readonly size?: number;
  /** Runs shares of a projection (results: each share packed by projectWork, in task order). */
  runProjection?(
    data: GenotypeData,
    tasks: readonly ProjectTask[],
    signal?: AbortSignal,
    /** Called with the individuals projected so far over all shares. */
    onIndividuals?: (done: number) => void,
  ): Promise<{ results: (Float64Array | undefined)[]; cancelled: boolean }>;
  /** Runs folds of an assignment's cross-validation (results: each task's posteriors, in task order). */
  runAssignFolds?(
    data: GenotypeData,
    tasks: readonly AssignFoldTask[],
    signal?: AbortSignal,
    /** Called with a task's position and the features its structure search has placed so far (Infinity: done). */
    onFeatures?: (position: number, features: number) => void,
  ): Promise<{ results: (Float64Array | undefined)[]; cancelled: boolean }>;
}
