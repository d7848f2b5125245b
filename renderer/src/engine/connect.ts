import { EngineClient } from '../../../engine/runtime/engine-client.ts';
import { messagePortPort, workerPort } from './ports.ts';
import type { DesktopApi } from '../../../electron/ipc-schema.ts';

declare global {
  interface Window {
    /** The Electron preload's API (electron/ipc-schema.ts); absent in a browser. */
    stratify?: DesktopApi;
  }
}

/** Connects the one engine client: the utility process in Electron, a Web Worker in a browser. */
export async function connectEngine(): Promise<EngineClient> {
  if (window.stratify?.isDesktop) return new EngineClient(messagePortPort(await window.stratify.connectEngine()));
  const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module' });
  return new EngineClient(workerPort(worker));
}
