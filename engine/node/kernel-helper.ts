// Helper threads for the WebAssembly passes (engine/util/kernel-team.ts) as Node worker threads:
// each runs serveKernels from its source text (it imports nothing), given the module and the shared
// memory as workerData. Unreferenced, so a waiting helper never keeps a process alive.
import { Worker } from 'node:worker_threads';
import { serveKernels, setHelperSpawner } from '../util/kernel-team.ts';

const SOURCE = `const { workerData } = require('node:worker_threads');\n(${serveKernels.toString()})(workerData);`;

/** Lets passes in this thread start helper threads (as many as setKernelHelpers allows). */
export function registerKernelHelpers(): void {
  setHelperSpawner((start) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: start });
    worker.unref();
    return { close: () => void worker.terminate() };
  });
}
