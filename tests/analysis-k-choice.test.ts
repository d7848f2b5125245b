import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withEvannoDeltaK } from '../engine/analysis/k-choice.ts';

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
  const single = withEvannoDeltaK(perK.map((k) => ({ ...k, replicates: 1 })));
  assert.ok(
    single.every((k) => k.deltaK === undefined),
    'one replicate has no spread',
  );
});
