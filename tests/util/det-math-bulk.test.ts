// det-math-bulk.ts (WebAssembly) against det-math.ts's JavaScript ln and ln Γ: the same bits on
// every class of argument fdlibm's log branches on, and on random values over many magnitudes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detLog, detLogGamma } from '../../engine/util/det-math.ts';
import { detLogInto, detLogGammaInto } from '../../engine/util/det-math-bulk.ts';
import { createRng } from '../../engine/util/rng.ts';

function values(): Float64Array {
  const rng = createRng(3);
  const special = [
    0,
    -0,
    -1,
    1,
    2,
    0.5,
    Infinity,
    -Infinity,
    NaN,
    Number.MIN_VALUE,
    2.2250738585072014e-308,
    1e-310,
    Number.MAX_VALUE,
    1 + 2 ** -52,
    1 - 2 ** -53,
    Math.SQRT2,
    Math.SQRT1_2,
    1.4142135,
    0.70710678,
    10,
    9.999999999999998,
    1e-300,
    3.7,
    1e6,
    12345.678,
  ];
  const random = Array.from({ length: 20000 }, (_, j) => {
    const u = rng.uniform();
    // Mantissas near 1 and √2 (fdlibm's branch points), and magnitudes from 1e-300 to 1e300.
    if (j % 4 === 0) return 1 + (u - 0.5) * 2 ** -(10 + (j % 40));
    if (j % 4 === 1) return Math.SQRT2 * (1 + (u - 0.5) * 1e-3) * 2 ** ((j % 200) - 100);
    if (j % 4 === 2) return u * 20;
    return Math.exp((u - 0.5) * 1380);
  });
  return Float64Array.from([...special, ...random]);
}

const same = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

test('ln over an array (WebAssembly) gives the bits of detLog, element by element', () => {
  const x = values();
  const got = new Float64Array(x.length);
  detLogInto(x, got);
  x.forEach((v, j) => assert.ok(same(got[j]!, detLog(v)), `ln ${v}: ${got[j]} vs ${detLog(v)}`));
});

test('ln Γ(shift + x) over an array (WebAssembly) gives the bits of detLogGamma, element by element', () => {
  const x = values().map((v) => Math.abs(v) % 1e4);
  for (const shift of [0, 1, 0.5, 0.1]) {
    const got = new Float64Array(x.length);
    detLogGammaInto(x, shift, got);
    x.forEach((v, j) =>
      assert.ok(same(got[j]!, detLogGamma(shift + v)), `ln Γ(${shift} + ${v}): ${got[j]} vs ${detLogGamma(shift + v)}`),
    );
  }
  // A prefix only, and arrays larger than the module's first page of memory.
  const big = Float64Array.from({ length: 50000 }, (_, j) => j / 7);
  const out = new Float64Array(big.length).fill(-1);
  detLogGammaInto(big, 1, out, 30000);
  assert.ok(same(out[29999]!, detLogGamma(1 + 29999 / 7)));
  assert.equal(out[30000], -1);
});
