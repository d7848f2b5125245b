import { populationIndex, populationsOf, type GenotypeData } from '../data/genotype-data.ts';
import {
  populationMeanCorrelations,
  residualCorrelations,
  type FitCheckOptions,
  type ResidualCorrelations,
} from '../analysis/fit-check.ts';
import { likeliestRunAtK, type SweepRun } from '../model/sweep.ts';
import type { Model } from '../util/choices.ts';

/**
 * The most individuals whose pairs the app is sent (4,000: a 64 MB matrix); beyond, it draws the
 * population means, and the CLI's `--fit-check matrix` writes every pair.
 */
export const FIT_CHECK_VIEW_MAX = 4000;

/** The group of individuals without a population label in the per-population means. */
export const NO_POPULATION = '(no population)';

/** A run's model-fit check (evalAdmix's residual correlations) with its per-population means. */
export interface FitCheck extends ResidualCorrelations {
  readonly K: number;
  readonly replicate: number;
  readonly model: Model;
  /** Populations in the data's order (then {@link NO_POPULATION} when some individual has none). */
  readonly populations: readonly string[];
  /** shape (G, G): the mean correlation over pairs of different individuals of the two populations. */
  readonly means: Float64Array;
  readonly pairs: Int32Array;
  /** What the check means for this model, when it is not the admixture model's check. */
  readonly note?: string;
}

/** Why the mixture model's memberships are checked the admixture model's way. */
export const MIXTURE_NOTE =
  'mixture model: memberships are checked as if they were ancestry proportions — the same check where they are near 0 or 1; ' +
  'an individual split between clusters is predicted as a blend here, which the mixture model does not predict';

/**
 * Use case "fit check": the residual correlations of a run (Garcia-Erill & Albrechtsen 2020) and
 * their means per pair of populations. The admixture model's Q and F as published; the mixture
 * model's memberships and cluster frequencies the same way (see {@link MIXTURE_NOTE}); EMA-TAN
 * is refused (its markers are predicted from a parent marker, not from frequencies alone).
 */
export function checkFit(data: GenotypeData, run: SweepRun, options: FitCheckOptions = {}): FitCheck {
  if (run.clustering.linkage)
    throw new RangeError(
      'the fit check compares genotypes with what cluster frequencies predict; EMA-TAN predicts each marker from a parent marker too — check a naive Bayes (EMA or EM) or admixture run',
    );
  const model: Model = run.model ?? 'mixture';
  const { K } = run;
  const N = data.individuals.length;
  const r = residualCorrelations(data, run.clustering.Q, run.clustering.model.theta, K, options);
  const populations = populationsOf(data);
  const index = populationIndex(data);
  // Individuals without a population form one group of their own, after the named ones.
  if (index.includes(-1)) populations.push(NO_POPULATION);
  const groups = index.map((g) => (g < 0 ? populations.length - 1 : g));
  const { means, pairs } = populationMeanCorrelations(r.matrix, N, groups, populations.length);
  return {
    ...r,
    K,
    replicate: run.replicate,
    model,
    populations,
    means,
    pairs,
    ...(model === 'mixture' ? { note: MIXTURE_NOTE } : {}),
  };
}

/** The fit check of the run at K with the highest ln L (the one a bar plot shows by default). */
export function checkFitAtK(
  data: GenotypeData,
  runs: readonly SweepRun[],
  K: number,
  options: FitCheckOptions = {},
): FitCheck {
  return checkFit(data, likeliestRunAtK(runs, K), options);
}

/** fit.K{K}.tsv: population × population mean residual correlations (pairs of different individuals). */
export function fitMeansTsv(check: FitCheck): string {
  const G = check.populations.length;
  const cell = (v: number) => (Number.isNaN(v) ? 'NA' : v.toFixed(5));
  const rows = [['population', ...check.populations].join('\t')];
  for (let a = 0; a < G; a++)
    rows.push(
      [check.populations[a]!, ...Array.from({ length: G }, (_, b) => cell(check.means[a * G + b]!))].join('\t'),
    );
  return rows.join('\n') + '\n';
}

/** The full matrix as TSV: a header of ids, then one row per individual (id, N values; NA on the diagonal). */
export function fitMatrixTsv(data: GenotypeData, check: FitCheck): string {
  const N = check.N;
  const ids = data.individuals.map((d) => d.id);
  const rows = [['id', ...ids].join('\t')];
  for (let i = 0; i < N; i++) {
    const values: string[] = [ids[i]!];
    for (let j = 0; j < N; j++) {
      const v = check.matrix[i * N + j]!;
      values.push(Number.isNaN(v) ? 'NA' : v.toFixed(5));
    }
    rows.push(values.join('\t'));
  }
  return rows.join('\n') + '\n';
}
