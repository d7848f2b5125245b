import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inProcessPair } from '../../engine/runtime/port.ts';
import { EngineServer } from '../../engine/runtime/engine-server.ts';
import { EngineClient, EngineError } from '../../engine/runtime/engine-client.ts';
import { StartPool } from '../../engine/runtime/pool.ts';
import { spawnInProcess } from '../../engine/runtime/in-process.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import type { EngineProgress } from '../../engine/runtime/engine-protocol.ts';
import { dataPath } from '../../data/datasets.ts';

function engine() {
  const [a, b] = inProcessPair();
  const pool = new StartPool(spawnInProcess, 1);
  new EngineServer(b, () => pool);
  return { client: new EngineClient(a), pool };
}

test('the typed client opens a dataset, filters it, runs a sweep with progress and exports', async () => {
  const { client, pool } = engine();
  const bytes = readFileSync(dataPath('nancycats.gen'));
  const info = await client.call('openDataset', [[{ name: 'nancycats.gen', bytes }], {}]).result;
  assert.equal(info.summary.individuals, 237);
  assert.equal(info.summary.format, 'genepop');
  const filtered = await client.call('filterDataset', [info.datasetId, { maxIndividualMissing: 0.2 }]).result;
  assert.ok(filtered.removedIndividuals.length > 0);
  assert.equal(filtered.summary.individuals, 237 - filtered.removedIndividuals.length);
  const progress: EngineProgress[] = [];
  const sweep = await client.call(
    'runSweep',
    [
      {
        datasetId: info.datasetId,
        kValues: [2, 3],
        replicates: 1,
        starts: 3,
        policy: 'best',
        seed: 1,
        fit: DEFAULT_FIT,
      },
    ],
    (p) => progress.push(p),
  ).result;
  assert.equal(sweep.runs.length, 2);
  assert.equal(sweep.runs[1]!.Q.length, 237 * 3);
  assert.equal(progress.filter((p) => p.kind === 'run').length, 2);
  assert.equal(progress.filter((p) => p.kind === 'start').length, 6);
  const exported = await client.call('exportDataset', [info.datasetId, 'structure', [0, 1]]).result;
  assert.match(exported.text.split('\n')[0]!, /^fca8 fca23$/);
  // Puechmaille's estimators at the published threshold, at another one, and refused outside 0..1.
  assert.equal((await client.call('analyzeSweep', [sweep.sweepId]).result).puechmaille?.threshold, 0.5);
  assert.equal((await client.call('analyzeSweep', [sweep.sweepId, 0.2]).result).puechmaille?.threshold, 0.2);
  const table = await client.call('sweepTable', [sweep.sweepId, 1]).result;
  assert.match(table.text.split('\n')[1]!, /\t0\t0\t0\t0$/, 'at 1 no cluster holds more than all of a population');
  // Download all's fst-by-k.tsv is the same table at the same threshold.
  const files = await client.call('sweepFiles', [sweep.sweepId, 1]).result;
  assert.equal(files.find((f) => f.name === 'fst-by-k.tsv')?.text, table.text);
  await assert.rejects(client.call('sweepFiles', [sweep.sweepId, 2]).result, /membership threshold/);
  for (const bad of [1.5, -0.1, Number.NaN, '0.3'])
    await assert.rejects(
      client.call('analyzeSweep', [sweep.sweepId, bad as number]).result,
      /membership threshold: a number from 0 to 1/,
    );
  pool.close();
});

test('a malformed file comes back as an EngineError with file, line and column', async () => {
  const { client, pool } = engine();
  const bytes = new TextEncoder().encode('L1 L2\nind1 1 100 102 7 7\nind2 1 100 x 7 9\n');
  await assert.rejects(client.call('openDataset', [[{ name: 'bad.str', bytes }], {}]).result, (e: unknown) => {
    assert.ok(e instanceof EngineError);
    assert.equal(e.name, 'FormatError');
    assert.equal(e.file, 'bad.str');
    assert.equal(e.line, 3);
    assert.equal(e.column, 12);
    return true;
  });
  await assert.rejects(
    client.call('closeDataset', [1]).result.then(() => client.call('filterDataset', [99, {}]).result),
    /no dataset 99/,
  );
  pool.close();
});
