import { test } from 'node:test';
import { structuredMemberships } from '../../engine/analysis/structured-start.ts';
import assert from 'node:assert/strict';
import { runSweep } from '../../engine/service/cluster-sweep.ts';
import { type SweepOptions } from '../../engine/model/sweep.ts';
import { runSweepPiece } from '../../engine/service/sweep-pieces.ts';
import { StartPool } from '../../engine/runtime/pool.ts';
import { spawnInProcess } from '../../engine/runtime/in-process.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { CLUSTER_DEFAULTS } from '../../engine/util/choices.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { runStart, startSeed } from '../../engine/model/start.ts';
import { keptStarts, keptTasks, screenPlan, screens } from '../../engine/model/screening.ts';
import { validateSweep } from '../../engine/model/sweep.ts';
import { admixedData, selectiveNaiveBayesData } from './synthetic.ts';

test('a screened multi-start runs a fraction of its starts to convergence, never fewer than 5', () => {
  assert.equal(keptStarts(100, 0.2), 20);
  assert.equal(keptStarts(101, 0.2), 21);
  assert.equal(keptStarts(20, 0.2), 5);
  assert.equal(keptStarts(3, 0.2), 3);
  assert.equal(keptStarts(10, 1), 10);
});

test('the kept tasks are the best-screened of each (K, replicate), lower index first among equals, in task order', () => {
  const tasks = [3, 4].flatMap((K) =>
    [0, 1].flatMap((replicate) => Array.from({ length: 7 }, (_, index) => ({ K, replicate, index, seed: index }))),
  );
  // Per group of 7: scores chosen so that the top 5 are known; NaN ranks last, a tie goes to the lower index.
  const group = [-5, -1, NaN, -3, -1, -9, -2];
  const kept = keptTasks(
    tasks,
    tasks.map((t) => group[t.index]!),
    5,
  );
  assert.equal(kept.length, 4 * 5);
  for (const K of [3, 4])
    for (const replicate of [0, 1])
      assert.deepEqual(
        kept.filter((t) => t.K === K && t.replicate === replicate).map((t) => t.index),
        [0, 1, 3, 4, 6],
      );
  // Index 5 (−9) is out; among the rest only NaN (index 2) is lower.
});

const { data } = selectiveNaiveBayesData(4, { N: 150, n: 12, relevant: 6, r: 3, K: 3, P: 2 });
const base: SweepOptions = { kValues: [2, 3], replicates: 1, starts: 12, policy: 'best', seed: 7, fit: DEFAULT_FIT };

test('a screened sweep runs exactly the starts whose short EM runs reached the highest ln L, as a full sweep runs them', async () => {
  const screen = { iterations: 2, keep: 0.25 };
  const pool = new StartPool(spawnInProcess, 2);
  let screeningRuns = 0;
  let perRun = 0;
  const screened = await runSweep(data, { ...base, screen }, pool, (p) => {
    if (p.kind === 'start') {
      if (p.screening) screeningRuns++;
      perRun = p.perRun;
    }
  });
  const full = await runSweep(data, base, pool);
  pool.close();
  assert.equal(screeningRuns, 2 * 12);
  assert.equal(perRun, 12 + 5);
  const md = buildPreparedData(data);
  for (const K of [2, 3]) {
    // Independently: each start's EM after 2 iterations, ranked.
    const shortLogLiks = Array.from(
      { length: 12 },
      (_, i) =>
        runStart(
          md,
          K,
          { ...DEFAULT_FIT, algorithm: 'em', maxIterations: 2 },
          i,
          startSeed(base.seed, K, 0, i),
          i === 0 ? structuredMemberships(md, [K]).get(K) : undefined,
        ).logLik,
    );
    const expected = [...shortLogLiks.keys()].sort((a, b) => shortLogLiks[b]! - shortLogLiks[a]! || a - b).slice(0, 5);
    const run = screened.runs.find((r) => r.K === K)!;
    const fullRun = full.runs.find((r) => r.K === K)!;
    assert.equal(run.completedStarts, 5);
    const indexes = [...new Set(run.clustering.starts.map((s) => s.index))].sort((a, b) => a - b);
    assert.deepEqual(
      indexes,
      expected.sort((a, b) => a - b),
    );
    // A kept start is the very start of the full sweep (same seed, same fit); auto's EMA fit
    // continues the best kept one.
    const kept = run.clustering.starts.filter((s) => s.algorithm !== 'ema');
    const ema = run.clustering.starts.filter((s) => s.algorithm === 'ema');
    const bestKept = kept.reduce((b, s) => (s.logLik > b.logLik ? s : b));
    assert.deepEqual(
      ema.map((s) => s.index),
      base.fit.algorithm === 'auto' ? [bestKept.index] : [],
    );
    for (const s of kept) {
      const same = fullRun.clustering.starts.find((f) => f.index === s.index && f.algorithm === s.algorithm)!;
      assert.equal(s.logLik, same.logLik);
      assert.equal(s.iterations, same.iterations);
    }
    assert.ok(run.clustering.logLik <= fullRun.clustering.logLik);
  }
});

