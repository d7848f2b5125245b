// The eigenvalues alone against ml-matrix's full symmetric decomposition (tred2 + tql2 with the
// vectors), on random matrices, matrices with zero rows (tred2's zero-scale branch), tied and
// negative eigenvalues, and against eigenvalues known in closed form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { symmetricEigenvalues } from '../../engine/util/symmetric-eigenvalues.ts';
import { createRng } from '../../engine/util/rng.ts';

function reference(a: Float64Array, n: number): number[] {
  const m = new Matrix(n, n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) m.set(i, j, a[i * n + j]!);
  return [...new EigenvalueDecomposition(m, { assumeSymmetric: true }).realEigenvalues].sort((x, y) => x - y);
}

function randomSymmetric(n: number, seed: number): Float64Array {
  const rng = createRng(seed);
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      const x = rng.normal();
      a[i * n + j] = x;
      a[j * n + i] = x;
    }
  return a;
}

function assertClose(actual: Float64Array, expected: number[], scale: number): void {
  assert.equal(actual.length, expected.length);
  expected.forEach((x, k) => assert.ok(Math.abs(actual[k]! - x) <= 1e-11 * scale, `λ${k}: ${actual[k]} vs ${x}`));
}

test('symmetric eigenvalues: random matrices of sizes 1 to 300 match the full decomposition', () => {
  for (const n of [1, 2, 3, 7, 40, 300]) {
    const a = randomSymmetric(n, n);
    assertClose(symmetricEigenvalues(a, n), reference(a, n), Math.max(1, Math.sqrt(n)) * 10);
  }
});

test('symmetric eigenvalues: zero rows, ties and a diagonal matrix', () => {
  const n = 6;
  const a = randomSymmetric(n, 9);
  for (let j = 0; j < n; j++) {
    a[2 * n + j] = 0;
    a[j * n + 2] = 0;
    a[4 * n + j] = 0;
    a[j * n + 4] = 0;
  }
  const values = symmetricEigenvalues(a, n);
  assertClose(values, reference(a, n), 10);
  assert.equal(values.filter((v) => Math.abs(v) < 1e-12).length, 2);
  const diagonal = new Float64Array(16);
  [3, -1, 3, 0.5].forEach((x, i) => (diagonal[i * 4 + i] = x));
  assert.deepEqual([...symmetricEigenvalues(diagonal, 4)], [-1, 0.5, 3, 3]);
});

test('symmetric eigenvalues: the path graph Laplacian, 2 − 2 cos(kπ/n)', () => {
  const n = 50;
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    a[i * n + i] = i === 0 || i === n - 1 ? 1 : 2;
    if (i + 1 < n) {
      a[i * n + i + 1] = -1;
      a[(i + 1) * n + i] = -1;
    }
  }
  const expected = Array.from({ length: n }, (_, k) => 2 - 2 * Math.cos((k * Math.PI) / n));
  assertClose(symmetricEigenvalues(a, n), expected, 10);
});
