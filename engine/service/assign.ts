import { range, subsetData, type GenotypeData } from '../data/genotype-data.ts';
import type { CategoricalData } from '../classify/categorical.ts';
import { predict } from '../classify/classifier.ts';
import {
  crossValidate,
  crossValidateRows,
  train,
  type ClassifierOptions,
  type Evaluation,
} from '../classify/evaluate.ts';
import type { StartRunner } from './start-runner.ts';
import { categoricalOf, unpackShares, type AssignFoldTask } from './assign-fold.ts';
import { genotypePanelEvaluator, panelCurveWith, type PanelEvaluator } from '../classify/panel-curve.ts';
import { searchesByScore, structureSearchWork } from '../classify/learn-structure.ts';
import {
  alleleCounts,
  alleleModel,
  allelePosteriors,
  chooseAllelePrior,
  type AlleleCounts,
  type AllelePrior,
  exclusionProbabilities,
  leaveOneOutPosteriors,
} from '../classify/allele-nb.ts';
import {
  alleleRows,
  DEFAULT_ALLELE_GRADIENT,
  plugInPosteriors,
  trainDiscriminativeAlleles,
} from '../classify/allele-discriminative.ts';
import { LIMITS, PANEL_METHOD, type AssignBy, type PanelMethod, type Variables } from '../util/choices.ts';
import { createRng, deriveSeed } from '../util/rng.ts';

export interface AssignOptions {
  /** Classes: populations or their groups. */
  readonly by: AssignBy;
  readonly classifier: ClassifierOptions;
  /** Cross-validation folds, or 'loo': leave-one-out (self-assignment). */
  readonly folds: number | 'loo';
  readonly seed: number;
  /** The classifier's variables (default 'auto': alleles when markers have more than 3 alleles on average). */
  readonly variables?: Variables;
  /**
   * Allele variables: the frequencies' prior — a weight per locus (default 1: Rannala & Mountain's
   * 1/r per allele), 'laplace' (1 per allele) or 'auto' (chosen by leave-one-out inside each fold).
   */
  readonly allelePrior?: AllelePrior | 'auto';
  /** Simulated genotypes per population for the exclusion test of unlabelled individuals (0: no test). */
  readonly exclusionDraws?: number;
  /** Panel sizes for the accuracy-against-panel-size curve (none: no curve). */
  readonly curveSizes?: readonly number[];
  /**
   * The most local scores one structure search (BCkG, kDB by score) may evaluate
   * (default {@link SEARCH_LIMIT}); beyond it the assignment is refused before it starts.
   */
  readonly maxSearch?: number;
}

/** Local scores one structure search may evaluate unless the user raises the limit. */
export const SEARCH_LIMIT = LIMITS.structureSearch;

/**
 * An assignment's BCkG searches are split into shares of their features (one per thread) while
 * there are fewer than this many folds a thread: with few, whole folds leave threads idle in the
 * last round.
 */
export const SHARED_BELOW_FOLDS_PER_THREAD = 4;

export interface PanelCurvePoint {
  readonly method: PanelMethod;
  readonly size: number;
  readonly accuracy: number;
  readonly logLoss: number;
  readonly foldAccuracy: readonly number[];
  /** Wilcoxon signed-rank p-value against random panels of the same size (absent for random). */
  readonly p?: number;
}

