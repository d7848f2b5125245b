import { bootstrapWork, cvFoldWork, startWork, workerDataset } from '../service/start-work.ts';
import { assignFoldWork } from '../service/assign-fold.ts';
import { projectWork } from '../service/project-share.ts';
import type { StartContext, StartResult } from '../model/start.ts';
import type { CvFold } from '../model/admixture/cross-validation.ts';
import { yieldToEventLoop, type Port } from './port.ts';
import { setKernelHelperCell, setKernelHelpers } from '../util/kernel-team.ts';
import type { FromStartWorker, ToStartWorker } from './start-protocol.ts';

/** The messages that queue a task. */
type TaskOp = 'start' | 'cv-fold' | 'bootstrap' | 'assign-fold' | 'project';

/** How often a running start gives the event loop a chance to deliver a cancel (ms). */
const YIELD_EVERY_MS = 40;
/** Minimum time between iteration progress messages (ms). */
const PROGRESS_EVERY_MS = 200;

/**
 * Serves starts on a port: the code that runs inside a worker thread, a Web Worker, an Electron
 * utility process or in-process. Starts are queued and run one at a time; a cancel stops the
 * running start at its next iteration.
 */
export function serveStarts(port: Port): void {
  const datasets = new Map<number, StartContext>();
  const queue: Extract<ToStartWorker, { op: TaskOp }>[] = [];
  const cancelled = new Set<number>();
  let running = false;
  const send = (m: FromStartWorker, transfer?: Transferable[]) => port.postMessage(m, transfer);

  /** A queued task's iterations and what to send when they are done. */
  function job(
    data: StartContext,
    msg: Extract<ToStartWorker, { op: TaskOp }>,
  ): {
    steps: Generator<{ iteration: number; logLik: number; change: number; loci?: number }, unknown>;
    finish(value: unknown): void;
  } {
    if (msg.op === 'assign-fold') {
      // One step: the fold's structure search reports its features as it places them (a cancel
      // is taken between folds).
      const genotypes = data.data;
      if (!genotypes) throw new RangeError('an assignment fold needs the genotype data');
      let features = 0;
      let last = 0;
      const onFeature = () => {
        features++;
        const now = Date.now();
        if (now - last < PROGRESS_EVERY_MS) return;
        last = now;
        send({ op: 'iteration', taskId: msg.taskId, iteration: features, logLik: NaN, change: NaN });
      };
      return {
        steps: (function* () {
          return assignFoldWork(genotypes, msg.task, onFeature);
        })(),
        finish: (value) => {
          const post = value as Float64Array;
          send({ op: 'assign-done', taskId: msg.taskId, result: post }, [post.buffer] as Transferable[]);
        },
      };
    }
    if (msg.op === 'project') {
      if (!data.data) throw new RangeError('a projection needs the genotype data');
      return {
        steps: projectWork(data.data, msg.task),
        finish: (value) => {
          const packed = value as Float64Array;
          send({ op: 'project-done', taskId: msg.taskId, result: packed }, [packed.buffer] as Transferable[]);
        },
      };
    }
    if (msg.op === 'bootstrap') {
      return {
        steps: bootstrapWork(data, msg.task, msg.options),
        finish: (value) => {
          const q = value as Float64Array;
          send({ op: 'bootstrap-done', taskId: msg.taskId, result: q }, [q.buffer] as Transferable[]);
        },
      };
    }
    if (msg.op === 'cv-fold') {
      return {
        steps: cvFoldWork(data, msg.task, msg.options),
        finish: (value) => send({ op: 'cv-done', taskId: msg.taskId, result: value as CvFold }),
      };
    }
    return {
      steps: startWork(data, msg.task, msg.options),
      finish: (value) => {
        const res = value as StartResult;
        // Each buffer once (arrays that are views of one buffer would make postMessage throw).
        const buffers = new Set([
          res.posterior.buffer,
          res.model.theta.buffer,
          res.model.weights.buffer,
          res.informative.buffer,
        ]);
        send({ op: 'done', taskId: msg.taskId, result: res }, [...buffers] as Transferable[]);
      },
    };
  }

  async function drain(): Promise<void> {
    if (running) return;
    running = true;
    while (queue.length > 0) {
      const msg = queue.shift()!;
      if (cancelled.delete(msg.taskId)) {
        send({ op: 'cancelled', taskId: msg.taskId });
        continue;
      }
      try {
        const data = datasets.get(msg.datasetId);
        if (!data) throw new Error(`unknown dataset ${msg.datasetId}`);
        setKernelHelpers(msg.helpers ?? 0);
        const { steps, finish } = job(data, msg);
        let lastYield = Date.now();
        let lastProgress = 0;
        let stopped = false;
        for (;;) {
          const r = steps.next();
          if (r.done) {
            finish(r.value);
            break;
          }
          const now = Date.now();
          if (now - lastProgress >= PROGRESS_EVERY_MS) {
            lastProgress = now;
            const { iteration, logLik, change, loci } = r.value;
            send({ op: 'iteration', taskId: msg.taskId, iteration, logLik, change, ...(loci ? { loci } : {}) });
          }
          if (now - lastYield >= YIELD_EVERY_MS) {
            await yieldToEventLoop();
            lastYield = Date.now();
            if (cancelled.delete(msg.taskId)) {
              stopped = true;
              break;
            }
          }
        }
        if (stopped) send({ op: 'cancelled', taskId: msg.taskId });
      } catch (e) {
        const err = e instanceof Error ? e : new Error(String(e));
        send({ op: 'error', taskId: msg.taskId, name: err.name, message: err.message });
      }
      await yieldToEventLoop();
    }
    running = false;
  }

  port.onMessage((raw) => {
    const msg = raw as ToStartWorker;
    switch (msg.op) {
      case 'dataset':
        datasets.set(msg.datasetId, workerDataset(msg.data, msg.prepared));
        break;
      case 'start':
      case 'cv-fold':
      case 'bootstrap':
      case 'assign-fold':
      case 'project':
        queue.push(msg);
        void drain();
        break;
      case 'cancel':
        cancelled.add(msg.taskId);
        break;
      case 'drop':
        datasets.delete(msg.datasetId);
        break;
      case 'held':
        send({ op: 'held', datasets: datasets.size });
        break;
      case 'helper-cell':
        setKernelHelperCell(msg.cells, msg.index);
        break;
    }
  });
}
