import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withEvannoDeltaK } from '../../engine/analysis/k-choice.ts';
import { mannWhitney, replicatesForMannWhitney, smallestMannWhitneyP } from '../../engine/util/rank-tests.ts';

test("Evanno's ΔK: |L(K+1) − 2L(K) + L(K−1)| / sd L(K), absent at the ends, for one replicate and for sd 0", () => {
  const perK = [
    { K: 1, logLikMean: -100, logLikSd: 0.5, replicates: 3 },
    { K: 2, logLikMean: -80, logLikSd: 2, replicates: 3 },
    { K: 3, logLikMean: -75, logLikSd: 1, replicates: 3 },
    { K: 4, logLikMean: -74, logLikSd: 0, replicates: 3 },
    { K: 5, logLikMean: -73.5, logLikSd: 3, replicates: 3 },
    { K: 7, logLikMean: -73, logLikSd: 3, replicates: 3 },
  ];
  const d = withEvannoDeltaK(perK);
  assert.equal(d[0]!.deltaK, undefined, 'K = 1 has no K − 1');
  assert.equal(d[1]!.deltaK, Math.abs(-75 + 160 - 100) / 2); // 7.5
  assert.equal(d[2]!.deltaK, Math.abs(-74 + 150 - 80) / 1); // 4
  assert.equal(d[3]!.deltaK, undefined, 'sd 0');
  assert.equal(d[4]!.deltaK, undefined, 'K = 6 was not run');
  assert.equal(d[5]!.deltaK, undefined, 'the last K');
  // Replicates that agree to the reported precision: no ΔK (it would divide by rounding noise).
  const agreeing = withEvannoDeltaK(perK.map((k) => (k.K === 2 ? { ...k, logLikSd: 0.004 } : k)));
  assert.equal(agreeing[1]!.deltaK, undefined, 'sd below 0.01');
  const justApart = withEvannoDeltaK(perK.map((k) => (k.K === 2 ? { ...k, logLikSd: 0.01 } : k)));
  assert.equal(justApart[1]!.deltaK, 15 / 0.01);
  const single = withEvannoDeltaK(perK.map((k) => ({ ...k, replicates: 1 })));
  assert.ok(
    single.every((k) => k.deltaK === undefined),
    'one replicate has no spread',
  );
});

test('the smallest Mann–Whitney p-value for n replicates per K: that of two completely separated samples', () => {
  for (const n of [2, 3, 4, 5, 6]) {
    const x = Array.from({ length: n }, (_, k) => k);
    const y = Array.from({ length: n }, (_, k) => n + k);
    assert.ok(Math.abs(smallestMannWhitneyP(n, n) - mannWhitney(x, y).p) < 1e-12, `n = ${n}`);
  }
  // 2 / C(6, 3) = 0.1: three replicates per K can never give p < 0.05; four can (2 / 70).
  assert.equal(smallestMannWhitneyP(3, 3), 0.1);
  assert.equal(replicatesForMannWhitney(0.05), 4);
  assert.equal(smallestMannWhitneyP(1, 1), 1);
});
