import type { GenotypeData } from '../data/genotype-data.ts';
import { bootstrapReplicate, resampleMarkers } from '../model/admixture/bootstrap.ts';
import type { FitOptions } from '../model/fit-options.ts';
import type { SweepRun } from '../model/sweep.ts';
import { createRng, deriveSeed } from '../util/rng.ts';

/** Bootstrap standard errors and 95 % percentile intervals of an admixture run's Q. */
export interface AncestryBootstrap {
  readonly B: number;
  /** Genome windows resampled (markers with positions), or undefined: single markers. */
  readonly blocks: number | undefined;
  /** shape (N, K) each: the standard deviation over replicates, and the 2.5 % and 97.5 % quantiles. */
  readonly se: Float64Array;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
}

/**
 * Use case "bootstrap ancestry" (ADMIXTURE's -B): B refits of an admixture run on markers
 * resampled with replacement (in blocks of consecutive markers where positions exist), each
 * started from the estimate; per entry of Q the standard deviation over the refits and the
 * percentile interval. Seeded: the same seed gives the same replicates.
 */
export function bootstrapAncestry(
  data: GenotypeData,
  run: SweepRun,
  B: number,
  seed: number,
  fit: FitOptions,
  onReplicate?: (done: number) => void,
): AncestryBootstrap {
  if (run.model !== 'admixture')
    throw new RangeError('the bootstrap of Q is for the admixture model (--model admixture)');
  if (!Number.isInteger(B) || B < 2) throw new RangeError(`bootstrap replicates: a whole number ≥ 2, got ${B}`);
  const { K } = run;
  const N = data.individuals.length;
  const estimate = { K, Q: run.clustering.Q, F: run.clustering.model.theta };
  const reps = new Float64Array(B * N * K);
  let blocks: number | undefined;
  for (let b = 0; b < B; b++) {
    const sample = resampleMarkers(data, createRng(deriveSeed(seed, K, run.replicate, b)));
    blocks = sample.blocks;
    reps.set(bootstrapReplicate(data, estimate, sample.loci, { ...fit, model: 'admixture' }), b * N * K);
    onReplicate?.(b + 1);
  }
  const se = new Float64Array(N * K);
  const lower = new Float64Array(N * K);
  const upper = new Float64Array(N * K);
  const values = new Float64Array(B);
  for (let x = 0; x < N * K; x++) {
    let mean = 0;
    for (let b = 0; b < B; b++) mean += values[b] = reps[b * N * K + x]!;
    mean /= B;
    let ss = 0;
    for (let b = 0; b < B; b++) ss += (values[b]! - mean) ** 2;
    se[x] = Math.sqrt(ss / (B - 1));
    values.sort();
    lower[x] = quantile(values, 0.025);
    upper[x] = quantile(values, 0.975);
  }
  return { B, blocks, se, lower, upper };
}

/** The p-quantile of sorted values (linear interpolation between order statistics, R's type 7). */
function quantile(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}
