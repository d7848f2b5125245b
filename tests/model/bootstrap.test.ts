// Bootstrap standard errors of Q (ADMIXTURE's -B), checked against the truth of simulated data:
// 95 % intervals cover the true proportions about 95 % of the time, and the standard errors are
// the size of the estimate's actual errors; markers with positions are resampled in blocks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admixtureWork } from '../../engine/model/admixture/admixture.ts';
import { admixtureFitSteps } from '../../engine/model/admixture/admixture-fit.ts';
import { admixtureFitOptions } from '../../engine/model/admixture/admixture-start.ts';
import { resampleMarkers } from '../../engine/model/admixture/bootstrap.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { runToEnd } from '../../engine/model/mixture/fit.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import type { SweepRun } from '../../engine/model/sweep.ts';
import { bootstrapAncestry, bootstrapAncestryOn } from '../../engine/service/bootstrap.ts';
import { nodeStartPool } from '../../engine/node/worker-pool.ts';
import { createRng } from '../../engine/util/rng.ts';
import { admixedData } from './synthetic.ts';

test("bootstrap intervals of Q cover the true ancestry at their level, and the errors match the estimate's (K = 2, 2,000 SNPs)", async () => {
  // Pure individuals anchor the clusters: without them the admixture model is identifiable only
  // up to a stretch of the simplex, and the estimate's error is that stretch, not sampling.
  const K = 2;
  const sim = admixedData(3, { N: 120, L: 2000, K, alpha: 1, fst: 0.15, references: 20 });
  const { data } = sim;
  const md = buildPreparedData(data);
  const fit = { ...DEFAULT_FIT, model: 'admixture' as const };
  const ml = runToEnd(
    admixtureFitSteps(
      md,
      admixtureWork(md),
      { K, Q: Float64Array.from(sim.Q), F: Float64Array.from(sim.F) },
      admixtureFitOptions(fit),
    ),
  );
  const { Q, F } = ml.params;
  const run = {
    K,
    replicate: 0,
    completedStarts: 1,
    model: 'admixture',
    clustering: {
      K,
      policy: 'best',
      model: { K, weights: new Float64Array(K), theta: F },
      Q,
      logLik: ml.logLik,
      bestStart: 0,
      starts: [],
    },
  } as unknown as SweepRun;
  const boot = bootstrapAncestry(data, run, 30, 9, fit);
  assert.equal(boot.blocks, undefined, 'no positions: single markers');
  let covered = 0;
  let n = 0;
  let err = 0;
  let se = 0;
  for (let i = 20; i < data.individuals.length; i++) {
    const x = i * K;
    const truth = sim.Q[x]!;
    if (truth < 0.05 || truth > 0.95) continue; // percentile intervals do not reach a boundary
    n++;
    if (boot.lower[x]! <= truth && truth <= boot.upper[x]!) covered++;
    err += (Q[x]! - truth) ** 2;
    se += boot.se[x]! ** 2;
    assert.ok(boot.lower[x]! <= Q[x]! + 1e-9 && Q[x]! - 1e-9 <= boot.upper[x]!, 'the interval holds the estimate');
  }
  assert.ok(n > 60, `${n} interior individuals`);
  const coverage = covered / n;
  assert.ok(coverage >= 0.85 && coverage <= 0.99, `95 % intervals cover ${coverage}`);
  const ratio = Math.sqrt(se / n) / Math.sqrt(err / n);
  assert.ok(ratio > 0.7 && ratio < 1.4, `bootstrap standard error / actual error ${ratio}`);
  // Same seed, same replicates — in this thread and on a pool of worker threads.
  const here = bootstrapAncestry(data, run, 3, 9, fit);
  assert.deepEqual(here.se, bootstrapAncestry(data, run, 3, 9, fit).se);
  const pool = nodeStartPool(2);
  try {
    let reported = 0;
    const there = await bootstrapAncestryOn(pool, data, run, 3, 9, fit, undefined, (done) => (reported = done));
    assert.ok(there, 'not cancelled');
    assert.equal(reported, 3);
    assert.deepEqual([there.se, there.lower, there.upper], [here.se, here.lower, here.upper]);
  } finally {
    pool.close();
  }
});

test('markers with positions are resampled in windows of consecutive markers, within chromosomes', () => {
  const sim = admixedData(4, { N: 10, L: 1000, K: 2, alpha: 1, fst: 0.1 });
  const data = {
    ...sim.data,
    loci: sim.data.loci.map((l, k) => ({ ...l, chrom: k < 500 ? '1' : '2', pos: 100 * (k % 500) + 1 })),
  };
  const { loci, blocks } = resampleMarkers(data, createRng(1));
  assert.equal(blocks, 1000 / 10); // ⌈1000^(1/3)⌉ = 10 markers a window, 50 per chromosome
  assert.equal(loci.length, 1000);
  // Runs of 10 consecutive markers starting at a window's first marker.
  for (let j = 0; j < 1000; j += 10) {
    assert.equal(loci[j]! % 10, 0, `draw ${j / 10} starts mid-window at ${loci[j]}`);
    for (let t = 1; t < 10; t++) assert.equal(loci[j + t], loci[j]! + t);
  }
});
