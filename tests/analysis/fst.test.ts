import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reynoldsFst, fstFromAssignments, fstFromMemberships, fstFromModel } from '../../engine/analysis/fst.ts';
import { summarizeSweep } from '../../engine/analysis/k-choice.ts';
import { adjustedRandIndex } from '../../engine/analysis/partition-scores.ts';
import { runSweep } from '../../engine/service/cluster-sweep.ts';
import { StartPool } from '../../engine/runtime/pool.ts';
import { spawnInProcess } from '../../engine/runtime/in-process.ts';
import { mannWhitney } from '../../engine/util/rank-tests.ts';
import { applyFilters, readDataset } from '../../engine/index.ts';
import { datasetFiles } from '../../engine/node/file-source.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { modelFromMemberships } from '../../engine/model/mixture/fit.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { encodeLabels } from '../../engine/analysis/partition-scores.ts';
import { createRng } from '../../engine/util/rng.ts';
import { makeData, multiAllelicPopulations, shuffle } from '../model/synthetic.ts';
import { dataPath } from '../../data/datasets.ts';

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
  const md = buildPreparedData(data);
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

test('F_ST from memberships: a hand-computed soft case, with a missing copy', () => {
  // 3 diploid individuals, one biallelic locus (alleles 0, 1); individual 2 has one copy missing.
  // Genotypes: d0 = 0/0, d1 = 1/1, d2 = 1/−. Memberships Q = [[1, 0], [0.25, 0.75], [0.5, 0.5]].
  const data = makeData(
    3,
    1,
    2,
    [2],
    (_l, i, p) =>
      [
        [0, 0],
        [1, 1],
        [1, -1],
      ][i]![p]!,
  );
  const Q = [1, 0, 0.25, 0.75, 0.5, 0.5];
  // Cluster 0: counts (2·1, 2·0.25 + 0.5) = (2, 1); size 1 + 0.25 + 0.5·½ = 1.5; p = (2/3, 1/3).
  // Cluster 1: counts (0, 2·0.75 + 0.5) = (0, 2); size 0.75 + 0.25 = 1;   p = (0, 1).
  const n = [1.5, 1];
  const p = [
    [2 / 3, 1 / 3],
    [0, 1],
  ];
  const N = 2.5;
  const nc = (N - (1.5 ** 2 + 1) / N) / 1;
  const mean = [0, 1].map((k) => (n[0]! * p[0]![k]! + n[1]! * p[1]![k]!) / N);
  let between = 0;
  for (let j = 0; j < 2; j++) for (let k = 0; k < 2; k++) between += n[j]! * (p[j]![k]! - mean[k]!) ** 2;
  const b = (2 * (n[0]! * (1 - (4 / 9 + 1 / 9)) + n[1]! * (1 - 1))) / (2 * N - 2);
  const a = (2 * between - b) / (2 * nc);
  const want = -Math.log(1 - a / (a + b));
  const got = fstFromMemberships(buildPreparedData(data), Q, 2);
  assert.ok(Math.abs(got.fst - want) < 1e-12, `${got.fst} vs ${want}`);
});

test('F_ST from hard memberships equals the hard-assignment estimator on nancycats (complete genotypes)', async () => {
  const data = applyFilters(await readDataset(datasetFiles(dataPath('nancycats.str'))), {
    maxIndividualMissing: 0,
  }).data;
  const labels = encodeLabels(data.individuals.map((i) => i.population!));
  const K = labels.count;
  const Q = new Float64Array(data.individuals.length * K);
  labels.codes.forEach((c, d) => (Q[d * K + c] = 1));
  const soft = fstFromMemberships(buildPreparedData(data), Q, K);
  const hard = fstFromAssignments(data, labels.codes);
  assert.ok(Math.abs(soft.fst - hard.fst) < 1e-12, `${soft.fst} vs ${hard.fst}`);
  for (let i = 0; i < hard.perLocus.length; i++) assert.ok(Math.abs(soft.perLocus[i]! - hard.perLocus[i]!) < 1e-12);
});

test('F_ST from hard memberships equals the hard-assignment estimator on SNPs taken in locus groups (complete genotypes, a three-allele locus among them)', () => {
  const rng = createRng(31);
  const N = 240;
  const K = 3;
  const labels = Array.from({ length: N }, (_, d) => d % K);
  const r = [2, 2, 2, 2, 2, 3, 2, 2, 2, 2, 2, 2, 2, 2];
  const data = makeData(N, r.length, 2, r, (l, d) =>
    rng.uniform() < 0.2 + 0.25 * labels[d]! ? 1 : l === 5 && rng.uniform() < 0.3 ? 2 : 0,
  );
  const md = buildPreparedData(data);
  assert.ok(
    Array.from(md.groups.row).some((x) => x >= 0),
    'some loci grouped',
  );
  const Q = new Float64Array(N * K);
  labels.forEach((c, d) => (Q[d * K + c] = 1));
  const soft = fstFromMemberships(md, Q, K);
  const hard = fstFromAssignments(data, labels);
  assert.ok(Math.abs(soft.fst - hard.fst) < 1e-12, `${soft.fst} vs ${hard.fst}`);
  for (let i = 0; i < hard.perLocus.length; i++)
    assert.ok(Math.abs(soft.perLocus[i]! - hard.perLocus[i]!) < 1e-12, `locus ${i}`);
});

test('F_ST per K does not collapse on small samples: 5 individuals per population', async () => {
  // Two populations of 5 diploids at 30 microsatellites (6–12 alleles, F_ST 0.1): K = 2 finds
  // them, and F_ST per K must report their differentiation (the model's α-smoothed cluster
  // frequencies gave about 0 here, as on 5 + 5 cattle).
  const pool = new StartPool(spawnInProcess, 1);
  try {
    for (const seed of [1, 2, 3]) {
      const { data, labels } = multiAllelicPopulations(seed, {
        pops: 2,
        perPop: 5,
        loci: 30,
        minAlleles: 6,
        maxAlleles: 12,
        fst: 0.1,
      });
      const truth = fstFromAssignments(data, labels).fst;
      const res = await runSweep(
        data,
        { kValues: [2, 3], replicates: 3, starts: 10, policy: 'best', seed, fit: DEFAULT_FIT },
        pool,
      );
      const md = buildPreparedData(data);
      const summary = summarizeSweep(md, res.runs);
      const k2 = summary.perK.find((k) => k.K === 2)!;
      const recovered = res.runs
        .filter((r) => r.K === 2)
        .map((r) => adjustedRandIndex(hardest(r.clustering.Q, 2), labels));
      assert.ok(Math.min(...recovered) > 0.99, `seed ${seed}: K = 2 recovers the populations (ARI ${recovered})`);
      assert.ok(
        Math.abs(k2.fstMean - truth) < 1e-6,
        `seed ${seed}: F_ST at K = 2 ${k2.fstMean} vs the populations' ${truth}`,
      );
      const smoothed = res.runs.filter((r) => r.K === 2).map((r) => fstFromModel(md, r.clustering.model).fst);
      assert.ok(
        truth > 0.05 && Math.max(...smoothed) < truth / 3,
        `seed ${seed}: the smoothed estimate ${smoothed} collapses (truth ${truth})`,
      );
    }
  } finally {
    pool.close();
  }
});

/** Hard assignments (the largest membership) of an (N, K) matrix. */
function hardest(Q: Float64Array, K: number): number[] {
  const out: number[] = [];
  for (let d = 0; d < Q.length / K; d++) {
    let best = 0;
    for (let j = 1; j < K; j++) if (Q[d * K + j]! > Q[d * K + best]!) best = j;
    out.push(best);
  }
  return out;
}
