// ln, exp, ln Γ that give the same bits in every JavaScript engine (engine/util/det-math.ts):
// within an ulp of Math (whose last bit differs between V8 versions) and exact where the value
// is known.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import gammaln from '@stdlib/math-base-special-gammaln';
import { detExp, detLog, detLog1p, detLogGamma, detPow } from '../../engine/util/det-math.ts';
import { createRng } from '../../engine/util/rng.ts';

const ulps = (a: number, b: number) => Math.abs(a - b) / (Math.abs(b) * 2 ** -52);

test('detLog and detExp: within one ulp of Math.log and Math.exp over their whole range; exact special values', () => {
  const rng = createRng(3);
  for (let i = 0; i < 100000; i++) {
    const x = (rng.uniform() - 0.5) * 1400;
    const y = detExp((rng.uniform() - 0.5) * 1400) * (1 + rng.uniform());
    assert.ok(ulps(detExp(x), Math.exp(x)) <= 1 || Math.exp(x) < 1e-300, `exp(${x})`);
    assert.ok(ulps(detLog(y), Math.log(y)) <= 1, `log(${y})`);
  }
  assert.equal(detLog(1), 0);
  assert.equal(detLog(2), Math.LN2);
  assert.equal(detLog(0), -Infinity);
  assert.ok(Number.isNaN(detLog(-1)));
  assert.equal(detLog(Infinity), Infinity);
  assert.equal(detExp(0), 1);
  assert.ok(ulps(detExp(1), Math.E) <= 1);
  assert.equal(detExp(-Infinity), 0);
  assert.equal(detExp(1000), Infinity);
  assert.equal(detLog(5e-324), -744.4400719213812);
  assert.ok(Math.abs(detLog1p(1e-20) - 1e-20) < 1e-36 && ulps(detLog1p(0.5), Math.log1p(0.5)) <= 2);
  assert.ok(ulps(detPow(2, 10), 1024) <= 2);
});

test('detLogGamma: known values and stdlib gammaln within 1e-13 (absolute, or relative above 1)', () => {
  assert.ok(Math.abs(detLogGamma(1)) < 1e-14 && Math.abs(detLogGamma(2)) < 1e-14);
  assert.ok(Math.abs(detLogGamma(0.5) - Math.log(Math.sqrt(Math.PI))) < 1e-14);
  assert.ok(Math.abs(detLogGamma(10) - Math.log(362880)) < 1e-13);
  const rng = createRng(4);
  for (let i = 0; i < 20000; i++) {
    const x = i % 2 ? rng.uniform() * 20 + 1e-6 : detExp(rng.uniform() * 20);
    const want = gammaln(x);
    assert.ok(Math.abs(detLogGamma(x) - want) <= 1e-13 * Math.max(1, Math.abs(want)), `lnΓ(${x})`);
  }
});
