// The admixture model's subset stage: the subset's prepared data against an independent
// construction, the carried F against Q-weighted allele frequencies counted from the calls, and a
// start through the stage against the same start fitted on all loci directly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subsetData } from '../../engine/data/genotype-data.ts';
import { buildPreparedData, locusSubset } from '../../engine/model/prepared/prepared-data.ts';
import { admixtureLogLik, admixtureWork } from '../../engine/model/admixture/admixture.ts';
import { admixtureFitSteps } from '../../engine/model/admixture/admixture-fit.ts';
import { admixtureFitOptions, randomAdmixture } from '../../engine/model/admixture/admixture-start.ts';
import { SUBSET_MIN_LOCI, SUBSET_STRIDE, subsetLoci, subsetStage } from '../../engine/model/admixture/subset-stage.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { runSweep } from '../../engine/service/cluster-sweep.ts';
import { nodeStartPool } from '../../engine/node/worker-pool.ts';
import { runStart, startSeed, startSteps } from '../../engine/model/start.ts';
import { iterationStage } from '../../engine/util/choices.ts';
import { createRng } from '../../engine/util/rng.ts';
import { admixedData } from './synthetic.ts';

test('subset stage: every eighth locus, where that makes at least 1,000 loci', () => {
  assert.equal(subsetLoci(SUBSET_STRIDE * SUBSET_MIN_LOCI - 8), undefined);
  const loci = subsetLoci(SUBSET_STRIDE * SUBSET_MIN_LOCI - 7)!;
  assert.equal(loci.length, SUBSET_MIN_LOCI);
  assert.deepEqual(loci.slice(0, 3), [0, 8, 16]);
  assert.equal(loci.at(-1), 7992);
});

test('locusSubset: the same ln L as the subset prepared from the calls (multi-allelic, triploid, missing copies)', () => {
  const { data } = admixedData(3, { N: 30, L: 40, K: 3, alpha: 0.5, fst: 0.1, alleles: 5, ploidy: 3 });
  const calls = data.calls;
  for (let j = 0; j < calls.length; j += 7) calls[j] = -1;
  const md = buildPreparedData(data);
  const loci = [1, 4, 5, 17, 39];
  const sub = locusSubset(md, loci);
  const direct = buildPreparedData(
    subsetData(
      data,
      loci,
      Array.from({ length: 30 }, (_, i) => i),
    ),
  );
  assert.deepEqual(sub.offsets, direct.offsets);
  const params = randomAdmixture(direct, 3, createRng(2));
  const a = admixtureLogLik(sub, admixtureWork(sub), params);
  const b = admixtureLogLik(direct, admixtureWork(direct), params);
  assert.ok(Math.abs(a - b) < 1e-9 * Math.abs(b), `${a} vs ${b}`);
});

test('subset stage: F comes back as Q-weighted allele frequencies, and the start ends where the direct fit does', () => {
  const N = 40;
  const L = SUBSET_STRIDE * SUBSET_MIN_LOCI;
  const K = 2;
  const { data } = admixedData(9, { N, L, K, alpha: 0.5, fst: 0.1 });
  const md = buildPreparedData(data);
  const work = admixtureWork(md);
  const o = admixtureFitOptions({ ...DEFAULT_FIT, model: 'admixture' });
  const init = randomAdmixture(md, K, createRng(5));
  const stage = subsetStage(md, work, init, o);
  let s = stage.next();
  let yielded = 0;
  for (; !s.done; s = stage.next()) yielded++;
  assert.ok(yielded > 0, 'the subset fit yields its steps');
  const carried = s.value;
  // The frequencies counted from the calls, weighted by the carried Q.
  let worst = 0;
  for (let l = 0; l < L; l++)
    for (let k = 0; k < K; k++) {
      const counts = [0, 0];
      let total = 0;
      for (let i = 0; i < N; i++)
        for (let p = 0; p < 2; p++) {
          const a = data.calls[(l * N + i) * 2 + p]!;
          if (a < 0) continue;
          counts[a]! += carried.Q[i * K + k]!;
          total += carried.Q[i * K + k]!;
        }
      // Frequencies of 0 are lifted to the floor, 1e-9, and the locus's renormalised.
      const floored = counts.map((c) => Math.max(1e-9, c / total));
      for (let a = 0; a < 2; a++) {
        const expected = floored[a]! / (floored[0]! + floored[1]!);
        worst = Math.max(worst, Math.abs(carried.F[(md.offsets[l]! + a) * K + k]! - expected));
      }
    }
  assert.ok(worst < 1e-9, `largest difference from the weighted frequencies ${worst}`);
  const fit = (from: typeof init) => {
    const g = admixtureFitSteps(md, work, from, o);
    let r = g.next();
    while (!r.done) r = g.next();
    return r.value;
  };
  const direct = fit(init);
  const staged = fit(carried);
  assert.ok(Math.abs(staged.logLik - direct.logLik) < 1e-3, `staged ${staged.logLik}, direct ${direct.logLik}`);
  assert.ok(staged.emSteps < direct.emSteps, `steps on all loci: staged ${staged.emSteps}, direct ${direct.emSteps}`);
  // On 8,000 loci the default acceleration is Anderson's: the same fit as asking for it.
  const explicit = admixtureFitSteps(md, work, carried, { ...o, acceleration: 'anderson' });
  let e = explicit.next();
  while (!e.done) e = explicit.next();
  assert.equal(o.acceleration, 'auto');
  assert.equal(staged.logLik, e.value.logLik);
  assert.deepEqual(staged.params.Q, e.value.params.Q);
});

test('a start through the subset stage and Anderson acceleration runs on worker threads as in this thread', async () => {
  const { data } = admixedData(10, { N: 30, L: SUBSET_STRIDE * SUBSET_MIN_LOCI, K: 2, alpha: 0.5, fst: 0.1 });
  const fit = { ...DEFAULT_FIT, model: 'admixture' as const };
  const here = runStart(buildPreparedData(data), 2, fit, 0, startSeed(1, 2, 0, 0));
  const pool = nodeStartPool(2);
  try {
    const swept = await runSweep(data, { kValues: [2], replicates: 1, starts: 1, policy: 'best', seed: 1, fit }, pool);
    assert.equal(swept.runs[0]!.clustering.starts[0]!.logLik, here.logLik);
  } finally {
    pool.close();
  }
});

test('a start names its stage: the subset stage’s steps carry their loci, the steps on all loci none', async () => {
  const L = SUBSET_STRIDE * SUBSET_MIN_LOCI;
  const { data } = admixedData(9, { N: 30, L, K: 2, alpha: 0.5, fst: 0.1 });
  const md = buildPreparedData(data);
  const steps = startSteps(md, 2, { ...DEFAULT_FIT, model: 'admixture' }, 0, startSeed(1, 2, 0, 0));
  const loci: (number | undefined)[] = [];
  for (let s = steps.next(); !s.done; s = steps.next()) loci.push(s.value.loci);
  const first = loci.findIndex((x) => x === undefined);
  assert.ok(first > 0, 'the subset stage comes first');
  assert.ok(
    loci.slice(0, first).every((x) => x === L / SUBSET_STRIDE),
    'every subset step over L/8 loci',
  );
  assert.ok(
    loci.slice(first).every((x) => x === undefined),
    'then every step over all loci',
  );
  assert.equal(iterationStage(L / SUBSET_STRIDE, L), 'subset 1/8 of loci');
  assert.equal(iterationStage(L / 64, L), 'subset 1/64 of loci');
  assert.equal(iterationStage(undefined, L), 'all loci');
});
