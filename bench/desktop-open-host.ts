// The engine utility process's logic (electron/engine-host-serve.ts) in a child Node process for
// bench/desktop-open.ts: process IPC stands in for Electron's parentPort and the window's
// MessagePort (ports cannot cross process IPC, so port messages are tagged instead).
import { serveEngineHost, type MessagePortMainLike, type ParentPortLike } from '../electron/engine-host-serve.ts';
import { nodeStartPool } from '../engine/node/worker-pool.ts';

type Envelope = { readonly to: 'host' | 'port'; readonly data: unknown };
const send = (m: Envelope) => process.send!(m);
const portHandlers = new Set<(e: { data: unknown }) => void>();
const port: MessagePortMainLike = {
  on: (_e, h) => portHandlers.add(h),
  off: (_e, h) => portHandlers.delete(h),
  postMessage: (data) => send({ to: 'port', data }),
  start: () => undefined,
  close: () => undefined,
};
const hostHandlers = new Set<(e: { data: unknown; ports: MessagePortMainLike[] }) => void>();
const parentPort: ParentPortLike = {
  on: (_e, h) => hostHandlers.add(h),
  postMessage: (data) => send({ to: 'host', data }),
};
process.on('message', (m: Envelope) => {
  if (m.to === 'port') for (const h of portHandlers) h({ data: m.data });
  else for (const h of hostHandlers) h({ data: m.data, ports: [port] });
});
serveEngineHost(parentPort, (threads) => nodeStartPool(threads));
