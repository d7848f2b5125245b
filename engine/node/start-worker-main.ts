import { parentPort } from 'node:worker_threads';
import { serveStarts } from '../runtime/start-server.ts';
import { registerKernelHelpers } from './kernel-helper.ts';

if (!parentPort) throw new Error('start-worker-main must run in a worker thread');
const port = parentPort;
registerKernelHelpers();
serveStarts({
  postMessage: (m, transfer) => port.postMessage(m, (transfer ?? []) as never[]),
  onMessage: (h) => {
    port.on('message', h);
    return () => port.off('message', h);
  },
  close: () => port.close(),
});
