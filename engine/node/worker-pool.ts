import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { Port } from '../runtime/port.ts';
import { StartPool } from '../runtime/pool.ts';
import { spawnInProcess } from '../runtime/in-process.ts';

const ENTRY = new URL('./start-worker.mjs', import.meta.url);

/** A start worker in a Node worker thread. */
export function spawnWorkerThread(): Port {
  const w = new Worker(ENTRY);
  return {
    postMessage: (m, transfer) => w.postMessage(m, (transfer ?? []) as never[]),
    onMessage: (h) => {
      w.on('message', h);
      return () => w.off('message', h);
    },
    close: () => void w.terminate(),
  };
}

/** A pool of `threads` worker threads (0 or 1 runs in this thread); default: all cores. */
export function nodeStartPool(threads = availableParallelism()): StartPool {
  return threads <= 1 ? new StartPool(spawnInProcess, 1) : new StartPool(spawnWorkerThread, threads);
}
