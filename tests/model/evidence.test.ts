import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreparedData, type PreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { fit } from '../../engine/model/mixture/fit.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { randomModel } from '../../engine/model/mixture/mixture-model.ts';
import { logEvidence } from '../../engine/model/mixture/evidence.ts';
import { liveClusters, usedClusters } from '../../engine/model/cluster-use.ts';
import { combineStarts } from '../../engine/model/combine-starts.ts';
import { type StartResult } from '../../engine/model/start.ts';
import { createRng } from '../../engine/util/rng.ts';
import { makeData } from './synthetic.ts';

/** ln p(D) of one Dirichlet(α)-multinomial per locus by the Pólya urn: Π (α + n_a) / (rα + n). */
function polyaUrn(calls: Int16Array, N: number, L: number, P: number, r: number[], alpha: number): number {
  let s = 0;
  for (let l = 0; l < L; l++) {
    const seen = new Array<number>(r[l]!).fill(0);
    let n = 0;
    for (let k = 0; k < N * P; k++) {
      const a = calls[l * N * P + k]!;
      if (a < 0) continue;
      s += Math.log((alpha + seen[a]!) / (r[l]! * alpha + n));
      seen[a]!++;
      n++;
    }
  }
  return s;
}

test('evidence: with one cluster the Cheeseman–Stutz score is the exact marginal likelihood', () => {
  const rng = createRng(5);
  const r = [2, 3, 4, 5];
  const data = makeData(13, 4, 2, r, (l) => (rng.uniform() < 0.1 ? -1 : Math.floor(rng.uniform() * r[l]!)));
  const md = buildPreparedData(data);
  for (const algorithm of ['em', 'ema'] as const) {
    const opts = { ...DEFAULT_FIT, algorithm };
    const res = fit(md, randomModel(md, 1, createRng(1), 'data'), opts);
    const score = logEvidence(
      md,
      res.model,
      res.posterior,
      res.logLik,
      res.informative,
      algorithm,
      opts.priors,
      'skip',
    );
    assert.ok(res.converged && res.counts, 'a converged fit hands over its last expected counts');
    assert.equal(
      logEvidence(
        md,
        res.model,
        res.posterior,
        res.logLik,
        res.informative,
        algorithm,
        opts.priors,
        'skip',
        res.counts,
      ),
      score,
    );
    // ln p(D′) of the cluster variable is Γ(α_C)/Γ(α_C + N) · Γ(α_C + N)/Γ(α_C) = 0 for K = 1.
    assert.ok(Math.abs(score - polyaUrn(Int16Array.from(data.calls), 13, 4, 2, r, 1)) < 1e-9, `${algorithm}: ${score}`);
  }
});

test('evidence: two well-separated clusters score above one cluster; a spurious third does not gain much', () => {
  const rng = createRng(9);
  const N = 80;
  const data = makeData(N, 6, 2, Array(6).fill(3), (l, i) => {
    const p = i < N / 2 ? [0.8, 0.15, 0.05] : [0.05, 0.15, 0.8];
    const u = rng.uniform();
    return u < p[0]! ? 0 : u < p[0]! + p[1]! ? 1 : 2;
  });
  const md = buildPreparedData(data);
  const best = (K: number) => {
    let s = -Infinity;
    for (let k = 0; k < 20; k++) {
      const res = fit(md, randomModel(md, K, createRng(100 + k), 'data'), DEFAULT_FIT);
      s = Math.max(
        s,
        logEvidence(md, res.model, res.posterior, res.logLik, res.informative, 'ema', DEFAULT_FIT.priors, 'skip'),
      );
    }
    return s;
  };
  const [e1, e2, e3] = [best(1), best(2), best(3)];
  assert.ok(e2 > e1 + 20, `K=2 ${e2} vs K=1 ${e1}`);
  assert.ok(e3 < e2 + 2, `K=3 ${e3} vs K=2 ${e2}`);
});

/** A start with given scores and memberships over a flat model (only the ranking is under test). */
function startWith(
  md: PreparedData,
  K: number,
  index: number,
  score: number,
  logLik: number,
  posterior: Float64Array,
): StartResult {
  const model = { K, weights: new Float64Array(K).fill(1 / K), theta: new Float64Array(md.totalAlleles * K).fill(0.5) };
  return {
    index,
    seed: index,
    logLik,
    score,
    iterations: 1,
    converged: true,
    model,
    posterior,
    informative: new Float64Array(md.L).fill(1),
  };
}

test('best choice by evidence: a start that empties a cluster does not win over one that uses them all', () => {
  const data = makeData(40, 3, 1, [2, 2, 2], (l, i) => (i < 20 ? (l + i) % 2 : 1 - ((l + i) % 2)));
  const md = buildPreparedData(data);
  const K = 3;
  const start = (index: number, score: number, logLik: number, emptyLast: boolean): StartResult => {
    const posterior = new Float64Array(40 * K);
    for (let d = 0; d < 40; d++) posterior[d * K + (emptyLast ? d % 2 : d % 3)] = 1;
    return startWith(md, K, index, score, logLik, posterior);
  };
  const collapsed = start(0, -10, -100, true);
  const full = start(1, -20, -90, false);
  assert.equal(combineStarts(md, [collapsed, full], 'best', 'evidence').bestStart, 1);
  assert.equal(combineStarts(md, [collapsed, full], 'best', 'likelihood').bestStart, 1);
  assert.equal(
    combineStarts(md, [collapsed, start(2, -5, -80, true)], 'best', 'evidence').bestStart,
    2,
    'when every start empties a cluster, the evidence decides',
  );
  assert.equal(liveClusters(collapsed.posterior, 40, K), 2);
});

test('cluster use: a start that spreads memberships softly over every cluster never beats a sharp start of far higher likelihood', () => {
  // The failure seen on cattle data at K = 15: the only start whose expected cluster sizes were
  // all non-negligible had judged the markers uninformative, spread every individual softly over
  // the clusters, and had a far lower likelihood; it won best choice by evidence.
  const N = 60;
  const K = 4;
  const data = makeData(N, 3, 1, [2, 2, 2], (l, i) => (i + l) % 2);
  const md = buildPreparedData(data);
  const make = (index: number, score: number, logLik: number, posterior: Float64Array) =>
    startWith(md, K, index, score, logLik, posterior);
  // Soft: everyone about 1/K in every cluster (slightly more in one), so every cluster holds N/K of mass.
  const soft = new Float64Array(N * K);
  for (let d = 0; d < N; d++) for (let c = 0; c < K; c++) soft[d * K + c] = c === d % K ? 0.28 : 0.24;
  // Sharp: three clusters hold everyone with certainty, the fourth is empty.
  const sharp = new Float64Array(N * K);
  for (let d = 0; d < N; d++) sharp[d * K + (d % 3)] = 1;
  assert.equal(liveClusters(soft, N, K), K, 'by expected mass the soft start uses every cluster');
  assert.equal(usedClusters(soft, N, K), 0);
  assert.equal(usedClusters(sharp, N, K), 3);
  const degenerate = make(0, -100, -70085, soft);
  const good = make(1, -150, -60366, sharp);
  assert.equal(combineStarts(md, [degenerate, good], 'best', 'evidence').bestStart, 1);
  assert.equal(combineStarts(md, [good, { ...degenerate, index: 2 }], 'best', 'evidence').bestStart, 1);
});
