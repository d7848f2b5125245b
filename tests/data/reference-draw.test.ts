import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drawReference, splitShards } from '../../engine/data/reference-draw.ts';

const cohort = (sizes: Record<string, number>) =>
  Object.entries(sizes).flatMap(([population, n]) => Array.from({ length: n }, () => ({ population })));

test('a reference drawn by population takes each population in proportion (largest remainders), at random within it', () => {
  // 50 / 30 / 20 individuals, a reference of 15: exact shares 7.5, 4.5, 3 → 8, 4, 3 (ties to the first met).
  const inds = cohort({ a: 50, b: 30, c: 20 });
  const ref = drawReference(inds, 15, 3, 'by-population');
  const count = (p: string) => ref.filter((i) => inds[i]!.population === p).length;
  assert.deepEqual([count('a'), count('b'), count('c')], [8, 4, 3]);
  assert.deepEqual(
    ref,
    [...ref].sort((x, y) => x - y),
    'ascending',
  );
  assert.equal(new Set(ref).size, 15, 'no individual twice');
  // Seeded: the same seed the same draw; another seed another.
  assert.deepEqual(drawReference(inds, 15, 3, 'by-population'), ref);
  assert.notDeepEqual(drawReference(inds, 15, 4, 'by-population'), ref);
  // Individuals without a population are a group of their own.
  const unlabelled = [...cohort({ a: 10 }), ...Array.from({ length: 10 }, () => ({}))];
  assert.equal(drawReference(unlabelled, 4, 1, 'by-population').filter((i) => i >= 10).length, 2);
});

test('a random reference: every individual as likely (a seeded draw, counted over many seeds)', () => {
  const inds = cohort({ a: 10 });
  const hits = new Array<number>(10).fill(0);
  for (let seed = 0; seed < 2000; seed++) for (const i of drawReference(inds, 3, seed, 'random')) hits[i]!++;
  // Each is drawn with probability 3/10: 600 of 2000 expected, sd ≈ 20.5.
  for (const h of hits) assert.ok(Math.abs(h - 600) < 90, `${h}`);
});

test('reference sizes outside 2..N−1 and shard counts outside 1..n are refused', () => {
  const inds = cohort({ a: 10 });
  assert.throws(() => drawReference(inds, 10, 1, 'random'), /from 2 to 9/);
  assert.throws(() => drawReference(inds, 1, 1, 'random'), /from 2 to 9/);
  assert.throws(() => splitShards([1, 2, 3], 4), /from 1 to 3/);
  assert.deepEqual(splitShards([1, 2, 3, 4, 5, 6, 7], 3), [
    [1, 2],
    [3, 4],
    [5, 6, 7],
  ]);
});
