import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CategoricalData } from '../../engine/classify/categorical.ts';
import { ACL_SMOOTHING, kdbParentsByScore, localScore, structureScore } from '../../engine/classify/bckg.ts';
import { classMI } from '../../engine/classify/network-structure.ts';
import { createRng } from '../../engine/util/rng.ts';

const ACL_SCORES = ['acl', 'acl-mid', 'acl-max'] as const;

function table(
  N: number,
  n: number,
  states: number[],
  K: number,
  cell: (d: number, i: number) => number,
  labels: number[],
) {
  const values = new Int16Array(N * n);
  for (let d = 0; d < N; d++) for (let i = 0; i < n; i++) values[d * n + i] = cell(d, i);
  const out: CategoricalData = {
    N,
    n,
    states: Int32Array.from(states),
    values,
    labels: Int32Array.from(labels),
    classes: Array.from({ length: K }, (_, k) => `c${k}`),
    features: Array.from({ length: n }, (_, i) => `x${i}`),
  };
  return out;
}

/**
 * The ACL of a whole structure written as the paper writes it, over data points rather than counts:
 * Σ_c [Σ_{d ∈ D_c} ln P_c(x_d) − w_c Σ_{d ∉ D_c} ln P_c(x_d)], w_c = n_c / n_¬c, with P_c the product
 * of the CPT entries θ^c_i(x_di | parents) and θ set by the variant's rule from the counts.
 */
function directAcl(d: CategoricalData, parents: number[][], variant: (typeof ACL_SCORES)[number]): number {
  const K = d.classes.length;
  const sizes = Array.from({ length: K }, (_, c) => d.labels.filter((y) => y === c).length);
  const config = (row: number, i: number) =>
    parents[i]!.reduce((q, p) => q * d.states[p]! + d.values[row * d.n + p]!, 0);
  /** θ^c_i(x | q) by the variant's rule. */
  const theta = (c: number, i: number, q: number, x: number): number => {
    const r = d.states[i]!;
    const w = sizes[c]! / (d.N - sizes[c]!);
    const own = new Array(r).fill(0);
    const extra = new Array(r).fill(0);
    for (let row = 0; row < d.N; row++) {
      if (config(row, i) !== q) continue;
      const v = d.values[row * d.n + i]!;
      if (d.labels[row] === c) own[v]++;
      else extra[v] += w;
    }
    const diff = own.map((o, k) => o - extra[k]);
    const e = ACL_SMOOTHING;
    const raw =
      variant === 'acl'
        ? own.map((o) => o + e)
        : variant === 'acl-max'
          ? diff.map((v) => (v > 0 ? v + e : e))
          : diff.map((v) => v - Math.min(...diff) + e);
    return raw[x]! / raw.reduce((a, b) => a + b, 0);
  };
  let total = 0;
  for (let c = 0; c < K; c++) {
    const w = sizes[c]! / (d.N - sizes[c]!);
    for (let row = 0; row < d.N; row++) {
      let lnP = 0;
      for (let i = 0; i < d.n; i++) lnP += Math.log(theta(c, i, config(row, i), d.values[row * d.n + i]!));
      total += d.labels[row] === c ? lnP : -w * lnP;
    }
  }
  return total;
}

test("ACL: the decomposed score equals the paper's product over data points, for ML, Mid and Max parameters", () => {
  const rng = createRng(4);
  const N = 40;
  const labels = Array.from({ length: N }, (_, d) => (d < 13 ? 0 : d < 30 ? 1 : 2));
  const d = table(
    N,
    3,
    [2, 3, 2],
    3,
    (row, i) => {
      const y = labels[row]!;
      const r = i === 1 ? 3 : 2;
      return rng.uniform() < 0.5 ? (y + i) % r : Math.floor(rng.uniform() * r);
    },
    labels,
  );
  const parents = [[], [0], [0, 1]];
  for (const score of ACL_SCORES) {
    const decomposed = structureScore(
      d,
      parents.map((p) => Int32Array.from(p)),
      score,
    );
    const direct = directAcl(d, parents, score);
    assert.ok(
      Math.abs(decomposed - direct) < 1e-9 * Math.max(1, Math.abs(direct)),
      `${score}: ${decomposed} vs ${direct}`,
    );
  }
});

/**
 * The paper's simulation (section 4.2.1) in miniature: y copies x1 in 80 % of cases in both
 * classes (a strong, non-discriminative link), and x2 tilts y one way in class 0 and the other in
 * class 1 (a weak, discriminative link) so that P(y | x1, c) is the same in both classes.
 */
function discriminativeLink(seed: number, N: number) {
  const rng = createRng(seed);
  const labels = Array.from({ length: N }, (_, d) => d % 2);
  const rows: number[][] = labels.map((c) => {
    const x1 = rng.uniform() < 0.5 ? 1 : 0;
    const x2 = rng.uniform() < 0.5 ? 1 : 0;
    const tilt = 0.08 * (x2 === 1 ? 1 : -1) * (c === 0 ? 1 : -1);
    const y = rng.uniform() < 0.1 + 0.8 * x1 + tilt ? 1 : 0;
    return [x1, x2, y];
  });
  return table(N, 3, [2, 2, 2], 2, (d, i) => rows[d]![i]!, labels);
}

test('ACL prefers the weak class-discriminative parent that likelihood scores pass over (Burge & Lane 4.2.1)', () => {
  const d = discriminativeLink(8, 4000);
  for (const score of ['ll', 'bic', 'k2'] as const)
    assert.ok(localScore(d, 2, [0], score) > localScore(d, 2, [1], score), `${score} prefers the strong link x1 → y`);
  for (const score of ACL_SCORES)
    assert.ok(
      localScore(d, 2, [1], score) > localScore(d, 2, [0], score),
      `${score}: ${localScore(d, 2, [1], score)} (x2) vs ${localScore(d, 2, [0], score)} (x1)`,
    );
});

test('kDB by score with k = 1: each feature takes the earlier feature (Sahami order) of best local score, if it raises the score', () => {
  const d = discriminativeLink(9, 600);
  for (const score of ['ll', 'bic', 'acl', 'acl-mid'] as const) {
    const parents = kdbParentsByScore(d, 1, score);
    const mi = Array.from({ length: d.n }, (_, i) => classMI(d, i));
    const order = Array.from({ length: d.n }, (_, i) => i).sort((a, b) => mi[b]! - mi[a]! || a - b);
    order.forEach((i, pos) => {
      let want: number[] = [];
      let best = localScore(d, i, [], score);
      for (const j of order.slice(0, pos))
        if (localScore(d, i, [j], score) > best + 1e-12) {
          best = localScore(d, i, [j], score);
          want = [j];
        }
      assert.deepEqual(Array.from(parents[i]!), want, `${score}: feature ${i}`);
    });
  }
});