export interface Assignment {
  readonly data: CategoricalData;
  readonly evaluation: Evaluation;
  /** Out-of-fold posteriors of labelled individuals and posteriors of unlabelled ones, shape (N, classes). */
  readonly posterior: Float64Array;
  /** Rows of the individuals without a label (assigned by a model trained on every labelled one). */
  readonly unlabelled: readonly number[];
  readonly curve: readonly PanelCurvePoint[];
  /** The variables used, and why. */
  readonly variables: 'alleles' | 'genotypes';
  readonly variablesReason: string;
  /** Allele variables: the prior of the final model (trained on every labelled individual). */
  readonly allelePrior?: AllelePrior;
  /** Folds used (leave-one-out: the number of labelled individuals). */
  readonly folds: number;
  /** Per class: labelled individuals, correctly assigned, and the mean posterior of the own class. */
  readonly perClass: readonly { readonly n: number; readonly correct: number; readonly meanOwnPosterior: number }[];
  /** GeneClass2's quality index: the mean posterior of the own class over labelled individuals (0..1). */
  readonly qualityIndex: number;
  /**
   * Exclusion probabilities of the unlabelled individuals (rows in `unlabelled` order, one column
   * per class; Paetkau et al. 2004): small means unlikely to come from that population.
   */
  readonly exclusion?: Float64Array;
}

/** Mean number of alleles per marker above which 'auto' uses allele variables. */
export const ALLELE_VARIABLES_ABOVE = 3;

function resolveVariables(
  data: GenotypeData,
  v: Variables,
  o: ClassifierOptions,
): { variables: 'alleles' | 'genotypes'; reason: string } {
  const mean = data.loci.reduce((s, l) => s + l.alleles.length, 0) / Math.max(1, data.loci.length);
  const alleleClassifier = o.structure === 'nb' && o.learning !== 'acll';
  if (v === 'alleles') {
    if (!alleleClassifier)
      throw new RangeError(
        `allele variables are for naive Bayes with generative, gradient or TM learning; ${o.structure} with ${o.learning} learning uses genotype variables (--variables genotypes)`,
      );
    return { variables: 'alleles', reason: 'chosen' };
  }
  if (v === 'genotypes') return { variables: 'genotypes', reason: 'chosen' };
  const many = mean > ALLELE_VARIABLES_ABOVE;
  if (many && alleleClassifier)
    return {
      variables: 'alleles',
      reason: `markers have ${mean.toFixed(1)} alleles on average (more than ${ALLELE_VARIABLES_ABOVE})`,
    };
  return {
    variables: 'genotypes',
    reason: many
      ? `${o.structure} with ${o.learning} learning works on genotype variables`
      : `markers have ${mean.toFixed(1)} alleles on average (at most ${ALLELE_VARIABLES_ABOVE})`,
  };
}

function classSummary(labels: Int32Array, K: number, ev: Evaluation) {
  const perClass = Array.from({ length: K }, () => ({ n: 0, correct: 0, meanOwnPosterior: 0 }));
  let own = 0;
  let n = 0;
  labels.forEach((y, r) => {
    if (y < 0) return;
    const c = perClass[y]!;
    c.n++;
    c.meanOwnPosterior += ev.posterior[r * K + y]!;
    own += ev.posterior[r * K + y]!;
    n++;
  });
  perClass.forEach((c, y) => {
    c.correct = ev.confusion[y * K + y]!;
    c.meanOwnPosterior = c.n ? c.meanOwnPosterior / c.n : NaN;
  });
  return { perClass, qualityIndex: n ? own / n : NaN };
}

/**
 * A structure search's progress: features searched so far, of all the searches' features, and
 * the local scores one search evaluates at most (structureSearchWork).
 */
export interface StructureProgress {
  readonly done: number;
  readonly total: number;
  readonly work: number;
}

/**
 * A structure searched with a score (BCkG, kDB by score): its size, refused beyond the limit
 * before anything runs; progress is reported per feature of each search (the folds', then the one
 * on everybody for the unlabelled).
 */
