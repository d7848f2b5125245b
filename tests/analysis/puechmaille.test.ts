// Puechmaille's estimators on hand-computed memberships: which clusters a population's mean or
// median puts above the threshold, the median and maximum over replicates, the largest over K.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countedClusters, puechmailleEstimates } from '../../engine/analysis/puechmaille.ts';

// Six individuals in two populations (0: individuals 0–2, 1: 3–5), K = 3.
const population = [0, 0, 0, 1, 1, 1];
// Population 0: cluster 0 has memberships 0.9, 0.9, 0.0 (mean 0.6, median 0.9);
// population 1: cluster 1 has 0.6, 0.1, 0.6 (mean 0.433…, median 0.6), cluster 2 never above 0.5.
const Q = [
  [0.9, 0.05, 0.05],
  [0.9, 0.05, 0.05],
  [0.0, 0.6, 0.4],
  [0.2, 0.6, 0.2],
  [0.3, 0.1, 0.6],
  [0.2, 0.6, 0.2],
].flat();

test('counted clusters: a population mean or median above the threshold', () => {
  assert.equal(countedClusters(Q, 3, population, 'mean', 0.5), 1, 'only cluster 0 (mean 0.6)');
  assert.equal(countedClusters(Q, 3, population, 'median', 0.5), 2, 'clusters 0 (median 0.9) and 1 (0.6)');
  assert.equal(countedClusters(Q, 3, population, 'mean', 0.4), 2, 'cluster 1 (mean 0.433) at 0.4');
  // Individuals without a population are left out: population 1 alone, its cluster 1's median 0.6.
  assert.equal(countedClusters(Q, 3, [-1, -1, -1, 1, 1, 1], 'median', 0.5), 1);
  // "Above", not "at least": a mean of exactly 0.5 does not count.
  assert.equal(countedClusters([0.5, 0.5, 0.5, 0.5], 2, [0, 0], 'mean', 0.5), 0);
});

test('estimators: median and maximum over replicates, then the largest over K', () => {
  const one = (k0: number[]) => k0.flatMap((x) => [x, 1 - x]); // K = 2 memberships
  const runs = [
    // K = 2: replicate counts (mean) 2, 1, 1 → median 1, max 2.
    { K: 2, Q: one([0.9, 0.9, 0.9, 0.1, 0.1, 0.1]) },
    { K: 2, Q: one([0.9, 0.9, 0.9, 0.6, 0.6, 0.6]) },
    { K: 2, Q: one([0.6, 0.6, 0.6, 0.6, 0.6, 0.6]) },
    // K = 3: Q above (mean 1, median 2), twice.
    { K: 3, Q },
    { K: 3, Q },
  ];
  const e = puechmailleEstimates(runs, population)!;
  assert.deepEqual(e.perK, [
    { K: 2, medMea: 1, maxMea: 2, medMed: 1, maxMed: 2 },
    { K: 3, medMea: 1, maxMea: 1, medMed: 2, maxMed: 2 },
  ]);
  assert.deepEqual([e.medMeaK, e.maxMeaK, e.medMedK, e.maxMedK], [1, 2, 2, 2]);
  // An even number of replicates: the median is the mean of the two middle counts.
  const two = puechmailleEstimates(runs.slice(0, 2), population)!;
  assert.equal(two.perK[0]!.medMea, 1.5);
  assert.equal(puechmailleEstimates(runs, [-1, -1, -1, -1, -1, -1]), undefined, 'no populations');
});
