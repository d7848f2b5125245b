import { test } from 'node:test';
import assert from 'node:assert/strict';
import gammaln from '@stdlib/math-base-special-gammaln';
import { tanData } from '../../engine/model/tan/tan-data.ts';
import { emptyCounts, randomTanModel, tanCounts, tanEStep, tanMaStep } from '../../engine/model/tan/tan-model.ts';
import { createRng } from '../../engine/util/rng.ts';
import { makeData } from './synthetic.ts';

function lml(rows: number[][], alpha: number): number {
  let s = 0;
  for (const row of rows) {
    const n = row.reduce((a, b) => a + b, 0);
    s += gammaln(row.length * alpha) - gammaln(row.length * alpha + n);
    for (const x of row) s += gammaln(alpha + x) - gammaln(alpha);
  }
  return s;
}

test('EMA-TAN MA step equals the brute-force average over every TAN structure for π (n ≤ 5, 1e-9 in log space)', () => {
  for (const [n, K, seed] of [
    [3, 2, 1],
    [4, 2, 2],
    [5, 3, 3],
  ] as const) {
    const rng = createRng(seed);
    const N = 40;
    const r = Array.from({ length: n }, () => 2 + Math.floor(rng.uniform() * 2));
    const vals = r.map((ri) => Array.from({ length: N }, () => Math.floor(rng.uniform() * ri)));
    // Correlate neighbours a little so that parent sets differ in evidence.
    for (let i = 1; i < n; i++)
      for (let d = 0; d < N; d++) if (rng.uniform() < 0.5) vals[i]![d] = vals[i - 1]![d]! % r[i]!;
    const data = makeData(N, n, 1, r, (l, d) => vals[l]![d]!);
    const td = tanData(data, { window: n, order: 'file', orderSeed: 1 });
    const post = new Float64Array(N * K);
    for (let d = 0; d < N; d++) {
      let s = 0;
      for (let c = 0; c < K; c++) s += post[d * K + c] = rng.uniform() + 0.05;
      for (let c = 0; c < K; c++) post[d * K + c]! /= s;
    }
    const counts = emptyCounts(td, K);
    tanCounts(td, post, K, counts);
    const alpha = 1;
    const model = randomTanModel(td, K, createRng(9));
    tanMaStep(td, counts, K, alpha, 1, model, false);

    // Brute force. Parent sets of X_i: ∅, {C}, {X_l} and {C, X_l} for every l < i.
    type PSet = { c: boolean; l: number };
    const sets = Array.from({ length: n }, (_, i) => {
      const out: PSet[] = [
        { c: false, l: -1 },
        { c: true, l: -1 },
      ];
      for (let l = 0; l < i; l++) out.push({ c: false, l }, { c: true, l });
      return out;
    });
    const nc = Array.from({ length: K }, (_, c) =>
      Array.from({ length: N }, (_, d) => post[d * K + c]!).reduce((a, b) => a + b, 0),
    );
    // Expected counts per (variable, parent set) computed directly from the data and posteriors.
    const table = (i: number, p: PSet): number[][] => {
      const rl = p.l >= 0 ? r[p.l]! : 1;
      const configs = (p.c ? K : 1) * rl;
      const t = Array.from({ length: configs }, () => new Array<number>(r[i]!).fill(0));
      for (let d = 0; d < N; d++) {
        const xl = p.l >= 0 ? vals[p.l]![d]! : 0;
        if (p.c) for (let c = 0; c < K; c++) t[c * rl + xl]![vals[i]![d]!]! += post[d * K + c]!;
        else t[xl]![vals[i]![d]!]! += 1;
      }
      return t;
    };
    const theta = (t: number[][]) =>
      t.map((row) => row.map((x) => (alpha + x) / (row.length * alpha + row.reduce((a, b) => a + b, 0))));
    const local = sets.map((ss, i) =>
      ss.map((p) => {
        const t = table(i, p);
        return { p, ml: lml(t, alpha), th: theta(t) };
      }),
    );
    const thetaC = nc.map((x) => (1 + x) / (K + N));
    const structures: number[][] = [[]];
    for (let i = 0; i < n; i++) {
      const next: number[][] = [];
      for (const s of structures) for (let v = 0; v < sets[i]!.length; v++) next.push([...s, v]);
      structures.splice(0, structures.length, ...next);
    }
    assert.equal(
      structures.length,
      Array.from({ length: n }, (_, i) => 2 * (i + 1)).reduce((a, b) => a * b, 1),
    );
    const logPost = structures.map((s) => s.reduce((acc, v, i) => acc + local[i]![v]!.ml, 0));
    const maxLp = Math.max(...logPost);
    const z = logPost.reduce((a, b) => a + Math.exp(b - maxLp), 0);
    let worst = 0;
    const x = new Array<number>(n).fill(0);
    for (;;) {
      for (let c = 0; c < K; c++) {
        let brute = 0;
        structures.forEach((s, k) => {
          let q = thetaC[c]!;
          s.forEach((v, i) => {
            const { p, th } = local[i]![v]!;
            const rl = p.l >= 0 ? r[p.l]! : 1;
            const row = (p.c ? c * rl : 0) + (p.l >= 0 ? x[p.l]! : 0);
            q *= th[row]![x[i]!]!;
          });
          brute += (Math.exp(logPost[k]! - maxLp) / z) * q;
        });
        // The model: θ_C(c) Π_i Σ_v W_iv θ̃^v(x_i | pa^v).
        let m = Math.log(model.weights[c]!);
        for (let i = 0; i < n; i++) {
          const t = model.vars[i]!;
          const ri = r[i]!;
          const cand = td.candidates[i]!;
          let p = t.weight[0]! * t.none[x[i]!]! + t.weight[1]! * t.byC[c * ri + x[i]!]!;
          cand.forEach((l, j) => {
            const rl = r[l]!;
            p +=
              t.weight[2 + j]! * t.byL[j]![x[l]! * ri + x[i]!]! +
              t.weight[2 + cand.length + j]! * t.byCL[j]![(c * rl + x[l]!) * ri + x[i]!]!;
          });
          m += Math.log(p);
        }
        worst = Math.max(worst, Math.abs(m - Math.log(brute)));
      }
      let i = 0;
      while (i < n && ++x[i]! === r[i]) x[i++] = 0;
      if (i === n) break;
    }
    assert.ok(worst < 1e-9, `n=${n} K=${K}: max |Δ ln p| = ${worst}`);
    // The precomputed-table path and the row-by-row path give the same E step and counts.
    const slow = { ...td, parentConfig: td.parentConfig.map(() => null) };
    const q1 = new Float64Array(N * K);
    const q2 = new Float64Array(N * K);
    const ll1 = tanEStep(td, model, q1);
    const ll2 = tanEStep(slow, model, q2);
    assert.ok(Math.abs(ll1 - ll2) < 1e-9 * Math.abs(ll1), `${ll1} vs ${ll2}`);
    const c1 = emptyCounts(td, K);
    const c2 = emptyCounts(td, K);
    tanCounts(td, q1, K, c1);
    tanCounts(slow, q1, K, c2);
    c1.vars.forEach((t, i) =>
      t.byCL.forEach((a, j) => a.forEach((v, k) => assert.ok(Math.abs(v - c2.vars[i]!.byCL[j]![k]!) < 1e-9))),
    );
  }
});
