import type { GenotypeData } from '../data/genotype-data.ts';
import type { FitOptions } from '../model/fit.ts';
import type { StartResult } from '../model/multi-start.ts';

/** One start of a multi-start: which K, replicate and start index, and its seed. */
export interface StartTask {
  readonly K: number;
  readonly replicate: number;
  readonly index: number;
  readonly seed: number;
}

/** Messages from the pool to a start worker. */
export type ToStartWorker =
  | { readonly op: 'dataset'; readonly datasetId: number; readonly data: GenotypeData }
  | { readonly op: 'start'; readonly taskId: number; readonly datasetId: number; readonly task: StartTask; readonly options: FitOptions }
  | { readonly op: 'cancel'; readonly taskId: number };

/** Messages from a start worker to the pool. */
export type FromStartWorker =
  | { readonly op: 'iteration'; readonly taskId: number; readonly iteration: number; readonly logLik: number }
  | { readonly op: 'done'; readonly taskId: number; readonly result: StartResult }
  | { readonly op: 'cancelled'; readonly taskId: number }
  | { readonly op: 'error'; readonly taskId: number; readonly name: string; readonly message: string };
