// Supervised admixture (ADMIXTURE --supervised): reference individuals keep all their ancestry in
// their population's cluster; the others' proportions are estimated in the references' cluster
// order (no label switching), as close to the simulated truth as an unsupervised fit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { DEFAULT_FIT, type FitOptions } from '../../engine/model/fit-options.ts';
import { runStart, startSeed } from '../../engine/model/start.ts';
import { validateSweep } from '../../engine/model/sweep.ts';
import { admixedData, makeData } from './synthetic.ts';
import { supervisedFromPopulations } from '../../engine/service/supervised.ts';

test('supervised admixture: references stay one-hot, the others match the simulated Q in the references’ cluster order', () => {
  const K = 3;
  const N = 240;
  const references = 90;
  const { data, Q: truth } = admixedData(3, { N, L: 2000, K, alpha: 0.5, fst: 0.1, references });
  const md = buildPreparedData(data);
  const supervised = Array.from({ length: N }, (_, i) => (i < references ? i % K : -1));
  const fit: FitOptions = { ...DEFAULT_FIT, model: 'admixture', supervised };
  const r = runStart(md, K, fit, 0, startSeed(1, K, 0, 0));
  for (let i = 0; i < references; i++)
    for (let k = 0; k < K; k++) assert.equal(r.posterior[i * K + k], k === i % K ? 1 : 0, `reference ${i}`);
  let sq = 0;
  for (let i = references; i < N; i++)
    for (let k = 0; k < K; k++) sq += (r.posterior[i * K + k]! - truth[i * K + k]!) ** 2;
  const rmse = Math.sqrt(sq / ((N - references) * K));
  assert.ok(rmse < 0.05, `Q RMSE of the estimated individuals ${rmse}`);
});

test('supervised admixture: K must be the number of reference populations, each with a reference, and the model admixture', () => {
  const fit: FitOptions = { ...DEFAULT_FIT, model: 'admixture', supervised: [0, 1, -1, 1] };
  const sweep = { kValues: [2], replicates: 1, starts: 1, policy: 'best' as const, seed: 1, fit };
  validateSweep(sweep, 4);
  assert.throws(() => validateSweep({ ...sweep, kValues: [3] }, 4), /fits K = 2/);
  assert.throws(
    () => validateSweep({ ...sweep, fit: { ...fit, supervised: [0, 2, -1, 2] }, kValues: [3] }, 4),
    /cluster 2 has no reference/,
  );
  assert.throws(
    () => validateSweep({ ...sweep, fit: { ...fit, model: 'mixture' } }, 4),
    /belongs to the admixture model/,
  );
  assert.throws(() => validateSweep(sweep, 5), /for 4 individuals/);
  // Biobank-sized label lists are checked too (Math.max(...labels) overflowed the stack).
  const many = Array.from({ length: 300_000 }, (_, i) => (i < 2 ? i : -1));
  validateSweep({ ...sweep, fit: { ...fit, supervised: many } }, many.length);
});

test("supervised references from the data's populations: cluster k = the k-th named, others estimated; fewer than two or an empty one refused", () => {
  const data = makeData(6, 1, 2, [2], () => 0, ['b', 'a', 'c', 'a', 'b', 'c']);
  const s = supervisedFromPopulations(data, ['a', 'b']);
  assert.deepEqual(s.labels, [1, 0, -1, 0, 1, -1]);
  assert.deepEqual(s.populations, ['a', 'b']);
  assert.throws(() => supervisedFromPopulations(data, ['a']), /at least two reference populations, given 1 \(a\)/);
  assert.throws(() => supervisedFromPopulations(data, ['a', 'z']), /no individual of the reference population z/);
});
