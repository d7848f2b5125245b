import type { AssignFoldTask } from '../service/assign-fold.ts';
import type { ProjectTask } from '../service/project-share.ts';
import type { BootstrapTask } from '../model/admixture/bootstrap.ts';
import type { CvFold, CvFoldTask } from '../model/admixture/cross-validation.ts';
import type { FitOptions } from '../model/fit-options.ts';
import type { PostedDataset, PreparedData } from '../model/prepared/prepared-data.ts';
import type { StartResult } from '../model/start.ts';
import type { StartTask } from '../model/sweep.ts';

/** Messages from the pool to a start worker. */
export type ToStartWorker =
  | {
      readonly op: 'dataset';
      readonly datasetId: number;
      /** The genotype data, where the tasks read them (EMA-TAN, bootstrap); absent, `prepared` is all they need. */
      readonly data?: PostedDataset;
      /** The dataset prepared once by the pool (its large arrays shared where the platform can). */
      readonly prepared?: PreparedData;
    }
  | {
      readonly op: 'start';
      readonly taskId: number;
      readonly datasetId: number;
      readonly task: StartTask;
      readonly options: FitOptions;
      /** Helper threads the task's passes may use (cores no other task of the run uses; kernel-team.ts). */
      readonly helpers?: number;
    }
  /** One fold of the admixture model's cross-validation error (answered with 'cv-done'). */
  | {
      readonly op: 'cv-fold';
      readonly taskId: number;
      readonly datasetId: number;
      readonly task: CvFoldTask;
      readonly options: FitOptions;
      readonly helpers?: number;
    }
  /** One bootstrap replicate of the admixture model (answered with 'bootstrap-done': its Q). */
  | {
      readonly op: 'bootstrap';
      readonly taskId: number;
      readonly datasetId: number;
      readonly task: BootstrapTask;
      readonly options: FitOptions;
      readonly helpers?: number;
    }
  /** One fold of an assignment's cross-validation (answered with 'assign-done': its posteriors). */
  | {
      readonly op: 'assign-fold';
      readonly taskId: number;
      readonly datasetId: number;
      readonly task: AssignFoldTask;
      readonly helpers?: number;
    }
  /** A share of a projection's individuals (answered with 'project-done': the share packed). */
  | {
      readonly op: 'project';
      readonly taskId: number;
      readonly datasetId: number;
      readonly task: ProjectTask;
      readonly helpers?: number;
    }
  | { readonly op: 'cancel'; readonly taskId: number }
  /** The run on this dataset is over: free it (workers keep a dataset only while it is in use). */
  | { readonly op: 'drop'; readonly datasetId: number }
  /** Asks how many datasets the worker holds (answered with 'held'; for tests and diagnostics). */
  | { readonly op: 'held' }
  /**
   * Where the pool says, while tasks run, how many helper threads this worker's passes may use:
   * `cells[index]` of a shared Int32Array, read at each pass (kernel-team.ts), so threads a finished
   * task leaves idle join the tasks still running. Sent once, where shared memory exists; otherwise
   * each task's `helpers` holds.
   */
  | { readonly op: 'helper-cell'; readonly cells: Int32Array; readonly index: number };

/** Messages from a start worker to the pool. */
export type FromStartWorker =
  | {
      readonly op: 'iteration';
      readonly taskId: number;
      readonly iteration: number;
      readonly logLik: number;
      /** The fit's convergence measure at this iteration (what it stops on). */
      readonly change: number;
      /** The loci ln L is over, in a stage that fits a subset of them (absent: every locus). */
      readonly loci?: number;
    }
  | { readonly op: 'done'; readonly taskId: number; readonly result: StartResult }
  | { readonly op: 'cv-done'; readonly taskId: number; readonly result: CvFold }
  | { readonly op: 'bootstrap-done'; readonly taskId: number; readonly result: Float64Array }
  | { readonly op: 'assign-done'; readonly taskId: number; readonly result: Float64Array }
  | { readonly op: 'project-done'; readonly taskId: number; readonly result: Float64Array }
  | { readonly op: 'cancelled'; readonly taskId: number }
  | { readonly op: 'error'; readonly taskId: number; readonly name: string; readonly message: string }
  | { readonly op: 'held'; readonly datasets: number };
