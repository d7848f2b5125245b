import { admixtureCvError, cvErrorOf, type CvFold, type CvFoldTask } from '../model/admixture/cross-validation.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import type { StartRunner } from './start-runner.ts';
import type { SweepProgress } from './sweep-progress.ts';
import type { PreparedData } from '../model/prepared/prepared-data.ts';
import { likeliestRun, type SweepOptions, type SweepRun } from '../model/sweep.ts';
import { admixtureFitOptions } from '../model/admixture/admixture-start.ts';
import { deriveSeed } from '../util/rng.ts';

/** Seed stream of the CV folds, apart from the starts' (seed, K, replicate, start). */
const CV_STREAM = 0x6376;

/** The seed of K's cross-validation folds (derived from the sweep's seed, so a sweep's CV errors repeat). */
export function cvSeed(seed: number, K: number): number {
  return deriveSeed(seed, CV_STREAM, K);
}

/** For each K, the most likely replicate's position in `runs` (the one whose CV error is reported). */
function cvRuns(runs: readonly SweepRun[]): { K: number; position: number }[] {
  return [...new Set(runs.map((r) => r.K))]
    .sort((a, b) => a - b)
    .map((K) => ({ K, position: runs.indexOf(likeliestRun(runs.filter((r) => r.K === K))) }));
}

/**
 * Use case "cross-validation error per K" (admixture model, `cvFolds` set): for each K, the most
 * likely replicate is refitted with each fold of its observed entries held out (ADMIXTURE's
 * --cv), and its `cvError` is the mean held-out deviance. Other runs are returned unchanged.
 * In this thread; {@link withCvErrorsOn} runs the folds on a runner's workers, with the same result.
 */
export function withCvErrors(md: PreparedData, runs: readonly SweepRun[], o: SweepOptions): SweepRun[] {
  const folds = o.cvFolds ?? 0;
  if (folds === 0 || o.fit.model !== 'admixture') return [...runs];
  const out = [...runs];
  for (const { K, position } of cvRuns(runs)) {
    const run = out[position]!;
    const { error } = admixtureCvError(
      md,
      { K, Q: run.clustering.Q, F: run.clustering.model.theta },
      folds,
      cvSeed(o.seed, K),
      admixtureFitOptions(o.fit),
    );
    out[position] = { ...run, cvError: error };
  }
  return out;
}

/**
 * {@link withCvErrors} with every fold of every K a task on the runner's workers (folds of all K
 * at once); runners without workers for folds compute them in this thread. Undefined if cancelled.
 */
export async function withCvErrorsOn(
  runner: StartRunner,
  data: GenotypeData,
  md: PreparedData,
  runs: readonly SweepRun[],
  o: SweepOptions,
  signal?: AbortSignal,
  onProgress?: (p: SweepProgress) => void,
): Promise<SweepRun[] | undefined> {
  const folds = o.cvFolds ?? 0;
  if (folds === 0 || o.fit.model !== 'admixture' || !runner.runCvFolds) return withCvErrors(md, runs, o);
  const targets = cvRuns(runs);
  const tasks: CvFoldTask[] = targets.flatMap(({ K, position }) =>
    Array.from({ length: folds }, (_, fold) => ({
      K,
      Q: runs[position]!.clustering.Q,
      F: runs[position]!.clustering.model.theta,
      folds,
      fold,
      seed: cvSeed(o.seed, K),
    })),
  );
  onProgress?.({ kind: 'cv', completed: 0, total: tasks.length });
  const done = await runner.runCvFolds(data, tasks, o.fit, signal, (completed) =>
    onProgress?.({ kind: 'cv', completed, total: tasks.length }),
  );
  if (done.cancelled || done.results.some((r) => r === undefined)) return undefined;
  const out = [...runs];
  targets.forEach(({ position }, t) => {
    const { error } = cvErrorOf(done.results.slice(t * folds, (t + 1) * folds) as CvFold[]);
    out[position] = { ...out[position]!, cvError: error };
  });
  return out;
}
