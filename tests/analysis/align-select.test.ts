import { test } from 'node:test';
import chisquareQuantile from '@stdlib/stats-base-dists-chisquare-quantile';
import assert from 'node:assert/strict';
import { alignReplicates, coloursAcrossK, similarityH } from '../../engine/analysis/replicates.ts';
import { permuteColumns } from '../../engine/model/align.ts';
import { createRng } from '../../engine/util/rng.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { combineStarts } from '../../engine/model/combine-starts.ts';
import { runStart, startSeed } from '../../engine/model/start.ts';
import { selectMarkers } from '../../engine/analysis/marker-selection.ts';
import {
  conditionalMutualInformation,
  mutualInformationWithCluster,
  pairwiseMutualInformation,
} from '../../engine/analysis/mutual-information.ts';
import { hardAssignments, matchingAccuracy, adjustedRandIndex } from '../../engine/analysis/partition-scores.ts';
import { range, subsetData } from '../../engine/data/genotype-data.ts';
import { selectiveNaiveBayesData, shuffle, toyExample } from '../model/synthetic.ts';

function randomQ(N: number, K: number, seed: number): Float64Array {
  const rng = createRng(seed);
  const q = new Float64Array(N * K);
  for (let d = 0; d < N; d++) {
    let s = 0;
    for (let c = 0; c < K; c++) s += q[d * K + c] = rng.exponential() ** 3;
    for (let c = 0; c < K; c++) q[d * K + c]! /= s;
  }
  return q;
}

test('alignment: permuted copies of one result align back exactly, with H = 1 and one mode', () => {
  const N = 200;
  const K = 5;
  const q = randomQ(N, K, 1);
  const rng = createRng(2);
  const copies = Array.from({ length: 6 }, (_, r) => ({
    Q: permuteColumns(q, N, K, shuffle([0, 1, 2, 3, 4], rng)),
    logLik: r === 3 ? 0 : -1,
  }));
  const a = alignReplicates(copies, N, K);
  assert.equal(a.reference, 3);
  for (const m of a.aligned) assert.deepEqual(m, a.aligned[3]);
  assert.equal(a.meanSimilarity, 1);
  assert.equal(a.modes.length, 1);
  assert.equal(similarityH(q, q, K), 1);
});

test('alignment: two different solutions form two modes', () => {
  const N = 150;
  const K = 3;
  const q1 = randomQ(N, K, 5);
  const q2 = randomQ(N, K, 6);
  const a = alignReplicates(
    [
      { Q: q1, logLik: -1 },
      { Q: q2, logLik: -2 },
      { Q: permuteColumns(q1, N, K, [2, 0, 1]), logLik: -3 },
    ],
    N,
    K,
  );
  assert.equal(a.modes.length, 2);
  assert.deepEqual(a.modes[0]!.members, [0, 2]);
});

test('colours across K: a cluster that splits keeps its colour in one part; the new part gets a new colour', () => {
  const N = 6;
  // K = 2: individuals 0–2 in cluster 1, 3–5 in cluster 0.
  const q2 = Float64Array.from([0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0]);
  // K = 3 (columns in another order): 0–2 in column 2, 3–4 in column 0, 5 in column 1.
  const q3 = Float64Array.from([0, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0]);
  const colours = coloursAcrossK(
    [
      { K: 2, Q: q2 },
      { K: 3, Q: q3 },
    ],
    N,
  );
  assert.deepEqual(Array.from(colours[0]!), [0, 1]);
  assert.deepEqual(Array.from(colours[1]!), [0, 2, 1]);
});

test('toy example: the selected panel keeps informative positions and alone still clusters the data', () => {
  let informativeKept = 0;
  let good = 0;
  const report: string[] = [];
  for (let seed = 1; seed <= 10; seed++) {
    const { data, labels, informative } = toyExample(seed);
    const md = buildPreparedData(data);
    const full = combineStarts(
      md,
      Array.from({ length: 200 }, (_, k) => runStart(md, 3, DEFAULT_FIT, k, startSeed(seed, 3, 0, k))),
      'best',
    );
    const sel = selectMarkers(md, full.model, 0.01, 0.01);
    const kept = sel.panel.filter((i) => informative.includes(i)).length;
    informativeKept += kept;
    const sub = buildPreparedData(subsetData(data, sel.panel, range(60)));
    const res = combineStarts(
      sub,
      Array.from({ length: 100 }, (_, k) => runStart(sub, 3, DEFAULT_FIT, k, startSeed(seed, 3, 1, k))),
      'best',
    );
    const acc = matchingAccuracy(hardAssignments(res.Q, 60, 3), labels);
    if (acc >= 0.9) good++;
    report.push(
      `seed ${seed}: panel ${sel.panel.length}, informative kept ${kept}, accuracy with panel ${acc.toFixed(3)}`,
    );
    assert.ok(sel.panel.every((i) => sel.ranking.find((r) => r.locus === i)!.relevant));
  }
  console.log(report.join('\n'));
  assert.ok(informativeKept >= 36, `informative positions kept: ${informativeKept} of 50`);
  assert.ok(good >= 9, `panel alone ≥ 90% in ${good} of 10 seeds`);
});

