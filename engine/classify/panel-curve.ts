import type { PanelMethod } from '../util/choices.ts';
import { fstFromAssignments } from '../analysis/fst.ts';
import { wilcoxonSignedRank } from '../util/rank-tests.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import { subsetData, range } from '../data/genotype-data.ts';
import { createRng } from '../util/rng.ts';
import { subsetFeatures, type CategoricalData } from './categorical.ts';
import { crossValidate, type ClassifierOptions, type Evaluation } from './evaluate.ts';
import { classMI } from './network-structure.ts';

export type { PanelMethod };

/**
 * Markers ranked on the training rows only: by I(X; C) between genotype and class, by per-locus
 * F_ST of the classes (Reynolds, hard assignments), or in a seeded random order.
 */
export function rankMarkers(
  d: CategoricalData,
  genotypes: GenotypeData,
  trainRows: readonly number[],
  method: PanelMethod,
  seed: number,
): number[] {
  const idx = Array.from({ length: d.n }, (_, i) => i);
  if (method === 'random') {
    const rng = createRng(seed);
    for (let k = idx.length - 1; k > 0; k--) {
      const j = Math.floor(rng.uniform() * (k + 1));
      [idx[k], idx[j]] = [idx[j]!, idx[k]!];
    }
    return idx;
  }
  if (method === 'mi') {
    const inTrain = new Set(trainRows);
    const train: CategoricalData = { ...d, labels: Int32Array.from(d.labels, (y, r) => (inTrain.has(r) ? y : -1)) };
    const mi = idx.map((i) => classMI(train, i));
    return idx.sort((a, b) => mi[b]! - mi[a]! || a - b);
  }
  const sub = subsetData(genotypes, range(genotypes.loci.length), trainRows);
  const fst = fstFromAssignments(
    sub,
    trainRows.map((r) => d.labels[r]!),
  ).perLocus;
  return idx.sort((a, b) => fst[b]! - fst[a]! || a - b);
}

export interface PanelPoint {
  readonly method: PanelMethod;
  readonly size: number;
  readonly accuracy: number;
  readonly logLoss: number;
  readonly foldAccuracy: readonly number[];
}

/** Cross-validates a classifier on the markers `select` picks from each fold's training rows. */
export type PanelEvaluator = (select: (trainRows: number[]) => number[]) => Evaluation;

/** The panel evaluator of genotype variables: the categorical classifier on the chosen markers. */
export function genotypePanelEvaluator(
  d: CategoricalData,
  o: ClassifierOptions,
  folds: number,
  seed: number,
): PanelEvaluator {
  return (select) => crossValidate(d, o, folds, seed, (trainRows) => subsetFeatures(d, select(trainRows)));
}

/**
 * Cross-validated accuracy and log-loss against panel size for panels chosen by each method,
 * with markers chosen inside every fold (no selection bias), and the Wilcoxon signed-rank test
 * of per-fold accuracies of each method against random panels; genotype variables.
 */
export function panelCurve(
  d: CategoricalData,
  genotypes: GenotypeData,
  sizes: readonly number[],
  methods: readonly PanelMethod[],
  o: ClassifierOptions,
  folds: number,
  seed: number,
): { points: PanelPoint[]; tests: { method: PanelMethod; size: number; p: number }[] } {
  return panelCurveWith(d, genotypes, sizes, methods, genotypePanelEvaluator(d, o, folds, seed), seed);
}

/** {@link panelCurve} with any evaluator (the Assign use case passes its allele classifier's). */
export function panelCurveWith(
  d: CategoricalData,
  genotypes: GenotypeData,
  sizes: readonly number[],
  methods: readonly PanelMethod[],
  evaluate: PanelEvaluator,
  seed: number,
): { points: PanelPoint[]; tests: { method: PanelMethod; size: number; p: number }[] } {
  const points: PanelPoint[] = [];
  const cache = new Map<string, number[]>();
  for (const method of methods)
    for (const size of sizes) {
      const e = evaluate((trainRows) => {
        const key = `${method}:${trainRows.join(',')}`;
        let ranking = cache.get(key);
        if (!ranking) cache.set(key, (ranking = rankMarkers(d, genotypes, trainRows, method, seed)));
        return ranking.slice(0, Math.min(size, d.n));
      });
      points.push({ method, size, accuracy: e.accuracy, logLoss: e.logLoss, foldAccuracy: e.foldAccuracy });
    }
  const tests = points
    .filter((p) => p.method !== 'random')
    .map((p) => {
      const r = points.find((q) => q.method === 'random' && q.size === p.size);
      return { method: p.method, size: p.size, p: r ? wilcoxonSignedRank(p.foldAccuracy, r.foldAccuracy).p : NaN };
    });
  return { points, tests };
}
