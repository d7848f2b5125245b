import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reynoldsFst, fstFromAssignments, fstFromModel } from '../engine/analysis/fst.ts';
import { mannWhitney } from '../engine/util/rank-tests.ts';
import { applyFilters, readDataset } from '../engine/index.ts';
import { datasetFiles } from '../engine/node/file-source.ts';
import { mixtureData } from '../engine/model/mixture/mixture-data.ts';
import { modelFromMemberships, DEFAULT_FIT } from '../engine/model/mixture/fit.ts';
import { encodeLabels } from '../engine/analysis/partition-scores.ts';
import { createRng } from '../engine/util/rng.ts';
import { shuffle } from './model/synthetic.ts';
import { dataPath } from '../data/datasets.ts';

test('reynoldsFst: a hand-computed example', () => {
  // Two clusters of 10, one biallelic locus with frequencies (0.8, 0.2) and (0.3, 0.7).
  // N = 20, r = 2, p̄ = (0.55, 0.45), n_c = (20 − 200/20)/1 = 10.
  // b = 2·[10·(1 − 0.68) + 10·(1 − 0.58)] / (40 − 2) = 2·7.4/38 = 0.389473…
  // between = 10·(0.25² + 0.25²)·2 = 2.5; a = (2·2.5 − 1·b)/(2·1·10) = (5 − 0.389473)/20 = 0.230526…
  // F_ST = −ln(1 − a/(a + b)) = −ln(b/(a + b)) = ln((a + b)/b).
  const b = (2 * 7.4) / 38;
  const a = (5 - b) / 20;
  const want = Math.log((a + b) / b);
  const f = [
    [0.8, 0.2],
    [0.3, 0.7],
  ];
  const got = reynoldsFst([10, 10], 1, [2], (_i, j, k) => f[j]![k]!);
  assert.ok(Math.abs(got.fst - want) < 1e-12, `${got.fst} vs ${want}`);
  assert.ok(Math.abs(got.fst - 0.46493) < 1e-4, String(got.fst));
  assert.equal(got.perLocus[0], got.fst);
});

test('reynoldsFst: identical clusters give 0; one cluster gives 0', () => {
  const same = reynoldsFst([30, 20, 50], 2, [3, 2], (i, _j, k) => (i === 0 ? [0.2, 0.3, 0.5] : [0.6, 0.4])[k]!);
  assert.equal(same.fst, 0);
  assert.equal(reynoldsFst([100], 1, [2], () => 0.5).fst, 0);
});

test('F_ST on nancycats populations: from a model of the labels and from hard assignments agree closely; labels beat random', async () => {
  // Complete genotypes only, so both computations see the same sample at every locus.
  const data = applyFilters(await readDataset(datasetFiles(dataPath('nancycats.str'))), {
    maxIndividualMissing: 0,
  }).data;
  const labels = encodeLabels(data.individuals.map((i) => i.population!));
  const byLabels = fstFromAssignments(data, labels.codes);
  // Second, independent computation: the model built from one-hot memberships of the labels
  // (α-smoothed frequencies, weights n_j/N) through the model-based formula.
  const md = mixtureData(data);
  const K = labels.count;
  const Q = new Float64Array(md.N * K);
  labels.codes.forEach((c, d) => (Q[d * K + c] = 1));
  const model = modelFromMemberships(md, Q, K, {
    ...DEFAULT_FIT,
    algorithm: 'em',
    priors: { alpha: 1e-9, alphaCluster: 1e-9, priorInformative: 0.5 },
  });
  const fromModel = fstFromModel(md, model);
  assert.ok(Math.abs(byLabels.fst - fromModel.fst) < 1e-6, `${byLabels.fst} vs ${fromModel.fst}`);
  assert.ok(byLabels.fst > 0.05 && byLabels.fst < 0.2, `nancycats colony F_ST ${byLabels.fst}`);
  const shuffled = Int32Array.from(shuffle([...labels.codes], createRng(1)));
  assert.ok(fstFromAssignments(data, shuffled).fst < byLabels.fst / 3);
});

test('mannWhitney: exact p-values against reference values', () => {
  // R: wilcox.test(c(1,2,3), c(4,5,6))$p.value = 0.1; wilcox.test(1:10, 11:20)$p.value = 1.083e-05
  const a = mannWhitney([1, 2, 3], [4, 5, 6]);
  assert.equal(a.method, 'exact');
  assert.equal(a.u, 0);
  assert.ok(Math.abs(a.p - 0.1) < 1e-12);
  const b = mannWhitney([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  assert.ok(Math.abs(b.p - 1.082509e-5) < 1e-9, String(b.p));
  // U = 3 for m = 4, n = 3: P(U ≤ 3) = (1 + 1 + 2 + 3)/35, two-sided 0.4 (R: wilcox.test gives 0.4).
  const c = mannWhitney([1.1, 2.2, 3.3, 4.4], [2.5, 3.5, 5.5]);
  assert.equal(c.u, 3);
  assert.ok(Math.abs(c.p - 0.4) < 1e-12, String(c.p));
  const ties = mannWhitney([1, 1, 2, 2], [2, 3, 3, 4]);
  assert.equal(ties.method, 'normal');
  assert.ok(ties.p > 0 && ties.p < 1);
});