test('mixture screening applies to EM, EMA and auto under best choice when asked, and a range of starts cannot be screened', async () => {
  const screen = { iterations: 3, keep: 0.2 };
  assert.equal(screens({ ...base, screen }), true);
  assert.equal(screens({ ...base, screen: { iterations: 0, keep: 0.2 } }), false);
  assert.equal(screens({ ...base, screen, policy: 'weighted' }), false);
  assert.equal(screens({ ...base, screen, fit: { ...DEFAULT_FIT, algorithm: 'ema-tan' } }), false);
  assert.equal(screens({ ...base, screen, starts: 5 }), false);
  assert.throws(() => validateSweep({ ...base, screen: { iterations: 3, keep: 0 } }, 150), /kept after screening/);
  assert.throws(() => validateSweep({ ...base, screen: { iterations: 1.5, keep: 0.2 } }, 150), /screening iterations/);
  const pool = new StartPool(spawnInProcess, 1);
  await assert.rejects(
    runSweepPiece(data, { ...base, screen }, { K: 2, replicate: 0, from: 0, to: 6 }, {}, pool),
    /--screen 0/,
  );
  pool.close();
});

const admixture: SweepOptions = {
  ...base,
  kValues: [2, 3],
  starts: 6,
  fit: { ...DEFAULT_FIT, model: 'admixture' },
};

test('the admixture model screens when given a screening tolerance, under best choice, by its own flags', () => {
  const on = { iterations: 0, keep: 0.2, tolerance: 5, starts: 2 };
  const plan = screenPlan({ ...admixture, screen: on })!;
  assert.ok(plan);
  assert.equal(plan.fit.tolerance, 5);
  assert.equal(plan.fit.model, 'admixture');
  assert.equal(plan.kept, 2);
  // The defaults decide when the flags are absent (off: docs/admixture-screening.md found no safe rule).
  assert.equal(screens(admixture), CLUSTER_DEFAULTS.admixtureScreenTolerance > 0);
  // The mixture model's screening flags neither turn it on nor off.
  assert.ok(screens({ ...admixture, screen: { ...on, iterations: 0 } }));
  assert.equal(screens({ ...admixture, screen: { iterations: 5, keep: 0.2 } }), screens(admixture));
  assert.equal(screens({ ...admixture, screen: { ...on, tolerance: 0 } }), false);
  // No looser than the fit's own tolerance: nothing to screen.
  assert.equal(screens({ ...admixture, screen: { ...on, tolerance: 1e-4 } }), false);
  assert.equal(screens({ ...admixture, screen: { ...on, starts: 6 } }), false);
  assert.equal(screens({ ...admixture, screen: on, policy: 'weighted' }), false);
  assert.throws(() => validateSweep({ ...admixture, screen: { ...on, tolerance: -1 } }, 150), /tolerance/);
  assert.throws(() => validateSweep({ ...admixture, screen: { ...on, starts: 0 } }, 150), /run on/);
});

test('a screened admixture sweep runs on exactly the starts most likely at the screening tolerance, as a full sweep runs them', async () => {
  const { data: admixed } = admixedData(5, { N: 60, L: 300, K: 3, alpha: 0.5, fst: 0.1 });
  const screen = { iterations: 0, keep: 0.2, tolerance: 5, starts: 2 };
  const pool = new StartPool(spawnInProcess, 2);
  let screeningRuns = 0;
  const screened = await runSweep(admixed, { ...admixture, screen }, pool, (p) => {
    if (p.kind === 'start' && p.screening) screeningRuns++;
  });
  const full = await runSweep(admixed, { ...admixture, screen: { ...screen, tolerance: 0 } }, pool);
  pool.close();
  assert.equal(screeningRuns, 2 * 6);
  const md = buildPreparedData(admixed);
  for (const K of [2, 3]) {
    // Independently: each start fitted to the screening tolerance, ranked.
    const loose = Array.from(
      { length: 6 },
      (_, i) => runStart(md, K, { ...admixture.fit, tolerance: 5 }, i, startSeed(base.seed, K, 0, i)).logLik,
    );
    const expected = [...loose.keys()].sort((a, b) => loose[b]! - loose[a]! || a - b).slice(0, 2);
    const run = screened.runs.find((r) => r.K === K)!;
    const fullRun = full.runs.find((r) => r.K === K)!;
    assert.equal(fullRun.completedStarts, 6);
    assert.deepEqual(
      run.clustering.starts.map((s) => s.index).sort((a, b) => a - b),
      expected.sort((a, b) => a - b),
    );
    for (const s of run.clustering.starts) {
      const same = fullRun.clustering.starts.find((f) => f.index === s.index)!;
      assert.equal(s.logLik, same.logLik);
      assert.equal(s.iterations, same.iterations);
      // Run on to the fit's tolerance: at least as likely as where the screening stopped it.
      assert.ok(s.logLik >= loose[s.index]!);
    }
    assert.ok(run.clustering.logLik <= fullRun.clustering.logLik);
  }
});
