// Entry of the engine utility process (electron/engine-host-serve.ts has its logic); clustering
// starts run on worker threads, one pool shared by the windows and rebuilt for another size.
import { availableParallelism } from 'node:os';
import { nodeStartPool } from '../engine/node/worker-pool.ts';
import type { StartPool } from '../engine/runtime/pool.ts';
import { serveEngineHost, type ParentPortLike } from './engine-host-serve.ts';

const parentPort = (process as unknown as { parentPort: ParentPortLike }).parentPort;
let pool: StartPool | undefined;
serveEngineHost(
  parentPort,
  (threads?: number) => {
    if (pool && threads !== undefined && pool.size !== threads) {
      pool.close();
      pool = undefined;
    }
    return (pool ??= nodeStartPool(threads));
  },
  availableParallelism(),
);
