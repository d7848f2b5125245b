import { test } from 'node:test';
import assert from 'node:assert/strict';
import gammaln from '@stdlib/math-base-special-gammaln';
import { buildPreparedData, everyLocus } from '../../engine/model/prepared/prepared-data.ts';
import { maStep, DEFAULT_PRIORS, type Priors } from '../../engine/model/mixture/ma-step.ts';
import { eStep, eStepBuffers, expectedCounts } from '../../engine/model/mixture/e-step.ts';
import { randomModel, type MixtureModel } from '../../engine/model/mixture/mixture-model.ts';
import { createRng } from '../../engine/util/rng.ts';
import { makeData } from './synthetic.ts';

/** ln of equation 7.13's factor for one variable given counts per parent configuration (rows). */
function logML(rows: number[][], alpha: number): number {
  let s = 0;
  for (const row of rows) {
    const r = row.length;
    const n = row.reduce((a, b) => a + b, 0);
    s += gammaln(r * alpha) - gammaln(r * alpha + n);
    for (const x of row) s += gammaln(alpha + x) - gammaln(alpha);
  }
  return s;
}

/**
 * Brute force over all 2^n selective naive Bayes structures: p(c, x | D) = Σ_S p(S | D) θ̃_C(c) Π_i θ̃^S_i(x_i | c),
 * with p(S | D) ∝ p(D | S) p(S) from equation 7.13. Returns ln p(c, x | D) for every configuration.
 */
function bruteForceJoint(counts: number[][][], clusterCounts: number[], priors: Priors): Map<string, number> {
  const n = counts.length;
  const K = clusterCounts.length;
  const { alpha, alphaCluster } = priors;
  const priorInformative = priors.priorInformative as number;
  const Nc = clusterCounts.reduce((a, b) => a + b, 0);
  const thetaC = clusterCounts.map((x) => (alphaCluster + x) / (K * alphaCluster + Nc));
  const thetaDep = counts.map((byAllele) =>
    Array.from({ length: K }, (_, c) => {
      const r = byAllele.length;
      const nj = byAllele.reduce((s, row) => s + row[c]!, 0);
      return byAllele.map((row) => (alpha + row[c]!) / (r * alpha + nj));
    }),
  );
  const marg = counts.map((byAllele) => byAllele.map((row) => row.reduce((a, b) => a + b, 0)));
  const thetaInd = marg.map((m) => m.map((x) => (alpha + x) / (m.length * alpha + m.reduce((a, b) => a + b, 0))));
  const mlDep = counts.map((byAllele) =>
    logML(
      Array.from({ length: K }, (_, c) => byAllele.map((row) => row[c]!)),
      alpha,
    ),
  );
  const mlInd = marg.map((m) => logML([m], alpha));
  const structures: { logPost: number; dep: boolean[] }[] = [];
  for (let mask = 0; mask < 1 << n; mask++) {
    const dep = Array.from({ length: n }, (_, i) => ((mask >> i) & 1) === 1);
    let lp = 0;
    dep.forEach(
      (d, i) => (lp += d ? Math.log(priorInformative) + mlDep[i]! : Math.log(1 - priorInformative) + mlInd[i]!),
    );
    structures.push({ logPost: lp, dep });
  }
  const maxLp = Math.max(...structures.map((s) => s.logPost));
  const z = structures.reduce((a, s) => a + Math.exp(s.logPost - maxLp), 0);
  const out = new Map<string, number>();
  const r = counts.map((c) => c.length);
  const config = new Array<number>(n).fill(0);
  for (;;) {
    for (let c = 0; c < K; c++) {
      let p = 0;
      for (const s of structures) {
        let q = thetaC[c]!;
        for (let i = 0; i < n; i++) q *= s.dep[i] ? thetaDep[i]![c]![config[i]!]! : thetaInd[i]![config[i]!]!;
        p += (Math.exp(s.logPost - maxLp) / z) * q;
      }
      out.set(`${c}|${config.join(',')}`, Math.log(p));
    }
    let i = 0;
    while (i < n && ++config[i]! === r[i]) config[i++] = 0;
    if (i === n) break;
  }
  return out;
}

