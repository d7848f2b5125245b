import type { FitOptions } from '../model/fit-options.ts';
import {
  everyLocus,
  postedDataset,
  preparedData,
  receivedDataset,
  type PostedDataset,
  type PreparedData,
} from '../model/prepared/prepared-data.ts';
import { startContext, startSteps, type StartContext, type StartResult } from '../model/start.ts';
import { cvEntryOrder, cvFoldSteps, type CvFold, type CvFoldTask } from '../model/admixture/cross-validation.ts';
import { admixtureFitOptions } from '../model/admixture/admixture-start.ts';
import { twoAlleleData } from '../model/admixture/two-allele-passes.ts';
import type { StartTask } from '../model/sweep.ts';

// What the runtime's start workers and pools handle, named here so that the runtime reaches the
// models through the service layer only.
export type { CvFold, CvFoldTask, FitOptions, PreparedData, StartContext, StartResult, StartTask };
export { postedDataset, preparedData };
export type { PostedDataset };

/**
 * The preparation the admixture model's workers share: every locus's codes decoded once (everyLocus),
 * except for two-allele data, whose passes read the codes a locus at a time.
 */
export function preparedForAdmixture(prepared: PreparedData): PreparedData {
  return twoAlleleData(prepared) ? prepared : everyLocus(prepared);
}

/** What a start worker keeps of a dataset it is sent (the preparation made once by the pool). */
export function workerDataset(data: PostedDataset, prepared?: PreparedData): StartContext {
  return startContext(receivedDataset(data), prepared);
}

/** Use case "one start" (in a worker): its iterations, returning the start's result. */
export function startWork(
  context: StartContext,
  task: StartTask,
  options: FitOptions,
): Generator<{ iteration: number; logLik: number; change: number }, StartResult> {
  return startSteps(context, task.K, options, task.index, task.seed);
}

/** Use case "one cross-validation fold" (in a worker): the refit's iterations, returning the fold's error terms. */
export function cvFoldWork(
  context: StartContext,
  task: CvFoldTask,
  options: FitOptions,
): Generator<{ iteration: number; logLik: number; change: number }, CvFold> {
  const order = cvEntryOrder(context.md, task.seed);
  return cvFoldSteps(
    context.md,
    { K: task.K, Q: task.Q, F: task.F },
    task.folds,
    task.fold,
    order,
    admixtureFitOptions(options),
  );
}
