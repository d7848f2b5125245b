import { EngineClient } from '../../../engine/runtime/engine-client.ts';
import { messagePortPort, workerPort } from './ports.ts';

/** What the Electron preload exposes (see electron/preload.ts). */
export interface StratifyDesktop {
  readonly isDesktop: true;
  /** Resolves with a MessagePort connected to the engine utility process. */
  connectEngine(): Promise<MessagePort>;
  openFileDialog(): Promise<{ name: string; bytes: Uint8Array }[] | null>;
  saveFile(suggestedName: string, data: Uint8Array | string): Promise<string | null>;
  onEngineCrashed(handler: (reason: string) => void): void;
  onMenuCommand(handler: (command: string) => void): void;
}

declare global {
  interface Window {
    stratify?: StratifyDesktop;
  }
}

/** Connects the one engine client: the utility process in Electron, a Web Worker in a browser. */
export async function connectEngine(): Promise<EngineClient> {
  if (window.stratify?.isDesktop) return new EngineClient(messagePortPort(await window.stratify.connectEngine()));
  const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module' });
  return new EngineClient(workerPort(worker));
}