test('selection: p_red = 0 keeps one marker; larger p_rel keeps at least as many relevant markers', () => {
  const { data } = toyExample(4);
  const md = buildPreparedData(data);
  const full = combineStarts(
    md,
    Array.from({ length: 50 }, (_, k) => runStart(md, 3, DEFAULT_FIT, k, startSeed(4, 3, 0, k))),
    'best',
  );
  assert.equal(selectMarkers(md, full.model, 0.01, 0).panel.length, 1);
  const strict = selectMarkers(md, full.model, 0.01, 0.01).ranking.filter((r) => r.relevant).length;
  const loose = selectMarkers(md, full.model, 0.5, 0.01).ranking.filter((r) => r.relevant).length;
  assert.ok(loose >= strict);
  assert.throws(() => selectMarkers(md, full.model, 2, 0.01), /p_rel and p_red/);
  assert.equal(adjustedRandIndex([0, 0, 1, 1], [1, 1, 0, 0]), 1);
});

test('mutual information under the model: I(X;C) from θ, pairwise I(X_i;X_j) through C, conditional I zero for a copy', () => {
  const md = buildPreparedData(toyExample(1).data);
  // Two clusters; locus 0 perfectly informative, locus 1 a copy of it, locus 2 uninformative.
  const K = 2;
  const theta = new Float64Array(md.totalAlleles * K).fill(0.5);
  const set = (l: number, a: number, c: number, v: number) => (theta[(md.offsets[l]! + a) * K + c] = v);
  for (const l of [0, 1]) {
    set(l, 0, 0, 1);
    set(l, 1, 0, 0);
    set(l, 0, 1, 0);
    set(l, 1, 1, 1);
  }
  const model = { K, weights: Float64Array.from([0.5, 0.5]), theta };
  const mi = mutualInformationWithCluster(md, model);
  assert.ok(Math.abs(mi[0]! - Math.log(2)) < 1e-12);
  assert.ok(Math.abs(mi[2]!) < 1e-12);
  assert.ok(Math.abs(pairwiseMutualInformation(md, model, 0, 1) - Math.log(2)) < 1e-12);
  assert.ok(Math.abs(pairwiseMutualInformation(md, model, 0, 2)) < 1e-12);
  assert.ok(Math.abs(conditionalMutualInformation(md, model, 1, 0)) < 1e-12, 'a copy adds nothing given the original');
  assert.ok(Math.abs(conditionalMutualInformation(md, model, 0, 2) - Math.log(2)) < 1e-12);
});

test('selection p-values: the χ² upper tail, positive even far below 1e-16, and consistent with the quantile', () => {
  const { data } = selectiveNaiveBayesData(7, { N: 800, n: 30, relevant: 20, r: 3, K: 2, separation: 0.3 });
  const md = buildPreparedData(data);
  const full = combineStarts(
    md,
    Array.from({ length: 10 }, (_, k) => runStart(md, 2, DEFAULT_FIT, k, startSeed(2, 2, 0, k))),
    'best',
  );
  const { ranking } = selectMarkers(md, full.model, 0.01, 0.01);
  const strongest = ranking[0]!;
  assert.ok(strongest.p > 0 && strongest.p < 1e-16, `p of the strongest marker ${strongest.p}`);
  let checked = 0;
  for (const r of ranking) {
    if (!(r.p > 1e-12 && r.p < 0.999)) continue;
    assert.ok(
      Math.abs(chisquareQuantile(1 - r.p, r.df) - r.statistic) < 1e-6 * Math.max(1, r.statistic),
      `locus ${r.locus}`,
    );
    checked++;
  }
  assert.ok(
    checked >= 3,
    `moderate p-values checked: ${checked} (${ranking.map((r) => r.p.toPrecision(2)).join(' ')})`,
  );
});
