// Entry of the engine utility process: every window port gets an EngineServer; clustering
// starts run on worker threads.
import { ServerRegistry } from '../engine/runtime/server-registry.ts';
import { nodeStartPool } from '../engine/node/worker-pool.ts';
import type { StartPool } from '../engine/runtime/pool.ts';

interface ParentPort {
  on(event: 'message', handler: (e: { data: { window?: unknown }; ports: MessagePortLike[] }) => void): void;
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
const servers = new ServerRegistry((threads?: number) => {
  if (pool && threads !== undefined && pool.size !== threads) {
    pool.close();
    pool = undefined;
  }
  return (pool ??= nodeStartPool(threads));
});

parentPort.on('message', (e) => {
  const port = e.ports[0];
  if (!port) return;
  port.start();
  // A window that connects again (a reload) replaces its old server and what it held.
  servers.connect(typeof e.data.window === 'number' ? e.data.window : -1, {
    postMessage: (m) => port.postMessage(m),
    onMessage: (h) => {
      const l = (ev: { data: unknown }) => h(ev.data);
      port.on('message', l);
      return () => port.off('message', l);
    },
    close: () => port.close(),
  });
});
