import type { GenotypeData } from '../data/genotype-data.ts';
import { categoricalFromGenotypes, type CategoricalData } from '../classify/categorical.ts';
import { predict } from '../classify/classifier.ts';
import { crossValidate, train, type ClassifierOptions, type Evaluation } from '../classify/evaluate.ts';
import { panelCurve } from '../classify/panel-curve.ts';
import { PANEL_METHOD, type AssignBy, type PanelMethod } from '../util/choices.ts';

export interface AssignOptions {
  /** Classes: populations or their groups. */
  readonly by: AssignBy;
  readonly classifier: ClassifierOptions;
  readonly folds: number;
  readonly seed: number;
  /** Panel sizes for the accuracy-against-panel-size curve (none: no curve). */
  readonly curveSizes?: readonly number[];
}

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
}

/**
 * Use cases "assign" and "predict": cross-validates a classifier on the labelled individuals and
 * gives every unlabelled individual its posterior from a model trained on all labelled ones.
 */
export function assignIndividuals(data: GenotypeData, o: AssignOptions): Assignment {
  const cat = categoricalFromGenotypes(data, o.by);
  if (cat.classes.length < 2)
    throw new RangeError(
      `assignment needs at least two ${o.by === 'group' ? 'groups' : 'populations'} among the labelled individuals`,
    );
  const evaluation = crossValidate(cat, o.classifier, o.folds, o.seed);
  const posterior = Float64Array.from(evaluation.posterior);
  const unlabelled = Array.from(cat.labels).flatMap((y, r) => (y < 0 ? [r] : []));
  if (unlabelled.length > 0) {
    const K = cat.classes.length;
    const post = predict(cat, train(cat, o.classifier));
    for (const r of unlabelled) posterior.set(post.subarray(r * K, (r + 1) * K), r * K);
  }
  const sizes = o.curveSizes ?? [];
  const raw =
    sizes.length > 0 ? panelCurve(cat, data, sizes, PANEL_METHOD.values, o.classifier, o.folds, o.seed) : undefined;
  const curve = raw
    ? raw.points.map((p) => {
        const test = raw.tests.find((t) => t.method === p.method && t.size === p.size);
        return { ...p, ...(test ? { p: test.p } : {}) };
      })
    : [];
  return { data: cat, evaluation, posterior, unlabelled, curve };
}
