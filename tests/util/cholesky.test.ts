import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choleskyInPlace, choleskyInverse, choleskySolve, invertPositiveDefinite } from '../../engine/util/cholesky.ts';
import { createRng } from '../../engine/util/rng.ts';

/** A random symmetric positive-definite n × n matrix: BBᵀ + n·I. */
function spd(n: number, seed: number): Float64Array {
  const rng = createRng(seed);
  const B = Float64Array.from({ length: n * n }, () => rng.normal());
  const M = new Float64Array(n * n);
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      let s = r === c ? n : 0;
      for (let p = 0; p < n; p++) s += B[r * n + p]! * B[c * n + p]!;
      M[r * n + c] = s;
    }
  return M;
}

test('choleskyInverse: M times the inverse is the identity (to 1e-12), the inverse is symmetric and its columns are choleskySolve’s of the unit vectors; written from an offset', () => {
  for (const n of [1, 2, 3, 5, 8, 12]) {
    const M = spd(n, n);
    const factor = Float64Array.from(M);
    assert.ok(choleskyInPlace(factor, n));
    const offset = 3;
    const out = new Float64Array(offset + n * n).fill(Number.NaN);
    choleskyInverse(factor, n, out, new Float64Array(n * n), offset);
    assert.ok(Number.isNaN(out[offset - 1]!), 'nothing written before the offset');
    const inverse = out.subarray(offset);
    for (let r = 0; r < n; r++)
      for (let c = 0; c < n; c++) {
        let s = 0;
        for (let p = 0; p < n; p++) s += M[r * n + p]! * inverse[p * n + c]!;
        assert.ok(Math.abs(s - (r === c ? 1 : 0)) < 1e-12, `n = ${n}: (M M⁻¹)[${r}, ${c}] = ${s}`);
        assert.equal(inverse[r * n + c], inverse[c * n + r]);
      }
    const unit = new Float64Array(n);
    const column = new Float64Array(n);
    for (let c = 0; c < n; c++) {
      unit.fill(0);
      unit[c] = 1;
      choleskySolve(factor, n, unit, column);
      for (let r = 0; r < n; r++)
        assert.ok(Math.abs(column[r]! - inverse[r * n + c]!) < 1e-13 * (1 + Math.abs(column[r]!)));
    }
  }
});

test('choleskyInPlace refuses a matrix that is not positive definite', () => {
  assert.equal(choleskyInPlace(Float64Array.from([1, 2, 2, 1]), 2), false);
  assert.equal(choleskyInPlace(Float64Array.from([0]), 1), false);
});

test('invertPositiveDefinite gives the loops’ bits at every n and refuses what they refuse', () => {
  for (const n of [1, 2, 8, 12, 13]) {
    const M = spd(n, 7 * n);
    const factor = Float64Array.from(M);
    assert.ok(choleskyInPlace(factor, n));
    const loops = new Float64Array(2 + n * n);
    choleskyInverse(factor, n, loops, new Float64Array(n * n), 2);
    const got = new Float64Array(2 + n * n);
    assert.ok(invertPositiveDefinite(Float64Array.from(M), n, got, new Float64Array(n * n), 2));
    for (let j = 0; j < got.length; j++) assert.ok(Object.is(got[j], loops[j]), `n = ${n}, entry ${j}`);
    const bad = Float64Array.from(M);
    bad[n * n - 1] = -1;
    assert.equal(invertPositiveDefinite(bad, n, got, new Float64Array(n * n)), false, `n = ${n}`);
  }
});
