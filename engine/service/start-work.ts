import type { GenotypeData } from '../data/genotype-data.ts';
import type { FitOptions } from '../model/fit-options.ts';
import {
  everyLocus,
  postedDataset,
  preparedData,
  receivedDataset,
  type PostedDataset,
  type PreparedData,
} from '../model/prepared/prepared-data.ts';
import { preparedContext, startContext, startSteps, type StartContext, type StartResult } from '../model/start.ts';
import { cvEntryOrder, cvFoldSteps, type CvFold, type CvFoldTask } from '../model/admixture/cross-validation.ts';
import { bootstrapSteps, type BootstrapTask } from '../model/admixture/bootstrap.ts';
import { admixtureFitOptions } from '../model/admixture/admixture-start.ts';
import { MAX_K as TWO_ALLELE_MAX_K, twoAlleleData } from '../model/admixture/two-allele-passes.ts';
import type { StartTask } from '../model/sweep.ts';

/** Which preparation a pool's tasks share: the mixture model's, the admixture model's, or none. */
export type WorkerPreparation = 'mixture' | 'admixture' | 'none';

/**
 * What a pool posts to its workers for a dataset: the preparation its tasks share, made once here
 * (worker threads get the calls and genotype codes in shared memory where the platform has it,
 * else a copy each), and the genotype data themselves only where the tasks read them (`withData`).
 * The admixture model reads every locus's codes: decoded here once, not in each worker (SNP data at
 * a K the two-allele passes are written for never need them: those read a locus at a time).
 */
export function datasetForWorkers(
  data: GenotypeData,
  preparation: WorkerPreparation,
  withData: boolean,
  largestK: number,
): { data?: PostedDataset; prepared?: PreparedData } {
  const prepared =
    preparation === 'none'
      ? undefined
      : preparation === 'admixture'
        ? preparedForAdmixture(preparedData(data), largestK)
        : preparedData(data);
  return { ...(withData ? { data: postedDataset(data) } : {}), ...(prepared ? { prepared } : {}) };
}

/**
 * The preparation the admixture model's workers share for fits up to K = largestK: every locus's
 * codes decoded once (everyLocus), except for two-allele data at a K the two-allele passes are
 * written for (they read the codes a locus at a time; above, the general passes would decode them
 * in each worker).
 */
export function preparedForAdmixture(prepared: PreparedData, largestK: number): PreparedData {
  return twoAlleleData(prepared) && largestK <= TWO_ALLELE_MAX_K ? prepared : everyLocus(prepared);
}

/**
 * What a start worker keeps of a dataset it is sent: the preparation made once by the pool, and
 * the genotype data where the tasks need them (EMA-TAN, bootstrap replicates).
 */
export function workerDataset(data: PostedDataset | undefined, prepared?: PreparedData): StartContext {
  if (data) return startContext(receivedDataset(data), prepared);
  if (!prepared) throw new Error('A dataset message needs the data or their preparation');
  return preparedContext(prepared);
}

/** Whether tasks of this kind read the genotype data, not only their preparation (which every worker gets). */
export function tasksNeedData(
  kind: 'start' | 'cv-fold' | 'bootstrap' | 'assign-fold' | 'project',
  options?: FitOptions,
): boolean {
  return (
    kind === 'bootstrap' ||
    kind === 'assign-fold' ||
    kind === 'project' ||
    (kind === 'start' && options?.algorithm === 'ema-tan')
  );
}

/** Use case "one start" (in a worker): its iterations, returning the start's result. */
export function startWork(
  context: StartContext,
  task: StartTask,
  options: FitOptions,
): Generator<{ iteration: number; logLik: number; change: number }, StartResult> {
  return startSteps(context, task.K, options, task.index, task.seed, task.memberships);
}

/** Use case "one bootstrap replicate" (in a worker): the refit's iterations, returning its Q. */
export function bootstrapWork(
  context: StartContext,
  task: BootstrapTask,
  options: FitOptions,
): Generator<{ iteration: number; logLik: number; change: number }, Float64Array> {
  if (!context.data) throw new RangeError('a bootstrap replicate needs the genotype data');
  return bootstrapSteps(context.data, task, options);
}

/**
 * The folds' order of a dataset's entries per seed, made once per worker and dataset (every fold of
 * a cross-validation shuffles the same entries: 2,000 × 100,000 SNPs took 47 s and 755 MiB a fold).
 */
const entryOrders = new WeakMap<PreparedData, Map<number, Uint32Array>>();

function entryOrder(md: PreparedData, seed: number): Uint32Array {
  let bySeed = entryOrders.get(md);
  if (!bySeed) entryOrders.set(md, (bySeed = new Map()));
  let order = bySeed.get(seed);
  if (!order) {
    // One order kept at a time: a new seed (another cross-validation) replaces the last.
    bySeed.clear();
    bySeed.set(seed, (order = cvEntryOrder(md, seed)));
  }
  return order;
}

/** Use case "one cross-validation fold" (in a worker): the refit's iterations, returning the fold's error terms. */
export function cvFoldWork(
  context: StartContext,
  task: CvFoldTask,
  options: FitOptions,
): Generator<{ iteration: number; logLik: number; change: number }, CvFold> {
  const order = entryOrder(context.md, task.seed);
  return cvFoldSteps(
    context.md,
    { K: task.K, Q: task.Q, F: task.F },
    task.folds,
    task.fold,
    order,
    admixtureFitOptions(options),
  );
}
