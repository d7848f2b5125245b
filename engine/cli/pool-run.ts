import { nodeStartPool } from '../node/worker-pool.ts';
import type { StartPool } from '../runtime/pool.ts';

/**
 * Runs `work` on a pool of `threads` worker threads with Ctrl-C as its cancel (the signal: the
 * work ends with what had finished), then closes the pool and lets Ctrl-C stop the process again.
 */
export async function withCancellablePool<T>(
  threads: number,
  work: (pool: StartPool, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const pool = nodeStartPool(threads);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    return await work(pool, controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
    pool.close();
  }
}
