/// <reference lib="webworker" />
// A nested Web Worker that runs clustering starts for the engine worker's pool.
import { serveStarts } from '../../../engine/runtime/start-server.ts';
import { workerScopePort } from './ports.ts';

serveStarts(workerScopePort(self as unknown as DedicatedWorkerGlobalScope));
