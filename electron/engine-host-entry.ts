// Entry of the engine utility process: every window port gets an EngineServer; clustering
// starts run on worker threads.
import { EngineServer } from '../engine/runtime/engine-server.ts';
import { nodeStartPool } from '../engine/node/worker-pool.ts';
import type { StartPool } from '../engine/runtime/pool.ts';

interface ParentPort {
  on(event: 'message', handler: (e: { data: unknown; ports: MessagePortLike[] }) => void): void;
}
interface MessagePortLike {
  on(event: 'message', handler: (e: { data: unknown }) => void): void;
  off(event: 'message', handler: (e: { data: unknown }) => void): void;
  postMessage(message: unknown, transfer?: unknown[]): void;
  start(): void;
  close(): void;
}

const parentPort = (process as unknown as { parentPort: ParentPort }).parentPort;
let pool: StartPool | undefined;

parentPort.on('message', (e) => {
  const port = e.ports[0];
  if (!port) return;
  port.start();
  new EngineServer(
    {
      postMessage: (m) => port.postMessage(m),
      onMessage: (h) => {
        const l = (ev: { data: unknown }) => h(ev.data);
        port.on('message', l);
        return () => port.off('message', l);
      },
      close: () => port.close(),
    },
    (threads?: number) => {
      if (pool && threads !== undefined && pool.size !== threads) {
        pool.close();
        pool = undefined;
      }
      return (pool ??= nodeStartPool(threads));
    },
  );
});
