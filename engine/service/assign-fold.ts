import type { GenotypeData } from '../data/genotype-data.ts';
import { categoricalFromGenotypes, type CategoricalData } from '../classify/categorical.ts';
import { predict } from '../classify/classifier.ts';
import { foldPosteriors, stratifiedFolds, train, trainingRows, type ClassifierOptions } from '../classify/evaluate.ts';
import type { AssignBy } from '../util/choices.ts';

// One fold of an assignment's cross-validation as a worker runs it (service/assign.ts runs the
// folds of a genotype classifier on the pool with assignIndividualsOn).

/** One fold of an assignment's cross-validation, or (fold −1) the model of every labelled individual. */
export interface AssignFoldTask {
  /** Pool tasks carry a K (the admixture model's preparation reads it); 0 here. */
  readonly K: number;
  readonly by: AssignBy;
  readonly classifier: ClassifierOptions;
  readonly folds: number;
  readonly seed: number;
  /** The fold's index in stratifiedFolds' list, or −1: trained on every labelled individual. */
  readonly fold: number;
}

const categoricals = new WeakMap<GenotypeData, Map<AssignBy, CategoricalData>>();

/** The genotype variables of a dataset with classes by `by` (kept per dataset: a worker's folds share them). */
export function categoricalOf(data: GenotypeData, by: AssignBy): CategoricalData {
  let byKind = categoricals.get(data);
  if (!byKind) categoricals.set(data, (byKind = new Map()));
  let cat = byKind.get(by);
  if (!cat) byKind.set(by, (cat = categoricalFromGenotypes(data, by)));
  return cat;
}

/**
 * Use case "one assignment fold" (in a worker): the posteriors its model gives its test rows, as
 * crossValidate computes them (fold −1: every row's, from the model of all labelled individuals);
 * `onFeature` after each feature a structure search has placed.
 */
export function assignFoldWork(data: GenotypeData, task: AssignFoldTask, onFeature?: () => void): Float64Array {
  const cat = categoricalOf(data, task.by);
  if (task.fold < 0) return predict(cat, train(cat, task.classifier, onFeature));
  const assignments = stratifiedFolds(cat.labels, task.folds, task.seed);
  return foldPosteriors(cat, task.classifier, trainingRows(assignments, task.fold), assignments[task.fold]!, onFeature);
}
