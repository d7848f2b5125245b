import type { Learning } from '../util/choices.ts';
import { createRng } from '../util/rng.ts';
import { subsetRows, type CategoricalData } from './categorical.ts';
import { conditionalLogLik, fitGenerative, predict, type Classifier } from './classifier.ts';
import { DEFAULT_DISCRIMINATIVE, fitDiscriminative } from './discriminative.ts';
import { learnStructure } from './learn-structure.ts';
import type { Parents, StructureKind } from './network-structure.ts';
import type { Score } from './bckg.ts';
import { DEFAULT_TM, fitTM } from './tm.ts';
import { fitAcll } from './acll.ts';

export type { Learning };

export interface ClassifierOptions {
  readonly structure: StructureKind;
  /** kDB's k. */
  readonly k: number;
  readonly learning: Learning;
  /**
   * Dirichlet pseudo-count of the generative estimate: a number, or 'auto' to pick it from
   * {@link ALPHA_GRID} by the held-out conditional log-likelihood of an inner 3-fold CV (features
   * with many states, such as microsatellite genotypes, need far less than Laplace's 1).
   */
  readonly alpha: number | 'auto';
  /** α is the prior weight of a whole CPT row (α/r per cell) rather than of each cell. */
  readonly alphaPerRow?: boolean;
  /** Structure score of BCkG (default BIC) and kDB (default: Sahami's conditional mutual information). */
  readonly score?: Score;
  /**
   * L2 anchor of the gradient learner: a number, or 'auto' to pick it from 0.01, 0.1, 1, 10 by the
   * held-out conditional log-likelihood of an inner 3-fold CV (the default for genotype variables;
   * allele variables default to 1, see DEFAULT_ALLELE_GRADIENT).
   */
  readonly l2?: number | 'auto';
}

/** The L2 strengths the gradient learner chooses from. */
export const L2_GRID = [0.01, 0.1, 1, 10];

/** The pseudo-counts 'auto' chooses from. */
export const ALPHA_GRID = [0.01, 0.1, 0.5, 1];

/**
 * Picks a setting by inner cross-validation over the labelled entries of `labels`: the candidate
 * whose held-out scores, summed over 3 stratified folds, are highest (ties to the earlier);
 * undefined with fewer than two non-empty folds. `heldOut(trainRows, testRows, candidate)` trains
 * on one fold's complement and scores its test rows.
 */
