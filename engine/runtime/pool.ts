import type { GenotypeData } from '../data/genotype-data.ts';
import { datasetForWorkers, tasksNeedData, type WorkerPreparation } from '../service/start-work.ts';
import type { AssignFoldTask } from '../service/assign-fold.ts';
import type { ProjectTask } from '../service/project-share.ts';
import type { FitOptions } from '../model/fit-options.ts';
import type { StartResult } from '../model/start.ts';
import type { StartTask } from '../model/sweep.ts';
import type { CvFold, CvFoldTask } from '../model/admixture/cross-validation.ts';
import type { BootstrapTask } from '../model/admixture/bootstrap.ts';
import type { Port } from './port.ts';
import type { FromStartWorker, ToStartWorker } from './start-protocol.ts';
import type { StartHooks, StartRun, StartRunner } from '../service/start-runner.ts';

export type { StartHooks as PoolHooks, StartRun as PoolRun } from '../service/start-runner.ts';

/** Tasks each worker holds at once (one running, one queued), so none idles between starts. */
export const IN_FLIGHT_PER_WORKER = 2;

/**
 * Runs starts on `size` workers made by `spawn`. Tasks are handed out as workers free up, and
 * each result is stored under its task's position, so the outcome does not depend on the
 * number of workers or on timing. Aborting stops handing out tasks, cancels running ones and
 * keeps every start that had completed.
 */
export class StartPool implements StartRunner {
  private readonly workers: Port[] = [];
  /**
   * Per worker, the helper threads its running task's passes may use (shared with the workers where
   * the platform has shared memory; kernel-team.ts): the threads no task uses, spread over the tasks
   * running, updated as tasks start and end.
   */
  private readonly helperCells: Int32Array | undefined;
  private nextDataset = 1;
  private nextTask = 1;

