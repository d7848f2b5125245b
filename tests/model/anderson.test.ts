// The small dense solver of Anderson acceleration's least-squares step, checked by multiplying back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { solveSmall } from '../../engine/model/admixture/anderson.ts';
import { createRng } from '../../engine/util/rng.ts';

test('anderson: solveSmall solves A x = b, also when the first pivot is zero (row exchange needed)', () => {
  const rng = createRng(7);
  for (const m of [1, 2, 3, 5]) {
    const A = Float64Array.from({ length: m * m }, () => rng.uniform() - 0.5);
    if (m > 1) A[0] = 0;
    const b = Float64Array.from({ length: m }, () => rng.uniform());
    const x = solveSmall(Float64Array.from(A), b, m);
    for (let r = 0; r < m; r++) {
      let s = 0;
      for (let c = 0; c < m; c++) s += A[r * m + c]! * x[c]!;
      assert.ok(Math.abs(s - b[r]!) < 1e-10, `m = ${m}, row ${r}: ${s} vs ${b[r]}`);
    }
  }
});
