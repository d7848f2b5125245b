import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  alleleCllGradient,
  alleleRows,
  fitAlleleGradient,
  fitAlleleTM,
  generativePlugIn,
  plugInPosteriors,
  type AlleleRows,
} from '../../engine/classify/allele-discriminative.ts';
import { alleleCounts } from '../../engine/classify/allele-nb.ts';
import { categoricalFromGenotypes } from '../../engine/classify/categorical.ts';
import { assignIndividuals } from '../../engine/service/assign.ts';
import { createRng } from '../../engine/util/rng.ts';
import { bayesOptimalAccuracy, draw, makeData, multiAllelicPopulations } from '../model/synthetic.ts';

/**
 * Two populations; locus 0 weakly informative (allele 0 at 0.6 against 0.4, both copies identical)
 * and copied into 15 perfectly linked loci, locus 16 strongly informative (0.95 against 0.05).
 * Naive Bayes counts the weak locus 16 times and follows it; the Bayes-optimal rule counts it once
 * and follows locus 16.
 */
function linked(seed: number, perPop: number) {
  const rng = createRng(seed);
  const N = 2 * perPop;
  const weak = [
    [0.6, 0.4],
    [0.4, 0.6],
  ];
  const strong = [
    [0.95, 0.05],
    [0.05, 0.95],
  ];
  const w: number[] = [];
  const s: number[] = [];
  for (let i = 0; i < N; i++) {
    const y = i < perPop ? 0 : 1;
    const a = draw(weak[y]!, rng);
    w.push(a, a);
    s.push(draw(strong[y]!, rng), draw(strong[y]!, rng));
  }
  const L = 17;
  return makeData(
    N,
    L,
    2,
    Array(L).fill(2),
    (l, i, p) => (l < 16 ? w[i * 2 + p]! : s[i * 2 + p]!),
    Array.from({ length: N }, (_, i) => (i < perPop ? 'A' : 'B')),
  );
}

/** Accuracy of a model's posteriors on the rows given. */
function accuracy(post: Float64Array, labels: Int32Array, rows: number[], K: number): number {
  let ok = 0;
  rows.forEach((i, r) => {
    let best = 0;
    for (let c = 1; c < K; c++) if (post[r * K + c]! > post[r * K + best]!) best = c;
    if (best === labels[i]) ok++;
  });
  return ok / rows.length;
}

test('allele CLL gradient equals central finite differences', () => {
  const { data } = multiAllelicPopulations(3, { pops: 3, perPop: 8, loci: 4, minAlleles: 2, maxAlleles: 5, fst: 0.1 });
  data.calls[5] = -1; // a missing copy
  const labels = categoricalFromGenotypes(data).labels;
  const rows = Array.from({ length: data.individuals.length }, (_, i) => i);
  const x: AlleleRows = alleleRows(data);
  const start = generativePlugIn(alleleCounts(data, labels, 3, rows), 1);
  const rng = createRng(9);
  const v = new Float64Array(3 + start.logTheta.length);
  v.set(start.bias, 0);
  v.set(start.logTheta, 3);
  const anchor = Float64Array.from(v);
  for (let k = 0; k < v.length; k++) v[k]! += 0.3 * (rng.uniform() - 0.5);
  const { grad } = alleleCllGradient(x, labels, rows, 3, v, anchor, 0.2);
  const h = 1e-5;
  for (let k = 0; k < v.length; k++) {
    const up = Float64Array.from(v);
    const dn = Float64Array.from(v);
    up[k]! += h;
    dn[k]! -= h;
    const fd =
      (alleleCllGradient(x, labels, rows, 3, up, anchor, 0.2).value -
        alleleCllGradient(x, labels, rows, 3, dn, anchor, 0.2).value) /
      (2 * h);
    assert.ok(Math.abs(fd - grad[k]!) < 1e-5 * Math.max(1, Math.abs(fd)), `parameter ${k}: ${grad[k]} vs ${fd}`);
  }
});

