import type { GenotypeData } from '../data/genotype-data.ts';
import { categoricalFromGenotypes, subsetRows, type CategoricalData } from '../classify/categorical.ts';
import { predict } from '../classify/classifier.ts';
import { foldPosteriors, stratifiedFolds, train, trainingRows, type ClassifierOptions } from '../classify/evaluate.ts';
import { learnStructureShare, type SearchShare } from '../classify/learn-structure.ts';
import type { Parents } from '../classify/network-structure.ts';
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
  /**
   * Only this share of the fold's BCkG search: answered with its features' parents
   * ({@link packShare}), not posteriors.
   */
  readonly share?: SearchShare;
  /** The fold's structure, searched by shares: the posteriors of a classifier with these parents. */
  readonly parents?: Parents;
}

/** A share's parents as numbers: per feature its count (−1: not in the share) and its parents. */
export function packShare(parents: readonly (Int32Array | undefined)[]): Float64Array {
  const out: number[] = [];
  for (const p of parents) {
    out.push(p ? p.length : -1);
    if (p) out.push(...p);
  }
  return Float64Array.from(out);
}

/** The parents of n features from the packed shares of one search (each feature in one share). */
export function unpackShares(n: number, packed: readonly Float64Array[]): Parents {
  const parents: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(n).fill(undefined);
  for (const share of packed) {
    let at = 0;
    for (let i = 0; i < n; i++) {
      const m = share[at++]!;
      if (m < 0) continue;
      parents[i] = Int32Array.from(share.subarray(at, at + m));
      at += m;
    }
  }
  return parents.map((p, i) => {
    if (!p) throw new RangeError(`feature ${i} is in no share of the search`);
    return p;
  });
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
  const assignments = task.fold < 0 ? undefined : stratifiedFolds(cat.labels, task.folds, task.seed);
  if (task.share) {
    const d = assignments ? subsetRows(cat, trainingRows(assignments, task.fold)) : cat;
    return packShare(learnStructureShare(d, task.classifier.k, task.classifier.score, task.share, onFeature));
  }
  if (!assignments) return predict(cat, train(cat, task.classifier, onFeature, task.parents));
  return foldPosteriors(
    cat,
    task.classifier,
    trainingRows(assignments, task.fold),
    assignments[task.fold]!,
    onFeature,
    task.parents,
  );
}
