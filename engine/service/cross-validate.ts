import { admixtureCvError } from '../model/admixture/cross-validation.ts';
import type { MixtureData } from '../model/mixture/mixture-data.ts';
import { likeliestRun, type SweepOptions, type SweepRun } from '../model/sweep.ts';
import { admixtureFitOptions } from '../model/admixture/admixture-fit.ts';
import { deriveSeed } from '../util/rng.ts';

/** Seed stream of the CV folds, apart from the starts' (seed, K, replicate, start). */
const CV_STREAM = 0x6376;

/** The seed of K's cross-validation folds (derived from the sweep's seed, so a sweep's CV errors repeat). */
export function cvSeed(seed: number, K: number): number {
  return deriveSeed(seed, CV_STREAM, K);
}

/**
 * Use case "cross-validation error per K" (admixture model, `cvFolds` set): for each K, the most
 * likely replicate is refitted with each fold of its observed entries held out (ADMIXTURE's
 * --cv), and its `cvError` is the mean held-out deviance. Other runs are returned unchanged.
 */
export function withCvErrors(md: MixtureData, runs: readonly SweepRun[], o: SweepOptions): SweepRun[] {
  const folds = o.cvFolds ?? 0;
  if (folds === 0 || o.fit.model !== 'admixture') return [...runs];
  const out = [...runs];
  for (const K of [...new Set(runs.map((r) => r.K))].sort((a, b) => a - b)) {
    const run = likeliestRun(out.filter((r) => r.K === K));
    const best = out.indexOf(run);
    const { error } = admixtureCvError(
      md,
      { K, Q: run.clustering.Q, F: run.clustering.model.theta },
      folds,
      cvSeed(o.seed, K),
      admixtureFitOptions(o.fit),
    );
    out[best] = { ...run, cvError: error };
  }
  return out;
}
