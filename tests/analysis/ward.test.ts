import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kMeans, wardCut, wardMerges } from '../../engine/analysis/ward.ts';
import { createRng } from '../../engine/util/rng.ts';

/** Ward's clustering by its definition: merge, at each step, the pair whose union adds least to the within-cluster sum of squares. */
function bruteForceWard(points: Float64Array, n: number, d: number): Map<number, Int32Array> {
  let clusters: number[][] = Array.from({ length: n }, (_, i) => [i]);
  const sse = (members: number[]) => {
    let s = 0;
    for (let j = 0; j < d; j++) {
      const mean = members.reduce((a, i) => a + points[i * d + j]!, 0) / members.length;
      for (const i of members) s += (points[i * d + j]! - mean) ** 2;
    }
    return s;
  };
  const out = new Map<number, Int32Array>();
  const labels = () => {
    const l = new Int32Array(n);
    const order = [...clusters].sort((a, b) => Math.min(...a) - Math.min(...b));
    order.forEach((members, k) => members.forEach((i) => (l[i] = k)));
    return l;
  };
  out.set(n, labels());
  while (clusters.length > 1) {
    let best = { x: 0, y: 1, cost: Infinity };
    for (let x = 0; x < clusters.length; x++)
      for (let y = x + 1; y < clusters.length; y++) {
        const cost = sse([...clusters[x]!, ...clusters[y]!]) - sse(clusters[x]!) - sse(clusters[y]!);
        if (cost < best.cost) best = { x, y, cost };
      }
    const merged = [...clusters[best.x]!, ...clusters[best.y]!];
    clusters = clusters.filter((_, k) => k !== best.x && k !== best.y);
    clusters.push(merged);
    out.set(clusters.length, labels());
  }
  return out;
}

function randomPoints(n: number, d: number, seed: number, groups = 4): Float64Array {
  const rng = createRng(seed);
  const centres = Array.from({ length: groups * d }, () => 6 * rng.normal());
  const p = new Float64Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) p[i * d + j] = centres[(i % groups) * d + j]! + rng.normal();
  return p;
}

test('Ward by the nearest-neighbour chain cuts as the definition merges, at every number of clusters', () => {
  for (const [n, d, seed] of [
    [12, 1, 1],
    [30, 2, 2],
    [41, 3, 3],
    [25, 5, 4],
  ] as const) {
    const points = randomPoints(n, d, seed);
    const counts = Array.from({ length: n }, (_, k) => k + 1);
    const cuts = wardCut(wardMerges(points, n, d), n, counts);
    const expected = bruteForceWard(points, n, d);
    for (const c of counts) assert.deepEqual(cuts.get(c), expected.get(c), `n ${n}, d ${d}: cut at ${c}`);
  }
});

test('the merges are n − 1, in order of cost; a cut of one point and counts above n are handled', () => {
  const points = randomPoints(20, 2, 7);
  const merges = wardMerges(points, 20, 2);
  assert.equal(merges.length, 19);
  for (let m = 1; m < merges.length; m++) assert.ok(merges[m]!.cost >= merges[m - 1]!.cost);
  const cuts = wardCut(merges, 20, [1, 25]);
  assert.deepEqual([...cuts.get(1)!], new Array(20).fill(0));
  assert.deepEqual(
    [...cuts.get(25)!],
    Array.from({ length: 20 }, (_, i) => i),
  );
  assert.equal(wardMerges(new Float64Array([3, 4]), 1, 2).length, 0);
});

test('k-means moves misplaced points to their nearest centroid and stops where none moves', () => {
  // Two groups on a line, around 0 and 10; the start puts one point of each on the wrong side.
  const points = Float64Array.from([-1, 0, 1, 2, 9, 10, 11, 12]);
  const start = Int32Array.from([0, 0, 0, 1, 0, 1, 1, 1]);
  assert.deepEqual([...kMeans(points, 8, 1, start, 2)], [0, 0, 0, 0, 1, 1, 1, 1]);
  // A cluster left empty keeps its centroid and takes no point.
  assert.deepEqual([...kMeans(Float64Array.from([0, 0.1, 0.2]), 3, 1, Int32Array.from([0, 0, 0]), 2)], [0, 0, 0]);
});
