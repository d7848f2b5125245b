// The structure searches' local scores (engine/classify/local-scores.ts) against the formulas
// written out plainly — count tables from the rows, every term with its own logarithm — on random
// data with missing values, unlabelled rows, 2 to 5 classes, 0 to 3 parents and features with
// many states (the hashed tables); and BIC's bound, which lets BCkG skip subsets, never cuts a
// subset that scores above it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CategoricalData } from '../../engine/classify/categorical.ts';
import { ACL_SMOOTHING, LocalScorer, type Score } from '../../engine/classify/local-scores.ts';
import { scorerFor } from '../../engine/classify/bckg.ts';
import { learnStructure, structureSearchWork } from '../../engine/classify/learn-structure.ts';
import { acllBetaCached } from '../../engine/classify/acll.ts';
import { logGamma } from '../../engine/util/log-math.ts';
import { createRng } from '../../engine/util/rng.ts';

/** Counts per parent configuration q (without the class): a (class, state) table K × r. */
function tables(d: CategoricalData, i: number, parents: readonly number[]): Map<number, number[]> {
  const K = d.classes.length;
  const r = d.states[i]!;
  const out = new Map<number, number[]>();
  for (let row = 0; row < d.N; row++) {
    const y = d.labels[row]!;
    const x = d.values[row * d.n + i]!;
    if (y < 0 || x < 0) continue;
    let q = 0;
    for (const p of parents) {
      const v = d.values[row * d.n + p]!;
      q = q * (d.states[p]! + 1) + (v < 0 ? d.states[p]! : v);
    }
    if (!out.has(q)) out.set(q, Array<number>(K * r).fill(0));
    out.get(q)![y * r + x]!++;
  }
  return out;
}

function referenceScore(d: CategoricalData, i: number, parents: readonly number[], score: Score): number {
  const K = d.classes.length;
  const r = d.states[i]!;
  const t = tables(d, i, parents);
  let s = 0;
  let n = 0;
  const classSize = Array<number>(K).fill(0);
  for (const table of t.values())
    for (let c = 0; c < K; c++)
      for (let x = 0; x < r; x++) {
        n += table[c * r + x]!;
        classSize[c]! += table[c * r + x]!;
      }
  for (const table of t.values())
    for (let c = 0; c < K; c++) {
      const own = table.slice(c * r, c * r + r);
      const others = own.map((_, x) =>
        table.reduce((a, v, j) => (j % r === x && Math.floor(j / r) !== c ? a + v : a), 0),
      );
      const nc = own.reduce((a, b) => a + b, 0);
      if (score === 'll' || score === 'bic') {
        for (const v of own) if (v > 0) s += v * Math.log(v / nc);
      } else if (score === 'k2') {
        if (nc > 0) s += logGamma(r) - logGamma(r + nc) + own.reduce((a, v) => a + logGamma(1 + v), 0);
      } else if (score === 'acll') {
        const beta = acllBetaCached(K);
        const w = own.map((v, x) => (1 + beta) * v + beta * others[x]!);
        const plus = w.map((v) => Math.max(0.5, v));
        const sum = plus.reduce((a, b) => a + b, 0);
        w.forEach((v, x) => v !== 0 && (s += v * Math.log(plus[x]! / sum)));
      } else {
        const rest = n - classSize[c]!;
        const weight = rest > 0 ? classSize[c]! / rest : 0;
        const w = own.map((v, x) => v - weight * others[x]!);
        const min = Math.min(...w);
        const theta = own.map((v, x) =>
          score === 'acl'
            ? v + ACL_SMOOTHING
            : score === 'acl-max'
              ? Math.max(w[x]!, 0) + ACL_SMOOTHING
              : w[x]! - min + ACL_SMOOTHING,
        );
        const sum = theta.reduce((a, b) => a + b, 0);
        w.forEach((v, x) => v !== 0 && (s += v * Math.log(theta[x]! / sum)));
      }
    }
  if (score === 'bic') {
    let configs = K;
    for (const p of parents) configs *= d.states[p]! + 1;
    s -= 0.5 * Math.log(Math.max(1, n)) * configs * (r - 1);
  }
  return s;
}