export function chooseByInnerFolds<T extends number>(
  labels: Int32Array,
  candidates: readonly T[],
  heldOut: (trainRows: number[], testRows: number[], candidate: T) => number,
  seed = 7,
): T | undefined {
  const folds = stratifiedFolds(labels, 3, seed).filter((f) => f.length > 0);
  if (folds.length < 2) return undefined;
  let best = candidates[0]!;
  let bestScore = -Infinity;
  for (const candidate of candidates) {
    let score = 0;
    folds.forEach((test, f) => {
      score += heldOut(trainingRows(folds, f), test, candidate);
    });
    if (score > bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return best;
}

/**
 * Picks a parameter setting by inner cross-validation on the labelled rows of `d`: the candidate
 * whose models, trained on two thirds, give the highest conditional log-likelihood on the third
 * left out.
 */
function chooseByInnerCV<T extends number>(
  d: CategoricalData,
  candidates: readonly T[],
  fitOn: (train: CategoricalData, candidate: T) => Classifier,
  seed = 7,
): T | undefined {
  return chooseByInnerFolds(
    d.labels,
    candidates,
    (trainRows, test, candidate) => conditionalLogLik(subsetRows(d, test), fitOn(subsetRows(d, trainRows), candidate)),
    seed,
  );
}

/** Picks the generative pseudo-count by inner cross-validation (fixed structure). */
export function chooseAlpha(d: CategoricalData, parents: Parents, perRow: boolean): number {
  return chooseByInnerCV(d, ALPHA_GRID, (tr, alpha) => fitGenerative(tr, parents, alpha, perRow)) ?? 1;
}

/** Picks the L2 anchor by inner cross-validation on the labelled rows of `d` (fixed structure). */
export function chooseL2(d: CategoricalData, parents: Parents, alpha: number, perRow: boolean, seed = 7): number {
  const fitOn = (tr: CategoricalData, l2: number) =>
    fitDiscriminative(tr, fitGenerative(tr, parents, alpha, perRow), { ...DEFAULT_DISCRIMINATIVE, l2 }).classifier;
  return chooseByInnerCV(d, L2_GRID, fitOn, seed) ?? DEFAULT_DISCRIMINATIVE.l2;
}

export const DEFAULT_CLASSIFIER: ClassifierOptions = { structure: 'nb', k: 2, learning: 'generative', alpha: 1 };

/** Learns structure (unless `learned`: its parents, searched elsewhere) and parameters from the labelled rows of `d`. */
export function train(d: CategoricalData, o: ClassifierOptions, onFeature?: () => void, learned?: Parents): Classifier {
  const parents = learned ?? learnStructure(d, o.structure, o.k, o.score, onFeature);
  if (o.learning === 'acll') return fitAcll(d, parents);
  const perRow = o.alphaPerRow ?? false;
  const alpha = o.alpha === 'auto' ? chooseAlpha(d, parents, perRow) : o.alpha;
  if (o.learning === 'tm') return fitTM(d, parents, { ...DEFAULT_TM, alpha }).classifier;
  const gen = fitGenerative(d, parents, alpha, perRow);
  if (o.learning !== 'gradient') return gen;
  const l2 = o.l2 === undefined || o.l2 === 'auto' ? chooseL2(d, parents, alpha, perRow) : o.l2;
  return fitDiscriminative(d, gen, { ...DEFAULT_DISCRIMINATIVE, l2 }).classifier;
}

/** Stratified folds: each class's labelled rows shuffled (seeded) and dealt round-robin. */
export function stratifiedFolds(labels: Int32Array, folds: number, seed: number): number[][] {
  const rng = createRng(seed);
  const byClass = new Map<number, number[]>();
  labels.forEach((y, r) => {
    if (y < 0) return;
    const g = byClass.get(y) ?? [];
    g.push(r);
    byClass.set(y, g);
  });
  const out: number[][] = Array.from({ length: folds }, () => []);
  let next = 0;
  for (const y of [...byClass.keys()].sort((a, b) => a - b)) {
    const rows = byClass.get(y)!;
    for (let i = rows.length - 1; i > 0; i--) {
      const j = Math.floor(rng.uniform() * (i + 1));
      [rows[i], rows[j]] = [rows[j]!, rows[i]!];
    }
    for (const r of rows) out[next++ % folds]!.push(r);
  }
  return out.map((f) => f.sort((a, b) => a - b));
}

export interface Evaluation {
  readonly accuracy: number;
  /** Mean −ln p(true class | x). */
  readonly logLoss: number;
  /** confusion[true * K + predicted]. */
  readonly confusion: Int32Array;
  /** Accuracy of each fold. */
  readonly foldAccuracy: readonly number[];
  /** Out-of-fold posteriors, shape (N, K) (zero rows for unlabelled items). */
  readonly posterior: Float64Array;
}

/**
 * k-fold cross-validation. `prepare(trainRows)` builds the dataset for one fold (so, for
 * example, discretisation is learned inside the fold); by default the data as given.
 */
export function crossValidate(
  d: CategoricalData,
  o: ClassifierOptions,
  folds: number,
  seed: number,
  prepare: (trainRows: number[]) => CategoricalData = () => d,
  onFeature?: () => void,
): Evaluation {
  return crossValidateRows(d.labels, d.classes.length, folds, seed, (trainRows, test) =>
    foldPosteriors(prepare(trainRows), o, trainRows, test, onFeature),
  );
}

/**
 * One fold of {@link crossValidate}: the posteriors of `testRows` under the classifier learnt on
 * `trainRows` of d (with the structure `learned` when given).
 */
export function foldPosteriors(
  d: CategoricalData,
  o: ClassifierOptions,
  trainRows: readonly number[],
  testRows: readonly number[],
  onFeature?: () => void,
  learned?: Parents,
): Float64Array {
  return predict(subsetRows(d, testRows), train(subsetRows(d, trainRows), o, onFeature, learned));
}

/** The training rows of fold f of stratifiedFolds' list: every other fold's. */
export function trainingRows(assignments: readonly (readonly number[])[], f: number): number[] {
  return assignments.flatMap((rows, g) => (g === f ? [] : rows));
}

/**
 * k-fold cross-validation of any classifier given as `fitPredict(trainRows, testRows, fold)`,
 * which returns the posteriors of the test rows, shape (testRows.length, K) (`fold`: the fold's
 * index in {@link stratifiedFolds}' list, for folds computed elsewhere). Folds are stratified
 * ({@link stratifiedFolds}); folds equal to the number of labelled rows is leave-one-out.
 */
export function crossValidateRows(
  labels: Int32Array,
  K: number,
  folds: number,
  seed: number,
  fitPredict: (trainRows: number[], testRows: number[], fold: number) => Float64Array,
): Evaluation {
  const assignments = stratifiedFolds(labels, folds, seed);
  const confusion = new Int32Array(K * K);
  const posterior = new Float64Array(labels.length * K);
  const foldAccuracy: number[] = [];
  let correct = 0;
  let total = 0;
  let loss = 0;
  assignments.forEach((test, f) => {
    if (test.length === 0) return;
    const post = fitPredict(trainingRows(assignments, f), test, f);
    const tally = scorePosteriors(labels, K, test, post, confusion, posterior);
    correct += tally.correct;
    loss += tally.loss;
    total += test.length;
    foldAccuracy.push(tally.correct / test.length);
  });
  return { accuracy: correct / total, logLoss: loss / total, confusion, foldAccuracy, posterior };
}

/** Adds the predictions of `rows` (posteriors `post`, one row each) to a confusion matrix and posterior table. */
export function scorePosteriors(
  labels: Int32Array,
  K: number,
  rows: readonly number[],
  post: Float64Array,
  confusion: Int32Array,
  posterior: Float64Array,
): { correct: number; loss: number } {
  let correct = 0;
  let loss = 0;
  rows.forEach((row, k) => {
    const y = labels[row]!;
    let best = 0;
    for (let c = 1; c < K; c++) if (post[k * K + c]! > post[k * K + best]!) best = c;
    confusion[y * K + best]!++;
    if (best === y) correct++;
    loss -= Math.log(Math.max(1e-15, post[k * K + y]!));
    for (let c = 0; c < K; c++) posterior[row * K + c] = post[k * K + c]!;
  });
  return { correct, loss };
}
