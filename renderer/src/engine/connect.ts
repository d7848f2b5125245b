import { EngineClient } from '../../../engine/runtime/engine-client.ts';
import { messagePortPort, workerPort } from './ports.ts';
import { desktopEnginePort } from './desktop-port.ts';

/** Connects the one engine client: the utility process in Electron, a Web Worker in a browser. */
export async function connectEngine(): Promise<EngineClient> {
  if (window.stratify?.isDesktop)
    return new EngineClient(messagePortPort(await desktopEnginePort(window.stratify, window)));
  const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module' });
  return new EngineClient(workerPort(worker));
}