test('MA step equals the brute-force average over all 2^n selective naive Bayes structures (n ≤ 8, 1e-9 in log space)', () => {
  const rng = createRng(11);
  for (const [n, K] of [
    [3, 2],
    [5, 3],
    [8, 2],
  ] as const) {
    for (const priors of [
      { ...DEFAULT_PRIORS, priorInformative: 0.5 },
      { alpha: 0.5, alphaCluster: 2, priorInformative: 0.2 },
    ]) {
      const r = Array.from({ length: n }, () => 2 + Math.floor(rng.uniform() * 2));
      const data = buildPreparedData(makeData(1, n, 1, r, () => 0));
      // Random expected counts, some strongly and some weakly cluster-dependent.
      const counts = r.map((ri, i) =>
        Array.from({ length: ri }, () => Array.from({ length: K }, () => (i % 2 === 0 ? 40 : 5) * rng.uniform())),
      );
      const clusterCounts = Array.from({ length: K }, () => 10 + 30 * rng.uniform());
      const alleleCluster = new Float64Array(data.totalAlleles * K);
      counts.forEach((byAllele, i) =>
        byAllele.forEach((row, a) => row.forEach((x, c) => (alleleCluster[(data.offsets[i]! + a) * K + c] = x))),
      );
      const model: MixtureModel = { K, weights: new Float64Array(K), theta: new Float64Array(data.totalAlleles * K) };
      const w = new Float64Array(n);
      maStep(data, { alleleCluster, cluster: Float64Array.from(clusterCounts) }, K, priors, 'ema', model, w);
      const brute = bruteForceJoint(counts, clusterCounts, priors);
      let worst = 0;
      for (const [key, logP] of brute) {
        const [c, xs] = key.split('|') as [string, string];
        let m = Math.log(model.weights[Number(c)]!);
        xs.split(',').forEach((x, i) => (m += Math.log(model.theta[(data.offsets[i]! + Number(x)) * K + Number(c)]!)));
        worst = Math.max(worst, Math.abs(m - logP));
      }
      assert.ok(worst < 1e-9, `n=${n} K=${K}: max |Δ ln p| = ${worst}`);
      assert.ok(w.every((x) => x >= 0 && x <= 1));
    }
  }
});

/** Brute-force E step: enumerate every completion of the missing copies of each individual. */
function bruteForceCounts(
  N: number,
  L: number,
  P: number,
  r: number[],
  calls: number[][][],
  model: MixtureModel,
  fillMissing: boolean,
) {
  const K = model.K;
  const offsets = [0];
  for (const x of r) offsets.push(offsets[offsets.length - 1]! + x);
  const cnt = new Float64Array(offsets[L]! * K);
  const cl = new Float64Array(K);
  let ll = 0;
  for (let d = 0; d < N; d++) {
    const slots: [number, number][] = [];
    for (let l = 0; l < L; l++) for (let p = 0; p < P; p++) if (calls[l]![d]![p] === -1) slots.push([l, p]);
    const completions: { c: number; fill: number[]; prob: number }[] = [];
    let total = 0;
    let totalObserved = 0;
    for (let c = 0; c < K; c++) {
      let obs = model.weights[c]!;
      for (let l = 0; l < L; l++)
        for (let p = 0; p < P; p++) {
          const a = calls[l]![d]![p]!;
          if (a >= 0) obs *= model.theta[(offsets[l]! + a) * K + c]!;
        }
      totalObserved += obs;
      const fill = new Array<number>(slots.length).fill(0);
      for (;;) {
        let q = obs;
        slots.forEach(([l], k) => (q *= model.theta[(offsets[l]! + fill[k]!) * K + c]!));
        completions.push({ c, fill: [...fill], prob: q });
        total += q;
        let k = 0;
        while (k < slots.length && ++fill[k]! === r[slots[k]![0]]!) fill[k++] = 0;
        if (k === slots.length) break;
      }
    }
    ll += Math.log(totalObserved);
    for (const { c, fill, prob } of completions) {
      const post = prob / total;
      cl[c]! += post;
      for (let l = 0; l < L; l++)
        for (let p = 0; p < P; p++) {
          let a = calls[l]![d]![p]!;
          if (a === -1) {
            if (!fillMissing) continue;
            a = fill[slots.findIndex(([sl, sp]) => sl === l && sp === p)]!;
          }
          cnt[(offsets[l]! + a) * K + c]! += post;
        }
    }
  }
  return { cnt, cl, ll };
}