function searchPlan(
  cat: CategoricalData,
  variables: 'alleles' | 'genotypes',
  o: AssignOptions,
): { byScore: boolean; work: number } {
  const byScore = variables === 'genotypes' && searchesByScore(o.classifier.structure, o.classifier.score);
  const work = byScore ? structureSearchWork(cat.n, o.classifier.structure, o.classifier.k, o.classifier.score) : 0;
  if (byScore) {
    const limit = o.maxSearch ?? SEARCH_LIMIT;
    if (!(Number.isInteger(limit) && limit > 0))
      throw new RangeError(`the largest structure search: a whole number of local scores above 0, got ${limit}`);
    if (work > limit)
      throw new RangeError(
        `${o.classifier.structure === 'bckg' ? 'BCkG' : 'kDB'} with k = ${o.classifier.k} on ${cat.n.toLocaleString('en')} markers ` +
          `evaluates up to ${work.toLocaleString('en')} local scores a search, one search per fold (the limit: ${limit.toLocaleString('en')}); ` +
          'choose a lower k, kDB, a marker panel (stratify select), or raise the limit (stratify assign --max-search)',
      );
  }
  return { byScore, work };
}

/** Posteriors of an assignment's genotype classifier computed fold by fold (on workers). */
export interface FoldPosteriors {
  /** Per fold (stratifiedFolds' order), its test rows' posteriors, shape (test rows, classes). */
  readonly folds: readonly Float64Array[];
  /** Every row's posteriors under the model of all labelled individuals (when some are unlabelled). */
  readonly all?: Float64Array;
}

/**
 * {@link assignIndividuals} with the genotype classifier's folds (and the model of every labelled
 * individual) run on `runner`'s workers at once, each fold's structure search on a core of its
 * own: the same posteriors, bit for bit. Allele variables, and runners without workers for it,
 * run in this thread. A cancel (signal) ends it with an error once the running folds stop.
 */
export async function assignIndividualsOn(
  runner: StartRunner,
  data: GenotypeData,
  o: AssignOptions,
  onProgress?: (p: StructureProgress) => void,
  signal?: AbortSignal,
): Promise<Assignment> {
  const cat = categoricalOf(data, o.by);
  const { variables } = resolveVariables(data, o.variables ?? 'auto', o.classifier);
  if (variables !== 'genotypes' || !runner.runAssignFolds || cat.classes.length < 2)
    return assignIndividuals(data, o, onProgress);
  const { byScore, work } = searchPlan(cat, variables, o);
  let labelled = 0;
  for (const y of cat.labels) if (y >= 0) labelled++;
  const folds = o.folds === 'loo' ? labelled : o.folds;
  const anyUnlabelled = labelled < cat.labels.length;
  const tasks: AssignFoldTask[] = Array.from({ length: folds + (anyUnlabelled ? 1 : 0) }, (_, f) => ({
    K: 0,
    by: o.by,
    classifier: o.classifier,
    folds,
    seed: o.seed,
    fold: f < folds ? f : -1,
  }));
  // BCkG's searches go by shares of their features when the folds alone would leave threads idle
  // at the end (5 folds on 2 threads: 3 rounds); each fold then fits on the parents its shares
  // found. BIC's searches, which its bound cuts short, stay whole (sharing costs a TAN a share).
  const size = runner.size ?? 1;
  const shares =
    byScore &&
    o.classifier.structure === 'bckg' &&
    (o.classifier.score ?? 'bic') !== 'bic' &&
    size > 1 &&
    tasks.length < SHARED_BELOW_FOLDS_PER_THREAD * size
      ? size
      : 1;
  const searches =
    shares > 1
      ? tasks.flatMap((t) => Array.from({ length: shares }, (_, index) => ({ ...t, share: { index, count: shares } })))
      : tasks;
  // Features placed so far by each search (or share), summed for the progress.
  const placed = new Float64Array(searches.length);
  const perSearch = (t: AssignFoldTask) => (t.share ? Math.ceil((cat.n - t.share.index) / t.share.count) : cat.n);
  const first = await runner.runAssignFolds(data, searches, signal, (position, features) => {
    placed[position] = Number.isFinite(features) ? features : perSearch(searches[position]!);
    if (byScore && onProgress)
      onProgress({ done: placed.reduce((s, x) => s + x, 0), total: tasks.length * cat.n, work });
  });
  let { results, cancelled } = first;
  if (!cancelled && shares > 1 && results.every((r) => r !== undefined)) {
    const fitted = tasks.map((t, f) => ({
      ...t,
      parents: unpackShares(cat.n, results.slice(f * shares, (f + 1) * shares) as Float64Array[]),
    }));
    ({ results, cancelled } = await runner.runAssignFolds(data, fitted, signal));
  }
  if (cancelled || results.some((r) => r === undefined)) throw new Error('the assignment was cancelled');
  return assignIndividuals(data, o, undefined, {
    folds: results.slice(0, folds) as Float64Array[],
    ...(anyUnlabelled ? { all: results[folds] } : {}),
  });
}

