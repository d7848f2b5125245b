// The Run view's time-left estimate (renderer/src/state/eta.ts): the rate so far times the starts
// left, and no estimate (never a negative one) while the view's half-second clock lags behind the
// moment the K's first start finished.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cvEtaSeconds,
  earlyEtaSeconds,
  etaSeconds,
  formatDuration,
  sweepEtaSeconds,
} from '../../renderer/src/state/eta.ts';

test('time left: rate × starts left; none before the clock passes the first finished start', () => {
  // 4 of 10 starts in 8 s: 2 s a start, 6 left → 12 s.
  assert.equal(etaSeconds({ K: 2, done: 4, total: 10, startedAt: 1000 }, 9000), 12);
  // The first start of a K just finished at t = 5000; the clock still says 4800.
  assert.equal(etaSeconds({ K: 3, done: 1, total: 10, startedAt: 5000 }, 4800), undefined);
  assert.equal(etaSeconds({ K: 3, done: 1, total: 10, startedAt: 5000 }, 5000), undefined);
  assert.equal(etaSeconds({ K: 3, done: 10, total: 10, startedAt: 5000 }, 9000), undefined);
  assert.equal(etaSeconds({ K: 3, done: 0, total: 10 }, 9000), undefined);
});

test('time left for the whole sweep: work weighted by K, elapsed scaled by work left over work done', () => {
  const progress = [
    { K: 2, done: 10, total: 10 },
    { K: 3, done: 5, total: 10 },
    { K: 4, done: 0, total: 10 },
  ];
  // Work done 2·10 + 3·5 = 35 of 2·10 + 3·10 + 4·10 = 90 in 70 s: 2 s per unit, 55 units left → 110 s.
  assert.equal(sweepEtaSeconds(progress, 0, 70_000), 110);
  assert.equal(
    sweepEtaSeconds(
      progress.map((p) => ({ ...p, done: 0 })),
      0,
      70_000,
    ),
    undefined,
  );
  assert.equal(
    sweepEtaSeconds(
      progress.map((p) => ({ ...p, done: p.total })),
      0,
      70_000,
    ),
    undefined,
  );
  assert.equal(sweepEtaSeconds(progress, 70_000, 70_000), undefined, 'no time has passed');
  assert.equal(formatDuration(42.4), '42 s');
  assert.equal(formatDuration(185), '3 min 05 s');
  assert.equal(formatDuration(3720), '1 h 02 min');
});

test('time left for the cross-validation: time per fold so far × folds left; none before the first fold or after the last', () => {
  // 3 of 15 folds in 6 s: 2 s a fold, 12 left → 24 s.
  assert.equal(cvEtaSeconds({ completed: 3, total: 15, startedAt: 1000 }, 7000), 24);
  assert.equal(cvEtaSeconds({ completed: 0, total: 15, startedAt: 1000 }, 7000), undefined);
  assert.equal(cvEtaSeconds({ completed: 15, total: 15, startedAt: 1000 }, 7000), undefined);
});

test("before any start finishes: the engine's estimate less the time since it came, never below 0; none once a start has finished", () => {
  const progress = [
    { K: 2, done: 0, total: 3 },
    { K: 3, done: 0, total: 3 },
  ];
  assert.equal(earlyEtaSeconds(progress, null, 5000), undefined);
  assert.equal(earlyEtaSeconds(progress, { seconds: 30, at: 1000 }, 5000), 26);
  assert.equal(earlyEtaSeconds(progress, { seconds: 3, at: 1000 }, 5000), 0);
  assert.equal(
    earlyEtaSeconds([{ K: 2, done: 1, total: 3 }, progress[1]!], { seconds: 30, at: 1000 }, 5000),
    undefined,
  );
});