function randomData(seed: number, N: number, n: number, K: number, maxStates: number): CategoricalData {
  const rng = createRng(seed);
  const states = Int32Array.from({ length: n }, () => 2 + Math.floor(rng.uniform() * (maxStates - 1)));
  const values = new Int16Array(N * n);
  const labels = Int32Array.from({ length: N }, () => (rng.uniform() < 0.1 ? -1 : Math.floor(rng.uniform() * K)));
  for (let row = 0; row < N; row++)
    for (let i = 0; i < n; i++)
      values[row * n + i] = rng.uniform() < 0.08 ? -1 : Math.floor(rng.uniform() * states[i]!);
  return {
    N,
    n,
    states,
    values,
    labels,
    classes: Array.from({ length: K }, (_, k) => `c${k}`),
    features: Array.from({ length: n }, (_, i) => `f${i}`),
  };
}

test('local scores equal the formulas written out, for every score, 0–3 parents, dense and hashed tables', () => {
  const cases: [number, number, number, number][] = [
    [40, 8, 3, 4],
    [200, 6, 5, 7],
    [30, 5, 2, 3],
    [300, 4, 4, 60], // many states: (class, parents) tables too large to hold densely
  ];
  let worst = 0;
  cases.forEach(([N, n, K, S], c) => {
    const d = randomData(c + 1, N, n, K, S);
    for (const score of ['ll', 'bic', 'k2', 'acll', 'acl', 'acl-mid', 'acl-max'] as const) {
      const scorer = new LocalScorer(d, score);
      for (let i = 0; i < n; i++)
        for (const parents of [
          [],
          [(i + 1) % n],
          [(i + 1) % n, (i + 2) % n],
          [(i + 1) % n, (i + 2) % n, (i + 3) % n],
        ]) {
          const want = referenceScore(d, i, parents, score);
          const got = scorer.score(i, parents);
          const e = Math.abs(got - want) / Math.max(1, Math.abs(want));
          worst = Math.max(worst, e);
          assert.ok(e < 1e-10, `${score}, feature ${i}, parents ${parents}: ${got} vs ${want}`);
          const bound = scorer.bound(i, parents);
          assert.ok(got <= bound + 1e-9, `${score}: the bound ${bound} is below the score ${got}`);
        }
    }
  });
  assert.ok(worst < 1e-10);
});

test("ACL's WebAssembly case gives the JavaScript's scores bit for bit (0–2 parents, missing values)", () => {
  const d = randomData(17, 120, 9, 3, 3);
  const wasm = new LocalScorer(d, 'acl');
  const js = new LocalScorer(d, 'acl', { wasm: false });
  let compared = 0;
  for (let i = 0; i < d.n; i++)
    for (let j = 0; j < d.n; j++)
      for (const parents of [[], [j], ...Array.from({ length: d.n }, (_, m) => [j, m])]) {
        if (parents.includes(i) || (parents.length === 2 && parents[0] === parents[1])) continue;
        assert.ok(Object.is(wasm.score(i, parents), js.score(i, parents)), `feature ${i}, parents ${parents}`);
        compared++;
      }
  assert.ok(compared > 500);
});

/**
 * BCkG's search for feature i subset by subset, as bckgParents runs it without a whole-search
 * kernel: subsets of at most k candidates in lexicographic order of positions, the first best kept
 * unless a later one beats it by more than 1e-12.
 */