/**
 * Use cases "assign" and "predict": cross-validates a classifier on the labelled individuals and
 * gives every unlabelled individual its posterior from a model trained on all labelled ones.
 */
export function assignIndividuals(
  data: GenotypeData,
  o: AssignOptions,
  onProgress?: (p: StructureProgress) => void,
  /** Genotype variables: the folds' posteriors (and every row's from the model of all labelled individuals) computed elsewhere ({@link assignIndividualsOn}). */
  computed?: FoldPosteriors,
): Assignment {
  const cat = categoricalOf(data, o.by);
  if (cat.classes.length < 2)
    throw new RangeError(
      `assignment needs at least two ${o.by === 'group' ? 'groups' : 'populations'} among the labelled individuals`,
    );
  const K = cat.classes.length;
  const labels = cat.labels;
  const labelledRows = Array.from(labels).flatMap((y, r) => (y >= 0 ? [r] : []));
  const unlabelled = Array.from(labels).flatMap((y, r) => (y < 0 ? [r] : []));
  const folds = o.folds === 'loo' ? labelledRows.length : o.folds;
  const { variables, reason } = resolveVariables(data, o.variables ?? 'auto', o.classifier);
  const { byScore, work } = searchPlan(cat, variables, o);
  const requestedPrior = o.allelePrior ?? DEFAULT_ALLELE_PRIOR;
  /** The prior for a training set's counts in `d` ('auto': chosen by leave-one-out within it). */
  const priorFor = (d: GenotypeData, counts: AlleleCounts, rows: number[]): AllelePrior =>
    requestedPrior === 'auto' ? chooseAllelePrior(d, labels, counts, rows) : requestedPrior;
  // Counts of every labelled individual and their prior: the final allele model (unlabelled
  // individuals, exclusion) and the exact leave-one-out.
  const allCounts = alleleCounts(data, labels, K, labelledRows);
  const allelePrior = variables === 'alleles' ? priorFor(data, allCounts, labelledRows) : undefined;
  const learning = o.classifier.learning;
  const discriminative = learning === 'gradient' || learning === 'tm';
  const x = variables === 'alleles' && discriminative ? alleleRows(data) : undefined;
  /**
   * Posteriors of `test` from an allele classifier trained on `trainRows` of `d` (the data, or a
   * panel of its markers), counts and prior given; `xs`: d's allele rows for discriminative learning.
   */
  const allelePredict = (
    d: GenotypeData,
    xs: ReturnType<typeof alleleRows> | undefined,
    counts: AlleleCounts,
    prior: AllelePrior,
    trainRows: number[],
    test: readonly number[],
  ) =>
    xs && discriminative
      ? plugInPosteriors(
          xs,
          trainDiscriminativeAlleles(
            xs,
            labels,
            trainRows,
            counts,
            (rows) => alleleCounts(d, labels, K, rows),
            prior,
            learning,
            o.classifier.l2 ?? DEFAULT_ALLELE_GRADIENT.l2,
          ),
          test,
        )
      : allelePosteriors(d, alleleModel(counts, prior, d.ploidy), test);
  /** Cross-validated allele posteriors of `d`, refitted on each fold's training rows. */
  const foldPredict =
    (d: GenotypeData, xs: ReturnType<typeof alleleRows> | undefined) => (trainRows: number[], test: number[]) => {
      const counts = alleleCounts(d, labels, K, trainRows);
      return allelePredict(d, xs, counts, priorFor(d, counts, trainRows), trainRows, test);
    };
  const searchTotal = byScore ? (folds + (unlabelled.length > 0 ? 1 : 0)) * cat.n : 0;
  let searched = 0;
  const onFeature =
    byScore && onProgress ? () => onProgress({ done: ++searched, total: searchTotal, work }) : undefined;
  let evaluation: Evaluation;
  if (variables === 'genotypes')
    evaluation = computed
      ? crossValidateRows(labels, K, folds, o.seed, (_train, _test, f) => computed.folds[f]!)
      : crossValidate(cat, o.classifier, folds, o.seed, undefined, onFeature);
  else if (o.folds === 'loo' && learning === 'generative')
    evaluation = crossValidateRows(labels, K, 1, o.seed, (_, test) =>
      leaveOneOutPosteriors(data, labels, allCounts, allelePrior!, test),
    );
  else evaluation = crossValidateRows(labels, K, folds, o.seed, foldPredict(data, x));
  const posterior = Float64Array.from(evaluation.posterior);
  let exclusion: Float64Array | undefined;
  if (unlabelled.length > 0) {
    const model = alleleModel(allCounts, allelePrior ?? DEFAULT_ALLELE_PRIOR, data.ploidy);
    if (variables === 'alleles') {
      const post = allelePredict(data, x, allCounts, allelePrior!, labelledRows, unlabelled);
      unlabelled.forEach((r, k) => posterior.set(post.subarray(k * K, (k + 1) * K), r * K));
    } else {
      const post = computed?.all ?? predict(cat, train(cat, o.classifier, onFeature));
      for (const r of unlabelled) posterior.set(post.subarray(r * K, (r + 1) * K), r * K);
    }
    const draws = o.exclusionDraws ?? DEFAULT_EXCLUSION_DRAWS;
    if (draws > 0)
      exclusion = exclusionProbabilities(data, model, unlabelled, draws, createRng(deriveSeed(o.seed, 0x6578, 0)));
  }
  const sizes = o.curveSizes ?? [];
  // The curve uses the headline's variables: allele variables are refitted on each fold's panel
  // (a panel of every marker gives the headline's accuracy; genotype variables gave another).
  const alleleEvaluator: PanelEvaluator = (select) =>
    crossValidateRows(labels, K, folds, o.seed, (trainRows, test) => {
      const loci = [...select(trainRows)].sort((a, b) => a - b);
      const panel = subsetData(data, loci, range(data.individuals.length));
      return foldPredict(panel, discriminative ? alleleRows(panel) : undefined)(trainRows, test);
    });
  const evaluatePanel =
    variables === 'alleles' ? alleleEvaluator : genotypePanelEvaluator(cat, o.classifier, folds, o.seed);
  const raw =
    sizes.length > 0 ? panelCurveWith(cat, data, sizes, PANEL_METHOD.values, evaluatePanel, o.seed) : undefined;
  const curve = raw
    ? raw.points.map((p) => {
        const test = raw.tests.find((t) => t.method === p.method && t.size === p.size);
        return { ...p, ...(test ? { p: test.p } : {}) };
      })
    : [];
  return {
    data: cat,
    evaluation,
    posterior,
    unlabelled,
    curve,
    variables,
    variablesReason: reason,
    ...(allelePrior !== undefined ? { allelePrior } : {}),
    folds,
    ...classSummary(labels, K, evaluation),
    ...(exclusion ? { exclusion } : {}),
  };
}

/** Rannala & Mountain's prior (1/r per allele): GeneClass2's and the CLI's default. */
export const DEFAULT_ALLELE_PRIOR = 1;

/**
 * Simulated genotypes per population for the exclusion test: probabilities to 0.001, enough for
 * the usual 0.01 level (Paetkau et al. 2004 used 10,000; --exclusion-draws).
 */
export const DEFAULT_EXCLUSION_DRAWS = 1000;