test('E step and expected counts equal brute-force enumeration, with missing copies skipped or filled in expectation, for every K the unrolled kernels handle', () => {
  const rng = createRng(5);
  const N = 7;
  const L = 3;
  const P = 3;
  const r = [2, 3, 2];
  const calls = r.map((ri) =>
    Array.from({ length: N }, () =>
      Array.from({ length: P }, () => (rng.uniform() < 0.2 ? -1 : Math.floor(rng.uniform() * ri))),
    ),
  );
  const data = buildPreparedData(makeData(N, L, P, r, (l, i, p) => calls[l]![i]![p]!));
  // Columns go in blocks of up to 8 (genotype-rows.ts): every block width, and two and three blocks.
  for (const K of [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 17]) {
    const model = randomModel(data, K, createRng(9 + K));
    const w = Array.from({ length: K }, (_, c) => 1 + ((c * 7) % 5));
    const sum = w.reduce((a, b) => a + b, 0);
    model.weights.set(w.map((x) => x / sum));
    const buf = eStepBuffers(data, K);
    const ll = eStep(data, model, buf);
    for (const mode of ['skip', 'expect'] as const) {
      const got = expectedCounts(data, model, buf.posterior, mode);
      const want = bruteForceCounts(N, L, P, r, calls, model, mode === 'expect');
      assert.ok(Math.abs(ll - want.ll) < 1e-9, `K = ${K}: log-likelihood ${ll} vs ${want.ll}`);
      got.alleleCluster.forEach((x, k) =>
        assert.ok(Math.abs(x - want.cnt[k]!) < 1e-9, `K = ${K}, ${mode} count ${k}: ${x} vs ${want.cnt[k]}`),
      );
      got.cluster.forEach((x, c) => assert.ok(Math.abs(x - want.cl[c]!) < 1e-9));
    }
  }
});

test('locus groups: the E step and expected counts over combined genotypes of consecutive loci equal those locus by locus (SNPs with missing copies, multi-allelic loci mixed in)', () => {
  const rng = createRng(21);
  const N = 400;
  const r = [2, 2, 2, 3, 2, 2, 7, 2, 2, 2, 2];
  const L = r.length;
  const data = buildPreparedData(
    makeData(N, L, 2, r, (l) => (rng.uniform() < 0.05 ? -1 : Math.floor(rng.uniform() * Math.min(r[l]!, 3)))),
  );
  const g = data.groups;
  // Grouping is on: N / 8 = 50, so up to three SNPs (3 or 4 genotypes, 6 with half-missing ones) share a code.
  assert.ok(g.first.length - 1 < L, `groups ${Array.from(g.first)}`);
  assert.ok(Array.from(g.row).some((x) => x >= 0));
  const single = {
    ...data,
    locusCodes: everyLocus(data).genotypeOf,
    groups: {
      first: Int32Array.from({ length: L + 1 }, (_, i) => i),
      row: new Int32Array(L).fill(-1),
      size: Int32Array.from({ length: L }, (_, i) => data.genotypeOffsets[i + 1]! - data.genotypeOffsets[i]!),
      codes: new Uint8Array(0),
      maxCombined: 1,
    },
  };
  for (const K of [2, 3, 5]) {
    const model = randomModel(data, K, createRng(K));
    const a = eStepBuffers(data, K);
    const b = eStepBuffers(single, K);
    const llA = eStep(data, model, a);
    const llB = eStep(single, model, b);
    assert.ok(Math.abs(llA - llB) < 1e-8 * Math.abs(llB), `K = ${K}: ln L ${llA} vs ${llB}`);
    a.posterior.forEach((x, k) => assert.ok(Math.abs(x - b.posterior[k]!) < 1e-9, `K = ${K}: posterior ${k}`));
    for (const mode of ['skip', 'expect'] as const) {
      const ca = expectedCounts(data, model, b.posterior, mode);
      const cb = expectedCounts(single, model, b.posterior, mode);
      ca.alleleCluster.forEach((x, k) =>
        assert.ok(
          Math.abs(x - cb.alleleCluster[k]!) < 1e-9,
          `K = ${K}, ${mode}: count ${k} ${x} vs ${cb.alleleCluster[k]}`,
        ),
      );
    }
  }
});
