// Where a structured start begins: a clustering of the individuals taken from the data's own
// structure, as snapclust (adegenet) starts from Ward's clustering — the principal components of
// the genotypes, Ward's hierarchical clustering of the individuals' scores cut at K, then k-means on
// the scores from that cut. Deterministic: a multi-start with one structured start always holds it.
import type { PreparedData } from '../model/prepared/prepared-data.ts';
import { createRng, deriveSeed } from '../util/rng.ts';
import { pca } from './pca.ts';
import { centroids, kMeans, nearestCentroids, wardCut, wardMerges } from './ward.ts';

/** Components whose scores the clustering reads (the leading ones; fewer where the data have fewer). */
export const STRUCTURED_PCS = 10;
/**
 * The PCA's stopping rule for the scores (pca.ts's tolerance): looser than the PCA view's, as a start
 * needs the components' directions, not their last digits (on eHGDP the 10 components are within
 * |cos| ≥ 0.997 of the converged ones, in 6 block iterations instead of 9).
 */
export const STRUCTURED_PCA_TOLERANCE = 1e-2;
/**
 * Individuals Ward's clustering is run on (its time grows as their square): above this, a seeded
 * sample of them; every individual is then placed by k-means from the sample's clusters.
 */
export const WARD_SAMPLE = 3000;

/**
 * Per K of `kValues` (2 ≤ K ≤ the individuals), every individual's cluster (0..K − 1) by
 * PCA → Ward → k-means on the scores (each component's unit vector times √eigenvalue). Empty when
 * the data have no principal component (no marker varies).
 */
export function structuredMemberships(md: PreparedData, kValues: readonly number[], seed = 1): Map<number, Int32Array> {
  const { N } = md;
  const wanted = [...new Set(kValues)].filter((K) => K >= 2 && K <= N);
  const out = new Map<number, Int32Array>();
  if (wanted.length === 0) return out;
  let result;
  try {
    result = pca(md, { pcs: STRUCTURED_PCS, seed: deriveSeed(seed, 0x5741), tolerance: STRUCTURED_PCA_TOLERANCE });
  } catch {
    return out;
  }
  const d = result.pcs;
  const scores = new Float64Array(N * d);
  for (let i = 0; i < N; i++)
    for (let k = 0; k < d; k++)
      scores[i * d + k] = result.vectors[i * d + k]! * Math.sqrt(Math.max(0, result.eigenvalues[k]!));
  const sample = wardSample(N, seed);
  const n = sample.length;
  const sampled = new Float64Array(n * d);
  sample.forEach((i, j) => sampled.set(scores.subarray(i * d, (i + 1) * d), j * d));
  const cuts = wardCut(wardMerges(sampled, n, d), n, wanted);
  for (const K of wanted) {
    // Every individual to the nearest of the sample's clusters, then k-means from there.
    const { centre } = centroids(sampled, n, d, cuts.get(K)!, K);
    const start = new Int32Array(N);
    nearestCentroids(scores, N, d, centre, K, start);
    out.set(K, kMeans(scores, N, d, start, K));
  }
  return out;
}

/** The individuals Ward's clustering runs on: all, or a seeded sample of WARD_SAMPLE in file order. */
function wardSample(N: number, seed: number): number[] {
  const all = Array.from({ length: N }, (_, i) => i);
  if (N <= WARD_SAMPLE) return all;
  const rng = createRng(deriveSeed(seed, 0x5741, 1));
  for (let j = 0; j < WARD_SAMPLE; j++) {
    const k = j + Math.floor(rng.uniform() * (N - j));
    [all[j], all[k]] = [all[k]!, all[j]!];
  }
  return all.slice(0, WARD_SAMPLE).sort((a, b) => a - b);
}
