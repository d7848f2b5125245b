// The time a sweep's starts will take, estimated before any start finishes (service/sweep-estimate.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { iterationsLeft, secondsLeft, SweepEstimate, type Observation } from '../../engine/service/sweep-estimate.ts';
import { runSweep, type SweepProgress } from '../../engine/service/cluster-sweep.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { nodeStartPool } from '../../engine/node/worker-pool.ts';
import { readDataset } from '../../engine/index.ts';
import { datasetFiles } from '../../engine/node/file-source.ts';
import { dataPath } from '../../data/datasets.ts';

/** A measure halving every iteration from 1, one iteration a second. */
const halving = (iteration: number): Observation => ({ iteration, change: 0.5 ** iteration, at: 1000 * iteration });

test('iterations left: a measure falling by ρ per iteration reaches the threshold after ln(threshold / c) / ln ρ more', () => {
  // 0.5^t ≤ 1e-4 first at t = 14 (log2 1e4 = 13.29): from iteration 6, 8 more.
  assert.equal(iterationsLeft(halving(4), halving(6), 1e-4, 1000), 8);
  assert.equal(iterationsLeft(halving(1), halving(6), 1e-4, 1000), 8, 'any two reports of the same rate');
  assert.equal(iterationsLeft(halving(4), halving(6), 1e-4, 10), 4, 'never past the iteration cap');
  assert.equal(iterationsLeft(halving(12), halving(14), 1e-4, 1000), 0, 'at the threshold');
  const rising = { iteration: 7, change: 0.1, at: 7000 };
  assert.equal(iterationsLeft(halving(6), rising, 1e-4, 1000), undefined, 'not falling: no estimate');
  assert.equal(iterationsLeft(halving(6), halving(6), 1e-4, 1000), undefined, 'one iteration: no rate');
  const first = { iteration: 1, change: Infinity, at: 1000 };
  assert.equal(iterationsLeft(first, halving(6), 1e-4, 1000), undefined, 'an infinite first measure gives no rate');
});

test('seconds left: the start at work finishes at its pace, starts not begun cost as much per unit of K', () => {
  const plan = {
    startsAtK: new Map([
      [2, 3],
      [4, 3],
    ]),
    threshold: 1e-4,
    maxIterations: 1000,
  };
  // One start at K = 2, reported at iterations 2, 4, 6, 8 (one a second): 14 iterations in all,
  // 6 s left; a whole start costs 14 s at K = 2, 7 s per unit of K.
  const running = new Map([['2/0/0', { K: 2, reports: [2, 4, 6, 8].map(halving) }]]);
  const begun = new Map([[2, 1]]);
  // 6 + 2 starts × 14 s at K = 2 + 3 starts × 28 s at K = 4.
  assert.equal(secondsLeft(plan, running, begun), 6 + 2 * 14 + 3 * 28);
  // Two starts at work share the rest: both at K = 2, same pace and progress.
  running.set('2/0/1', { K: 2, reports: [2, 4, 6, 8].map(halving) });
  begun.set(2, 2);
  assert.equal(secondsLeft(plan, running, begun), (6 + 6 + 1 * 14 + 3 * 28) / 2);
  // A start whose measure is not yet falling leaves the sweep without an estimate.
  running.set('4/0/0', { K: 4, reports: [halving(1), { iteration: 2, change: 0.9, at: 2000 }] });
  assert.equal(
    secondsLeft(
      plan,
      running,
      new Map([
        [2, 2],
        [4, 1],
      ]),
    ),
    undefined,
  );
  // After a start finishes, the estimator gives no more.
  const e = new SweepEstimate(plan);
  assert.equal(e.iteration(2, 'a', 2, 0.25, 2000), undefined, 'one report');
  assert.ok(e.iteration(2, 'a', 4, 0.0625, 4000)! > 0);
  e.startDone();
  assert.equal(e.iteration(2, 'a', 6, 0.015625, 6000), undefined);
});

test('a sweep reports estimates while its first starts run, none after the first start finishes', async () => {
  // eHGDP under the admixture model: a start takes seconds, so its iterations are reported (every 200 ms).
  const data = await readDataset(datasetFiles(dataPath('eHGDP.str.gz')), {});
  const events: SweepProgress[] = [];
  const pool = nodeStartPool(1);
  try {
    await runSweep(
      data,
      {
        kValues: [3, 4],
        replicates: 1,
        starts: 1,
        seed: 3,
        policy: 'best',
        fit: { ...DEFAULT_FIT, model: 'admixture', algorithm: 'em' },
      },
      pool,
      (p) => events.push(p),
    );
  } finally {
    pool.close();
  }
  const firstStart = events.findIndex((p) => p.kind === 'start');
  const estimates = events.flatMap((p, k) => (p.kind === 'estimate' ? [{ k, seconds: p.seconds }] : []));
  assert.ok(firstStart > 0);
  assert.ok(estimates.length > 0, 'an estimate before the first start finished');
  assert.ok(
    estimates.every((e) => e.k < firstStart),
    'estimates only before the first start finishes',
  );
  assert.ok(estimates.every((e) => Number.isFinite(e.seconds) && e.seconds >= 0));
  // Iteration reports carry the fit's measure (ln L change for the admixture model).
  assert.ok(events.some((p) => p.kind === 'iteration' && p.change > 0 && Number.isFinite(p.change)));
});
