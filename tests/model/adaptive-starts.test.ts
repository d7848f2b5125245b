// Adaptive starts (model/start-rule.ts, service/sweep-starts.ts): rounds of starts until the two
// best agree. The rule is checked against a hand-worked sequence; the sweep against the starts
// run one by one from their seeds (the independent reference), on 1 and 3 threads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSweep } from '../../engine/service/cluster-sweep.ts';
import { type SweepOptions, type SweepRun } from '../../engine/model/sweep.ts';
import { StartPool } from '../../engine/runtime/pool.ts';
import type { StartRunner } from '../../engine/service/start-runner.ts';
import { spawnInProcess } from '../../engine/runtime/in-process.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { runStart, startSeed } from '../../engine/model/start.ts';
import { agreedStop, bestFoundTwice } from '../../engine/model/start-rule.ts';
import { validateSweep } from '../../engine/model/sweep.ts';
import { admixedData } from './synthetic.ts';

test('the rule: stop after the first round in which the two best agree, or at the cap', () => {
  assert.equal(bestFoundTwice([-10, -5.05, -5], 0.1), true);
  assert.equal(bestFoundTwice([-10, -5.2, -5], 0.1), false);
  assert.equal(bestFoundTwice([-5], 0.1), false, 'one start is not found twice');
  const rule = { round: 2, cap: 8, agree: 0.1 };
  // Rounds end after 2, 4, 6 starts: at 4 the two best are -5 and -5.3 (no), at 6 -5 and -5.02 (yes).
  assert.equal(agreedStop([-9, -5, -7, -5.3, -5.02, -8, -5, -5], rule), 6);
  assert.equal(agreedStop([-5, -5, -9], rule), 2);
  assert.equal(agreedStop([-1, -2, -3, -4, -5, -6, -7, -8, -9, -10], rule), 8, 'the cap');
  assert.equal(agreedStop([-1, -2, -3], rule), 3, 'fewer starts than the cap');
});

test('an adaptive sweep runs the starts the rule names, with the same result on 1 and 3 threads', async () => {
  const { data } = admixedData(5, { N: 80, L: 300, K: 3, alpha: 0.5, fst: 0.1 });
  const fit = { ...DEFAULT_FIT, model: 'admixture' as const };
  const o: SweepOptions = {
    kValues: [2, 3, 4],
    replicates: 1,
    starts: 9,
    policy: 'best',
    seed: 3,
    fit,
    adaptive: { round: 2, agree: 0.1 },
  };
  const md = buildPreparedData(data);
  const byThreads: (readonly SweepRun[])[] = [];
  for (const threads of [1, 3]) {
    const pool = new StartPool(spawnInProcess, threads);
    // Every K's rounds go to the runner in one call: a K's next round joins the queue as soon as
    // its own round is in, not when every K's round is (no barrier between rounds).
    let calls = 0;
    const runner: StartRunner = {
      run: (...args) => {
        calls++;
        return pool.run(...args);
      },
    };
    const done: number[] = [];
    const result = await runSweep(data, o, runner, (p) => {
      if (p.kind === 'run') done.push(p.run.K);
    });
    pool.close();
    assert.equal(calls, 1);
    assert.deepEqual(done.sort(), [2, 3, 4], 'each K reported once as its run ends');
    byThreads.push(result.runs);
  }
  for (const K of o.kValues) {
    // Independently: the starts one by one from their seeds, and where the rule stops on them.
    const logLiks = Array.from({ length: 9 }, (_, i) => runStart(md, K, fit, i, startSeed(o.seed, K, 0, i)).logLik);
    const n = agreedStop(logLiks, { round: 2, cap: 9, agree: 0.1 });
    for (const runs of byThreads) {
      const run = runs.find((r) => r.K === K)!;
      assert.equal(run.completedStarts, n, `K = ${K}: ${n} starts`);
      assert.equal(run.clustering.logLik, Math.max(...logLiks.slice(0, n)));
    }
    assert.deepEqual(
      byThreads[0]!.find((r) => r.K === K)!.clustering.Q,
      byThreads[1]!.find((r) => r.K === K)!.clustering.Q,
    );
  }
  assert.throws(() => validateSweep({ ...o, adaptive: { round: 1, agree: 0.1 } }, 80), /rounds of at least 2/);
  assert.throws(() => validateSweep({ ...o, policy: 'uniform' }, 80), /policy best/);
});