  constructor(
    private readonly spawn: () => Port,
    readonly size: number,
  ) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`StartPool: size must be a positive integer, got ${size}`);
    if (typeof SharedArrayBuffer !== 'undefined') this.helperCells = new Int32Array(new SharedArrayBuffer(4 * size));
  }

  /** Workers for `tasks` tasks: at most size, and no more than the tasks (an idle worker holds memory). */
  private ensureWorkers(tasks: number): void {
    while (this.workers.length < Math.min(this.size, Math.max(1, tasks))) {
      const port = this.spawn();
      if (this.helperCells)
        port.postMessage({
          op: 'helper-cell',
          cells: this.helperCells,
          index: this.workers.length,
        } satisfies ToStartWorker);
      this.workers.push(port);
    }
  }

  /**
   * Shares the threads among the workers running a task (`load`: tasks held per worker): each gets
   * ⌊size / running⌋ − 1 helper threads, the first ones one more while threads are left over.
   */
  private shareThreads(load: readonly number[]): void {
    const cells = this.helperCells;
    if (!cells) return;
    const running = load.filter((n) => n > 0).length;
    const each = running > 0 ? Math.floor(this.size / running) - 1 : 0;
    let spare = running > 0 ? this.size - running * (each + 1) : 0;
    load.forEach((n, w) => {
      const extra = n > 0 && spare > 0 ? 1 : 0;
      if (extra) spare--;
      Atomics.store(cells, w, n > 0 ? each + extra : 0);
    });
  }

  run(
    data: GenotypeData,
    tasks: readonly StartTask[],
    options: FitOptions,
    hooks: StartHooks = {},
    signal?: AbortSignal,
  ): Promise<StartRun> {
    return this.schedule<StartTask, StartResult>(
      data,
      tasks,
      (taskId, datasetId, task, helpers) => ({ op: 'start', taskId, datasetId, task, options, helpers }),
      { prepared: options.model === 'admixture' ? 'admixture' : 'mixture', data: tasksNeedData('start', options) },
      hooks,
      signal,
    );
  }

  /**
   * Runs folds of the admixture model's cross-validation on the workers (results in task order;
   * missing ones were cancelled).
   */
  runCvFolds(
    data: GenotypeData,
    tasks: readonly CvFoldTask[],
    options: FitOptions,
    signal?: AbortSignal,
    onFold?: (completed: number) => void,
  ): Promise<{ results: (CvFold | undefined)[]; cancelled: boolean }> {
    let completed = 0;
    return this.schedule<CvFoldTask, CvFold>(
      data,
      tasks,
      (taskId, datasetId, task, helpers) => ({ op: 'cv-fold', taskId, datasetId, task, options, helpers }),
      { prepared: 'admixture', data: tasksNeedData('cv-fold', options) },
      { onStart: () => onFold?.(++completed) },
      signal,
    );
  }

  /** Runs bootstrap replicates of the admixture model on the workers (each replicate's Q, in task order). */
  runBootstrap(
    data: GenotypeData,
    tasks: readonly BootstrapTask[],
    options: FitOptions,
    signal?: AbortSignal,
    onReplicate?: (completed: number) => void,
  ): Promise<{ results: (Float64Array | undefined)[]; cancelled: boolean }> {
    let completed = 0;
    return this.schedule<BootstrapTask, Float64Array>(
      data,
      tasks,
      (taskId, datasetId, task, helpers) => ({ op: 'bootstrap', taskId, datasetId, task, options, helpers }),
      { prepared: 'admixture', data: tasksNeedData('bootstrap', options) },
      { onStart: () => onReplicate?.(++completed) },
      signal,
    );
  }

  /**
   * Runs shares of a projection on the workers (each share packed by projectWork, in task order);
   * `onIndividuals` gets the individuals projected so far over all shares (reported by the workers
   * every so often).
   */
  runProjection(
    data: GenotypeData,
    tasks: readonly ProjectTask[],
    signal?: AbortSignal,
    onIndividuals?: (done: number) => void,
  ): Promise<{ results: (Float64Array | undefined)[]; cancelled: boolean }> {
    const done = new Map<ProjectTask, number>();
    const report = (task: ProjectTask, n: number) => {
      done.set(task, n);
      let sum = 0;
      for (const d of done.values()) sum += d;
      onIndividuals?.(sum);
    };
    return this.schedule<ProjectTask, Float64Array>(
      data,
      tasks,
      (taskId, datasetId, task) => ({ op: 'project', taskId, datasetId, task }),
      { prepared: 'none', data: tasksNeedData('project') },
      { onIteration: (task, individuals) => report(task, individuals), onStart: (task) => report(task, task.count) },
      signal,
    );
  }

  /**
   * Runs folds of an assignment's cross-validation on the workers (each task's posteriors, in task
   * order); `onFeatures` gets a task's position and the features its structure search has placed
   * (Infinity once the task is done).
   */
  runAssignFolds(
    data: GenotypeData,
    tasks: readonly AssignFoldTask[],
    signal?: AbortSignal,
    onFeatures?: (position: number, features: number) => void,
  ): Promise<{ results: (Float64Array | undefined)[]; cancelled: boolean }> {
    const position = new Map(tasks.map((t, k) => [t, k]));
    return this.schedule<AssignFoldTask, Float64Array>(
      data,
      tasks,
      (taskId, datasetId, task) => ({ op: 'assign-fold', taskId, datasetId, task }),
      { prepared: 'none', data: tasksNeedData('assign-fold') },
      {
        onIteration: (task, features) => onFeatures?.(position.get(task)!, features),
        onStart: (task) => onFeatures?.(position.get(task)!, Infinity),
      },
      signal,
    );
  }

  /**
   * Hands `tasks` to the workers as they free up (each holding IN_FLIGHT_PER_WORKER) and stores
   * each result under its task's position. Tasks `hooks.more` returns for a finished one join the
   * end of the list (their results after the given tasks', in the order they joined).
   */
  private schedule<T extends { readonly K: number }, R>(
    data: GenotypeData,
    given: readonly T[],
    message: (taskId: number, datasetId: number, task: T, helpers: number) => ToStartWorker,
    posting: { readonly prepared: WorkerPreparation; readonly data: boolean },
    hooks: {
      onIteration?(task: T, iteration: number, logLik: number, change: number, loci?: number): void;
      onStart?(task: T, result: R): void;
      more?(task: T, result: R): readonly T[];
    },
    signal?: AbortSignal,
  ): Promise<{ results: (R | undefined)[]; cancelled: boolean }> {
    const tasks = [...given];
    this.ensureWorkers(tasks.length);
    const datasetId = this.nextDataset++;
    // Prepared once here for every worker (datasetForWorkers).
    const largestK = tasks.reduce((most, t) => Math.max(most, t.K), 0);
    const dataset = datasetForWorkers(data, posting.prepared, posting.data, largestK);
    for (const w of this.workers) w.postMessage({ op: 'dataset', datasetId, ...dataset } satisfies ToStartWorker);
    const results: (R | undefined)[] = new Array(tasks.length).fill(undefined);
    // Fewer tasks than threads: the threads no task uses (no worker was started for them) become
    // helper threads of the tasks' passes (one start on two threads: a share of each pass on each;
    // kernel-team.ts). This count holds where the workers have no helper cells (shareThreads).
    const helpers = tasks.length > 0 && tasks.length < this.size ? Math.floor(this.size / tasks.length) - 1 : 0;
    return new Promise((resolve, reject) => {
      let next = 0;
      let aborted = false;
      let failed: Error | undefined;
      const inFlight = new Map<number, { position: number; worker: number }>();
      const load = new Array<number>(this.workers.length).fill(0);
      const unsubscribe: (() => void)[] = [];

      const finish = () => {
        this.shareThreads(load);
        if (inFlight.size > 0) return;
        if (!aborted && !failed && next < tasks.length) return;
        for (const u of unsubscribe) u();
        signal?.removeEventListener('abort', onAbort);
        for (const w of this.workers) w.postMessage({ op: 'drop', datasetId } satisfies ToStartWorker);
        if (failed) reject(failed);
        else resolve({ results, cancelled: aborted });
      };
      // Breadth first: every worker gets a task to run before any gets one to queue (depth first,
      // two tasks on two workers both went to the first, which ran them one after the other).
      const dispatch = () => {
        if (aborted || failed) return;
        for (let depth = 1; depth <= IN_FLIGHT_PER_WORKER; depth++)
          for (let w = 0; w < this.workers.length && next < tasks.length; w++) {
            if (load[w]! >= depth) continue;
            const position = next++;
            const taskId = this.nextTask++;
            inFlight.set(taskId, { position, worker: w });
            load[w]!++;
            this.workers[w]!.postMessage(message(taskId, datasetId, tasks[position]!, helpers));
          }
      };
      const cancelAll = () => {
        for (const [taskId, { worker }] of inFlight)
          this.workers[worker]!.postMessage({ op: 'cancel', taskId } satisfies ToStartWorker);
      };
      const onAbort = () => {
        aborted = true;
        cancelAll();
        finish();
      };
      this.workers.forEach((port) => {
        unsubscribe.push(
          port.onMessage((raw) => {
            const msg = raw as FromStartWorker;
            if (msg.op === 'held') return;
            const slot = inFlight.get(msg.taskId);
            if (!slot) return;
            const task = tasks[slot.position]!;
            if (msg.op === 'iteration') {
              hooks.onIteration?.(task, msg.iteration, msg.logLik, msg.change, msg.loci);
              return;
            }
            inFlight.delete(msg.taskId);
            load[slot.worker]!--;
            if (
              msg.op === 'done' ||
              msg.op === 'cv-done' ||
              msg.op === 'bootstrap-done' ||
              msg.op === 'assign-done' ||
              msg.op === 'project-done'
            ) {
              const result = msg.result as R;
              results[slot.position] = result;
              hooks.onStart?.(task, result);
              for (const added of hooks.more?.(task, result) ?? []) {
                tasks.push(added);
                results.push(undefined);
              }
            } else if (msg.op === 'error' && !failed) {
              failed = Object.assign(new Error(msg.message), { name: msg.name });
              cancelAll();
            }
            dispatch();
            finish();
          }),
        );
      });
      if (signal?.aborted) {
        aborted = true;
        finish();
        return;
      }
      signal?.addEventListener('abort', onAbort);
      dispatch();
      finish();
    });
  }

  /** Terminates the workers. */
  close(): void {
    for (const w of this.workers.splice(0)) w.close();
  }
}
