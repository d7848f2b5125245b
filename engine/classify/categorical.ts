import type { AssignBy } from '../util/choices.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import { genotypeStates } from '../data/genotype-states.ts';

/**
 * A supervised dataset of categorical features:
 *   values: shape (N, n), values[d * n + i] = state of feature i for item d, or MISSING (-1)
 *   labels: shape (N,), class index of item d, or -1 when unlabelled
 */
export interface CategoricalData {
  readonly N: number;
  readonly n: number;
  readonly states: Int32Array;
  readonly values: Int16Array;
  readonly labels: Int32Array;
  readonly classes: readonly string[];
  readonly features: readonly string[];
}

/** The rows `rows` of a dataset (a fold). */
export function subsetRows(d: CategoricalData, rows: ArrayLike<number>): CategoricalData {
  const values = new Int16Array(rows.length * d.n);
  const labels = new Int32Array(rows.length);
  for (let k = 0; k < rows.length; k++) {
    values.set(d.values.subarray(rows[k]! * d.n, (rows[k]! + 1) * d.n), k * d.n);
    labels[k] = d.labels[rows[k]!]!;
  }
  return { ...d, N: rows.length, values, labels };
}

/** The features `cols` of a dataset (a marker panel). */
export function subsetFeatures(d: CategoricalData, cols: readonly number[]): CategoricalData {
  const values = new Int16Array(d.N * cols.length);
  for (let r = 0; r < d.N; r++) cols.forEach((c, k) => (values[r * cols.length + k] = d.values[r * d.n + c]!));
  return {
    ...d,
    n: cols.length,
    values,
    states: Int32Array.from(cols, (c) => d.states[c]!),
    features: cols.map((c) => d.features[c]!),
  };
}

/**
 * Genotypes as categorical features: one feature per locus whose states are the distinct
 * unordered genotypes seen at it (any ploidy); a genotype with a missing copy is missing, and
 * missing features are marginalised out by the classifiers. Class labels are the individuals'
 * populations (or `groupBy` 'group' for regions); individuals without one are unlabelled.
 */
export function categoricalFromGenotypes(data: GenotypeData, groupBy: AssignBy = 'population'): CategoricalData {
  const N = data.individuals.length;
  const n = data.loci.length;
  const values = new Int16Array(N * n);
  const states = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const g = genotypeStates(data, i);
    for (let d = 0; d < N; d++) values[d * n + i] = g.values[d]!;
    states[i] = g.count;
  }
  const classes: string[] = [];
  const index = new Map<string, number>();
  const labels = Int32Array.from(data.individuals, (ind) => {
    const l = groupBy === 'group' ? ind.group : ind.population;
    if (l === undefined || l === '') return -1;
    let c = index.get(l);
    if (c === undefined) {
      index.set(l, (c = classes.length));
      classes.push(l);
    }
    return c;
  });
  return { N, n, states, values, labels, classes, features: data.loci.map((l) => l.name) };
}
