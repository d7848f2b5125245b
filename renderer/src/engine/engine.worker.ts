/// <reference lib="webworker" />
// The browser build's engine: the same EngineServer as in Electron's utility process, with its
// clustering starts spread over nested Web Workers.
import { EngineServer } from '../../../engine/runtime/engine-server.ts';
import { StartPool } from '../../../engine/runtime/pool.ts';
import { spawnInProcess } from '../../../engine/runtime/in-process.ts';
import { workerPort, workerScopePort } from './ports.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const defaultThreads = Math.max(1, Math.min(8, navigator.hardwareConcurrency || 2));
let pool: StartPool | undefined;

/** The start pool, recreated when a run asks for another number of workers. */
function poolOf(threads = defaultThreads): StartPool {
  if (pool && pool.size !== threads) {
    pool.close();
    pool = undefined;
  }
  return (pool ??= new StartPool(spawnStartWorker, threads));
}

function spawnStartWorker() {
  if (typeof Worker === 'undefined') return spawnInProcess();
  return workerPort(new Worker(new URL('./start.worker.ts', import.meta.url), { type: 'module' }));
}

new EngineServer(workerScopePort(scope), poolOf, { cores: navigator.hardwareConcurrency || 2 });