function searchBySubsets(scorer: LocalScorer, i: number, candidates: readonly number[], k: number) {
  let best: number[] = [];
  let bestScore = scorer.score(i, []);
  for (let a = 0; a < candidates.length; a++) {
    const one = scorer.score(i, [candidates[a]!]);
    if (one > bestScore + 1e-12) [best, bestScore] = [[a], one];
    if (k < 2) continue;
    for (let b = a + 1; b < candidates.length; b++) {
      const two = scorer.score(i, [candidates[a]!, candidates[b]!]);
      if (two > bestScore + 1e-12) [best, bestScore] = [[a, b], two];
    }
  }
  return { positions: best, score: bestScore };
}

test("whole-search kernels choose the subset-by-subset search's parents (ACL by rows: its bits; bit sets, every score: to 1e-12)", () => {
  // [N, features, classes, most states]: row sets of one, two (at most 128 rows) and three words;
  // two and three states (the bit sets' general and written-out cases); four states (no bit sets).
  const cases: [number, number, number, number][] = [
    [50, 7, 3, 3],
    [150, 6, 4, 3],
    [64, 7, 2, 3],
    [130, 6, 5, 3],
    [60, 6, 3, 5],
  ];
  let searches = 0;
  cases.forEach(([N, n, K, S], c) => {
    const d = randomData(60 + c, N, n, K, S);
    for (const score of ['acl', 'll', 'bic', 'k2', 'acll', 'acl-mid', 'acl-max'] as const) {
      const js = new LocalScorer(d, score, { wasm: false });
      const rows = new LocalScorer(d, score, { search: 'rows' });
      const bits = new LocalScorer(d, score);
      const rng = createRng(70 + c);
      for (let i = 0; i < n; i++)
        for (const k of [1, 2]) {
          const candidates = Array.from({ length: n }, (_, j) => j).filter((j) => j !== i);
          for (let m = candidates.length - 1; m > 0; m--) {
            const j = Math.floor(rng.uniform() * (m + 1));
            [candidates[m], candidates[j]] = [candidates[j]!, candidates[m]!];
          }
          const want = searchBySubsets(js, i, candidates, k);
          const where = `${score}, case ${c}, feature ${i}, k ${k}`;
          const byRows = rows.searchSubsets(i, candidates, k);
          if (score === 'acl') {
            assert.deepEqual(byRows!.positions, want.positions, `rows: ${where}`);
            assert.ok(Object.is(byRows!.score, want.score), `rows: ${byRows!.score} vs ${want.score}`);
          } else assert.equal(byRows, undefined);
          const byBits = bits.searchSubsets(i, candidates, k);
          // Bit sets hold features of at most three states and missing; with more, ACL counts rows.
          if (S > 3 && score !== 'acl') {
            assert.equal(byBits, undefined);
            continue;
          }
          assert.deepEqual(byBits!.positions, want.positions, `bits: ${where}`);
          assert.ok(Math.abs(byBits!.score - want.score) <= 1e-12 * Math.max(1, Math.abs(want.score)), where);
          searches++;
        }
    }
  });
  // Seven scores on the four cases of bit sets' features, and ACL's rows on the last, each k = 1, 2.
  assert.equal(searches, (7 * (7 + 6 + 7 + 6) + 6) * 2);
});

test('the work said before a search is the local scores it evaluates (BCkG without a bound: exactly; kDB: at most)', () => {
  const d = randomData(9, 60, 14, 3, 4);
  for (const [kind, score] of [
    ['bckg', 'k2'],
    ['kdb', 'acl'],
  ] as const) {
    const scorer = scorerFor(d, score);
    const original = scorer.score.bind(scorer);
    let calls = 0;
    scorer.score = (i, parents) => {
      calls++;
      return original(i, parents);
    };
    try {
      learnStructure(d, kind, 2, score);
    } finally {
      scorer.score = original;
    }
    const work = structureSearchWork(d.n, kind, 2, score);
    if (kind === 'bckg') assert.equal(calls, work);
    else assert.ok(calls <= work && calls > 0, `${calls} calls, ${work} said`);
  }
});