test('discriminative allele learners undo double counting of linked loci (held-out accuracy)', () => {
  const trainData = linked(1, 150);
  const testData = linked(2, 500);
  const trainLabels = categoricalFromGenotypes(trainData).labels;
  const testLabels = categoricalFromGenotypes(testData).labels;
  const trainRows = Array.from({ length: 300 }, (_, i) => i);
  const testRows = Array.from({ length: 1000 }, (_, i) => i);
  const counts = alleleCounts(trainData, trainLabels, 2, trainRows);
  const xTrain = alleleRows(trainData);
  const xTest = alleleRows(testData);
  const gen = generativePlugIn(counts, 1);
  const grad = fitAlleleGradient(xTrain, trainLabels, trainRows, gen, {
    maxIterations: 300,
    tolerance: 1e-9,
    memory: 7,
    l2: 0.01,
  });
  const tm = fitAlleleTM(xTrain, trainLabels, trainRows, counts);
  const accGen = accuracy(plugInPosteriors(xTest, gen, testRows), testLabels, testRows, 2);
  const accGrad = accuracy(plugInPosteriors(xTest, grad.model, testRows), testLabels, testRows, 2);
  const accTm = accuracy(plugInPosteriors(xTest, tm.model, testRows), testLabels, testRows, 2);
  // Independent reference: the Bayes-optimal rule uses the weak locus once; the strong locus
  // decides unless its copies disagree: P(correct) = 0.95² + 2·0.95·0.05·0.6 ≈ 0.96. Naive Bayes's
  // 32 weak votes (ln 1.5 each) outweigh the strong locus's 2 (ln 19 each): it follows the weak
  // locus, P(correct) ≈ 0.6.
  assert.ok(accGen < 0.75, `generative ${accGen}`);
  assert.ok(accGrad > 0.9, `gradient ${accGrad} (generative ${accGen})`);
  assert.ok(accTm > 0.9, `TM ${accTm} (generative ${accGen})`);
  // Both learners only ever raise their objective.
  for (const t of [grad.trace, tm.trace]) for (let k = 1; k < t.length; k++) assert.ok(t[k]! >= t[k - 1]! - 1e-9);
});

test('TM over alleles reaches a stationary point: expected allele counts match the observed ones', () => {
  // Many individuals per parameter, so that the CLL's maximum is interior (with 15 per population
  // the CLL keeps rising towards the boundary and TM creeps: |n⁰ − E n| still 0.8 after 20,000 steps).
  const { data } = multiAllelicPopulations(5, {
    pops: 3,
    perPop: 60,
    loci: 4,
    minAlleles: 3,
    maxAlleles: 4,
    fst: 0.02,
  });
  const labels = categoricalFromGenotypes(data).labels;
  const rows = Array.from({ length: data.individuals.length }, (_, i) => i);
  const counts = alleleCounts(data, labels, 3, rows);
  const x = alleleRows(data);
  const { model, trace } = fitAlleleTM(x, labels, rows, counts, { maxIterations: 2000, tolerance: 1e-13, prior: 1 });
  assert.ok(trace.at(-1)! > trace[0]!, 'TM raised the CLL');
  // The CLL's stationarity condition in count space (dissertation 5.2): n⁰ = E_θ{n | x}.
  const post = plugInPosteriors(x, model, rows);
  const expected = new Float64Array(counts.counts.length);
  rows.forEach((i, r) => {
    for (let e = x.start[i]!; e < x.start[i + 1]!; e++)
      for (let c = 0; c < 3; c++) expected[x.allele[e]! * 3 + c]! += x.count[e]! * post[r * 3 + c]!;
  });
  let worst = 0;
  counts.counts.forEach((n, k) => (worst = Math.max(worst, Math.abs(n - expected[k]!))));
  assert.ok(worst < 0.05, `largest |n⁰ − E n| = ${worst}`);
});

test('assign: allele variables with gradient and TM learning run end to end', () => {
  const { data, freqs } = multiAllelicPopulations(7, {
    pops: 4,
    perPop: 20,
    loci: 8,
    minAlleles: 5,
    maxAlleles: 8,
    fst: 0.1,
  });
  const optimal = bayesOptimalAccuracy(data, freqs, 20);
  for (const learning of ['gradient', 'tm'] as const) {
    const a = assignIndividuals(data, {
      by: 'population',
      classifier: { structure: 'nb', k: 2, learning, alpha: 1 },
      folds: 5,
      seed: 1,
    });
    assert.equal(a.variables, 'alleles', `${learning}: ${a.variablesReason}`);
    // On data that follow naive Bayes the discriminative learners cannot beat the generative
    // model by much; they must stay close to the Bayes-optimal accuracy of the true frequencies.
    assert.ok(a.evaluation.accuracy > optimal - 0.15, `${learning}: ${a.evaluation.accuracy} (optimal ${optimal})`);
  }
  // Allele variables default to the documented L2 anchor of 1, not the inner-CV choice ('auto').
  const withL2 = (l2?: number | 'auto') =>
    assignIndividuals(data, {
      by: 'population',
      classifier: { structure: 'nb', k: 2, learning: 'gradient', alpha: 1, ...(l2 !== undefined ? { l2 } : {}) },
      folds: 5,
      seed: 1,
    }).evaluation.posterior;
  assert.deepEqual(withL2(), withL2(1));
  assert.notDeepEqual(withL2(), withL2(0.01));
});
