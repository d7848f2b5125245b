// One range per sweep setting (choices.ts RUN_SETTINGS), checked before anything runs by the engine,
// the CLI and the app, with the setting and its range named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { RUN_SETTINGS, runSettingProblem } from '../../engine/util/choices.ts';
import { validateSweep } from '../../engine/model/sweep.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { inProcessPair } from '../../engine/runtime/port.ts';
import { EngineServer } from '../../engine/runtime/engine-server.ts';
import { EngineClient } from '../../engine/runtime/engine-client.ts';
import { StartPool } from '../../engine/runtime/pool.ts';
import { spawnInProcess } from '../../engine/runtime/in-process.ts';
import { setting } from '../../engine/cli/parse-args.ts';
import { dataPath } from '../../data/datasets.ts';

test('runSettingProblem: inside the range null; outside, the setting, the range and the value', () => {
  for (const [name, r] of Object.entries(RUN_SETTINGS) as [
    keyof typeof RUN_SETTINGS,
    (typeof RUN_SETTINGS)[keyof typeof RUN_SETTINGS],
  ][]) {
    assert.equal(runSettingProblem(name, r.min), null, `${name} min`);
    assert.equal(runSettingProblem(name, r.max), null, `${name} max`);
    for (const bad of [r.min / 2 - 1, r.max * 2 + 1, Number.NaN])
      assert.match(
        runSettingProblem(name, bad)!,
        new RegExp(`^${r.label.replace(/[()]/g, '.')} must be .* from ${r.min} to ${r.max}, got`),
      );
  }
  assert.match(runSettingProblem('starts', 2.5)!, /whole number/);
  assert.equal(
    runSettingProblem('threads', 3, 2, "this machine's cores"),
    "Threads must be a whole number from 1 to 2 (this machine's cores), got 3",
  );
  assert.equal(runSettingProblem('epsilon', 1e-4), null, 'ε = 0.0001 is allowed');
});

test('the engine refuses a sweep out of range before it runs; the CLI a flag, naming it', async () => {
  const base = { kValues: [2], replicates: 1, starts: 2, policy: 'best', seed: 1, fit: DEFAULT_FIT } as const;
  assert.throws(
    () => validateSweep({ ...base, fit: { ...DEFAULT_FIT, epsilon: 0 } }, 10),
    /^RangeError: sweep: ε .* got 0$/,
  );
  assert.throws(
    () => validateSweep({ ...base, fit: { ...DEFAULT_FIT, model: 'admixture', tolerance: 1e6 } }, 10),
    /sweep: Tolerance .* from 1e-12 to 1, got 1000000/,
  );
  assert.throws(() => validateSweep({ ...base, starts: 0 }, 10), /sweep: Starts must be a whole number/);
  assert.doesNotThrow(() => validateSweep(base, 10));
  assert.throws(() => setting('0', '--epsilon', 'epsilon'), /^Error: --epsilon: ε .* got "0"$/);
  assert.throws(
    () => setting('abc', '--threads', 'threads'),
    /--threads: Threads must be a whole number from 1 to 64, got "abc"/,
  );
  assert.equal(setting('0.0001', '--epsilon', 'epsilon'), 1e-4);

  // The engine caps threads at the cores its runtime reports.
  const [a, b] = inProcessPair();
  const pool = new StartPool(spawnInProcess, 1);
  new EngineServer(b, () => pool, { cores: 2 });
  const client = new EngineClient(a);
  const bytes = readFileSync(dataPath('nancycats.gen'));
  const info = await client.call('openDataset', [[{ name: 'nancycats.gen', bytes }], {}]).result;
  const sweep = { datasetId: info.datasetId, ...base };
  await assert.rejects(
    client.call('runSweep', [{ ...sweep, threads: 64 }]).result,
    /Threads must be a whole number from 1 to 2 \(this machine's cores\), got 64/,
  );
  const ok = await client.call('runSweep', [{ ...sweep, threads: 1 }]).result;
  assert.equal(ok.runs.length, 1);
  pool.close();
});
