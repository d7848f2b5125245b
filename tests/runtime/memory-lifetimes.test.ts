// What the engine holds over a session: a filter change replaces the previous filtered dataset,
// closing a dataset frees its sweeps, workers drop a run's dataset when it ends, and a window that
// reconnects (a reload) replaces its server. Counts, then resident memory over 20 filter changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inProcessPair, type Port } from '../../engine/runtime/port.ts';
import { EngineClient } from '../../engine/runtime/engine-client.ts';
import { StartPool } from '../../engine/runtime/pool.ts';
import { spawnInProcess } from '../../engine/runtime/in-process.ts';
import { ServerRegistry } from '../../engine/runtime/server-registry.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import type { FromStartWorker } from '../../engine/runtime/start-protocol.ts';
import { dataPath } from '../../data/datasets.ts';

/** How many datasets a start worker holds. */
function held(port: Port): Promise<number> {
  return new Promise((resolve) => {
    const off = port.onMessage((m) => {
      const msg = m as FromStartWorker;
      if (msg.op === 'held') {
        off();
        resolve(msg.datasets);
      }
    });
    port.postMessage({ op: 'held' });
  });
}

test('memory lifetimes: filters, closed datasets, finished runs and reloads free what they held', async () => {
  const workers: Port[] = [];
  const pool = new StartPool(() => {
    const p = spawnInProcess();
    workers.push(p);
    return p;
  }, 2);
  const registry = new ServerRegistry(() => pool);
  const connect = () => {
    const [a, b] = inProcessPair();
    registry.connect(7, b);
    return new EngineClient(a);
  };
  let client = connect();
  const bytes = readFileSync(dataPath('nancycats.gen'));
  const info = await client.call('openDataset', [[{ name: 'nancycats.gen', bytes }], {}]).result;

  // 20 filter changes as the app makes them: each new filtered dataset replaces the previous one.
  let previous: number | undefined;
  const rss: number[] = [];
  for (let k = 0; k < 20; k++) {
    const f = await client.call('filterDataset', [info.datasetId, { maxIndividualMissing: 0.05 + 0.01 * k }]).result;
    if (previous !== undefined) await client.call('closeDataset', [previous]).result;
    previous = f.datasetId;
    await client.call('runSweep', [
      { datasetId: f.datasetId, kValues: [2], replicates: 1, starts: 2, policy: 'best', seed: k, fit: DEFAULT_FIT },
    ]).result;
    (globalThis as { gc?: () => void }).gc?.();
    rss.push(process.memoryUsage().rss);
  }
  assert.deepEqual(await client.call('held', []).result, { datasets: 2, sweeps: 1 }, 'the file and its last filter');
  for (const w of workers) assert.equal(await held(w), 0, 'workers dropped every finished run');
  await client.call('closeDataset', [previous!]).result;
  assert.deepEqual(await client.call('held', []).result, { datasets: 1, sweeps: 0 }, 'closing frees its sweeps');
  // Resident memory: the last ten filter changes add less than 64 MB over the first ten.
  const early = Math.max(...rss.slice(0, 10));
  const late = Math.max(...rss.slice(10));
  assert.ok(late - early < 64 * 1024 ** 2, `rss ${early} → ${late}`);

  // A reload: the window connects again; the old server and its dataset are gone.
  client = connect();
  assert.equal(registry.size, 1);
  assert.deepEqual(await client.call('held', []).result, { datasets: 0, sweeps: 0 });
  pool.close();
});
