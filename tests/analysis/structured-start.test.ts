import { test } from 'node:test';
import assert from 'node:assert/strict';
import { structuredMemberships } from '../../engine/analysis/structured-start.ts';
import { adjustedRandIndex, hardAssignments } from '../../engine/analysis/partition-scores.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { runToEnd } from '../../engine/model/mixture/fit.ts';
import { startSeed, startSteps } from '../../engine/model/start.ts';
import { sweepTasks, validateSweep, wantsStructuredStart } from '../../engine/model/sweep.ts';
import { multiAllelicPopulations } from '../model/synthetic.ts';

// Four populations of 40, 60 microsatellites, F_ST 0.05: clear structure, which PCA → Ward → k-means
// should recover from the genotypes alone (the labels come from the simulation).
const sim = multiAllelicPopulations(5, { pops: 4, perPop: 40, loci: 60, minAlleles: 4, maxAlleles: 10, fst: 0.05 });
const md = buildPreparedData(sim.data);

test('the structured clustering recovers simulated populations at the true K, and gives a clustering at every K asked', () => {
  const cuts = structuredMemberships(md, [1, 2, 4, 6, 500]);
  assert.deepEqual(
    [...cuts.keys()].sort((a, b) => a - b),
    [2, 4, 6],
    'K of 1 or above the individuals is left out',
  );
  assert.ok(adjustedRandIndex(Array.from(cuts.get(4)!), sim.labels) > 0.95);
  for (const [K, labels] of cuts) {
    assert.equal(labels.length, md.N);
    assert.equal(new Set(labels).size, K, `K = ${K}: every cluster holds someone`);
  }
  // Deterministic: the same clustering on every call.
  assert.deepEqual(structuredMemberships(md, [4]).get(4), cuts.get(4));
});

test('a start from memberships begins where they say, for the mixture and the admixture model', () => {
  const truth = Int32Array.from(sim.labels);
  // After one step: from the memberships the clusters are the populations already; from random
  // parameters (the same seed, no memberships) they are not yet.
  for (const model of ['mixture', 'admixture'] as const) {
    const opts = { ...DEFAULT_FIT, model, algorithm: 'em' as const, maxIterations: 1 };
    const ari = (memberships?: Int32Array) =>
      adjustedRandIndex(
        hardAssignments(runToEnd(startSteps(md, 4, opts, 0, startSeed(1, 4, 0, 0), memberships)).posterior, md.N, 4),
        sim.labels,
      );
    assert.ok(ari(truth) > 0.95, model);
    assert.ok(ari() < 0.9, `${model}: one step from random parameters`);
  }
  assert.throws(
    () => runToEnd(startSteps(md, 2, DEFAULT_FIT, 0, 1, Int32Array.from(sim.labels))),
    /cluster 2 is not in 0\.\.1/,
  );
});

test('the first start of each multi-start carries the structured memberships; the others start at random', () => {
  const structured = structuredMemberships(md, [2, 3]);
  const tasks = sweepTasks(
    { kValues: [2, 3], replicates: 2, starts: 3, policy: 'best', seed: 1, fit: DEFAULT_FIT },
    structured,
  );
  for (const t of tasks) {
    if (t.index === 0) assert.equal(t.memberships, structured.get(t.K));
    else assert.equal(t.memberships, undefined);
  }
});

test('a mixture sweep has the structured start unless turned off or EMA-TAN; supervised fits never; a non-boolean is refused', () => {
  const o = { kValues: [2], replicates: 1, starts: 3, policy: 'best' as const, seed: 1, fit: DEFAULT_FIT };
  assert.equal(wantsStructuredStart(o), true);
  assert.equal(wantsStructuredStart({ ...o, structuredStart: false }), false);
  // The admixture model's default is off; asked for, it has one.
  const admixture = { ...o, fit: { ...DEFAULT_FIT, model: 'admixture' as const } };
  assert.equal(wantsStructuredStart(admixture), false);
  assert.equal(wantsStructuredStart({ ...admixture, structuredStart: true }), true);
  assert.equal(wantsStructuredStart({ ...o, fit: { ...DEFAULT_FIT, algorithm: 'ema-tan' } }), false);
  assert.equal(wantsStructuredStart({ ...o, fit: { ...DEFAULT_FIT, model: 'admixture', supervised: [0, 1] } }), false);
  assert.throws(
    () => validateSweep({ ...o, structuredStart: 'yes' as unknown as boolean }, 10),
    /structuredStart is true or false/,
  );
});
