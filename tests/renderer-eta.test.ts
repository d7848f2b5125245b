// The Run view's time-left estimate (renderer/src/state/eta.ts): the rate so far times the starts
// left, and no estimate (never a negative one) while the view's half-second clock lags behind the
// moment the K's first start finished.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { etaSeconds } from '../renderer/src/state/eta.ts';

test('time left: rate × starts left; none before the clock passes the first finished start', () => {
  // 4 of 10 starts in 8 s: 2 s a start, 6 left → 12 s.
  assert.equal(etaSeconds({ K: 2, done: 4, total: 10, startedAt: 1000 }, 9000), 12);
  // The first start of a K just finished at t = 5000; the clock still says 4800.
  assert.equal(etaSeconds({ K: 3, done: 1, total: 10, startedAt: 5000 }, 4800), undefined);
  assert.equal(etaSeconds({ K: 3, done: 1, total: 10, startedAt: 5000 }, 5000), undefined);
  assert.equal(etaSeconds({ K: 3, done: 10, total: 10, startedAt: 5000 }, 9000), undefined);
  assert.equal(etaSeconds({ K: 3, done: 0, total: 10 }, 9000), undefined);
});
