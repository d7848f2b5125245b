// tier: slow — the dissertation's published values (run by npm test, not by npm run test:fast).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { DEFAULT_FIT, type FitOptions } from '../../engine/model/fit-options.ts';
import { combineStarts } from '../../engine/model/combine-starts.ts';
import { runStart, startSeed } from '../../engine/model/start.ts';
import { hardAssignments, matchingAccuracy } from '../../engine/analysis/partition-scores.ts';
import { createRng } from '../../engine/util/rng.ts';
import type { GenotypeData } from '../../engine/data/genotype-data.ts';
import { CLUSTER_DEFAULTS, type RankBy } from '../../engine/util/choices.ts';

const DEFAULT_RANK_BY = CLUSTER_DEFAULTS.rankBy;
import { selectiveNaiveBayesData, toyExample } from './synthetic.ts';

/** The dissertation's method: multi-start EMA (these tests check what EMA reports per marker). */
const EMA_FIT: FitOptions = { ...DEFAULT_FIT, algorithm: 'ema' };

function multiStart(
  data: GenotypeData,
  K: number,
  m: number,
  seed: number,
  fit: FitOptions = EMA_FIT,
  rankBy: RankBy = 'evidence',
) {
  const md = buildPreparedData(data);
  const starts = Array.from({ length: m }, (_, k) => runStart(md, K, fit, k, startSeed(seed, K, 0, k)));
  return combineStarts(md, starts, 'best', rankBy, fit);
}

function topIndices(xs: Float64Array, n: number): number[] {
  return Array.from(xs, (w, i) => [w, i] as const)
    .sort((a, b) => b[0] - a[0])
    .slice(0, n)
    .map(([, i]) => i)
    .sort((a, b) => a - b);
}

function withMissing(data: GenotypeData, rate: number, seed: number): GenotypeData {
  const rng = createRng(seed);
  const calls = Int16Array.from(data.calls, (a) => (rng.uniform() < rate ? -1 : a));
  return { ...data, calls };
}

test('toy example of 8.3: best-choice multi-start EMA assigns ≥ 95% correctly on average over 10 seeds (published 95%) and finds the 5 informative positions', () => {
  const accs: number[] = [];
  let found = 0;
  for (let seed = 1; seed <= 10; seed++) {
    const { data, labels, informative } = toyExample(seed);
    const res = multiStart(data, 3, 200, seed);
    accs.push(matchingAccuracy(hardAssignments(res.Q, 60, 3), labels));
    if (JSON.stringify(topIndices(res.informative, 5)) === JSON.stringify(informative)) found++;
  }
  const mean = accs.reduce((a, b) => a + b, 0) / accs.length;
  console.log(
    `toy: accuracy per seed ${accs.map((a) => a.toFixed(3)).join(' ')}; mean ${mean.toFixed(4)}; informative positions found in ${found}/10`,
  );
  assert.ok(mean >= 0.95, `mean accuracy ${mean}`);
  assert.ok(Math.min(...accs) >= 0.9, `every seed ≥ 90%: ${accs.join(' ')}`);
  assert.ok(found >= 9, `informative positions found in ${found} of 10 seeds`);
});

test('toy example of 8.3 with the default options (auto, best start by likelihood): mean accuracy ≥ 93% over 10 seeds', () => {
  const accs: number[] = [];
  for (let seed = 1; seed <= 10; seed++) {
    const { data, labels } = toyExample(seed);
    const res = multiStart(data, 3, 100, seed, DEFAULT_FIT, DEFAULT_RANK_BY);
    accs.push(matchingAccuracy(hardAssignments(res.Q, 60, 3), labels));
  }
  const mean = accs.reduce((a, b) => a + b, 0) / accs.length;
  console.log(`toy, defaults: accuracy per seed ${accs.map((a) => a.toFixed(3)).join(' ')}; mean ${mean.toFixed(4)}`);
  assert.ok(mean >= 0.93, `mean accuracy ${mean}`);
});

test('best choice by evidence calls no noise marker informative and assigns well (10 seeds)', () => {
  // Over ten toy data sets: the evidence ranking's choice calls no noise marker informative and
  // assigns well; the likelihood ranking's choice has the higher ln L by construction (it is the
  // one that could reward noise markers: their w_i raise ln p(D | θ̂), not the evidence).
  const accE: number[] = [];
  let cleanE = 0;
  let noisyL = 0;
  for (let seed = 1; seed <= 10; seed++) {
    const { data, labels, informative } = toyExample(seed);
    const md = buildPreparedData(data);
    const starts = Array.from({ length: 200 }, (_, k) => runStart(md, 3, EMA_FIT, k, startSeed(seed, 3, 0, k)));
    const byEvidence = combineStarts(md, starts, 'best', 'evidence');
    const byLikelihood = combineStarts(md, starts, 'best', 'likelihood');
    accE.push(matchingAccuracy(hardAssignments(byEvidence.Q, 60, 3), labels));
    const noise = (w: Float64Array) => Array.from(w).filter((x, i) => !informative.includes(i) && x > 0.5).length;
    if (noise(byEvidence.informative) === 0) cleanE++;
    if (noise(byLikelihood.informative) >= 5) noisyL++;
    assert.ok(byLikelihood.logLik >= byEvidence.logLik, `seed ${seed}: the likelihood ranking picks the highest ln L`);
    const scoreOf = (c: typeof byEvidence) => starts.find((s) => s.index === c.bestStart)!.score;
    assert.ok(scoreOf(byEvidence) >= scoreOf(byLikelihood) - 1e-9, `seed ${seed}: evidence ranking's score`);
  }
  console.log(
    `toy, best by evidence: accuracy ${accE.map((a) => a.toFixed(3)).join(' ')}; no noise marker in ${cleanE}/10; likelihood noisy in ${noisyL}/10`,
  );
  assert.ok(cleanE >= 9, `evidence's choice free of noise markers in ${cleanE} of 10 seeds`);
  assert.ok(accE.reduce((x, y) => x + y, 0) / accE.length >= 0.95, `mean accuracy by evidence ${accE.join(' ')}`);
});

test('toy example with 5% missing copies: both treatments of missing data keep the structure', () => {
  for (const missing of ['skip', 'expect'] as const) {
    const accs: number[] = [];
    for (let seed = 1; seed <= 5; seed++) {
      const { data, labels } = toyExample(seed);
      const res = multiStart(withMissing(data, 0.05, seed), 3, 100, seed, { ...EMA_FIT, missing });
      accs.push(matchingAccuracy(hardAssignments(res.Q, 60, 3), labels));
    }
    const mean = accs.reduce((a, b) => a + b, 0) / accs.length;
    console.log(`toy with 5% missing, ${missing}: ${accs.map((a) => a.toFixed(3)).join(' ')}`);
    assert.ok(mean >= 0.85, `${missing}: mean accuracy ${mean}`);
  }
});

test('model detection (7.5.2): irrelevant variables get low informativeness and I_P, relevant ones high', () => {
  for (const N of [200, 800]) {
    const { data } = selectiveNaiveBayesData(7, { N, n: 10, relevant: 5, r: 3, K: 2, separation: 0.3 });
    const res = multiStart(data, 2, 30, 1);
    const relevantW = Array.from(res.informative.slice(0, 5));
    const irrelevantW = Array.from(res.informative.slice(5));
    const relevantI = Array.from(res.independence.slice(0, 5));
    const irrelevantI = Array.from(res.independence.slice(5));
    console.log(
      `detection N=${N}: w relevant ${relevantW.map((x) => x.toFixed(2)).join(' ')} | irrelevant ${irrelevantW.map((x) => x.toFixed(2)).join(' ')}`,
    );
    assert.ok(
      Math.min(...relevantW) > Math.max(...irrelevantW),
      'every relevant marker above every irrelevant one (w)',
    );
    assert.ok(
      Math.min(...relevantI) > Math.max(...irrelevantI),
      'every relevant marker above every irrelevant one (I_P)',
    );
    assert.ok(Math.max(...irrelevantW) < 0.5);
  }
});
