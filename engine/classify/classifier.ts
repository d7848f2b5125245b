import type { CategoricalData } from './categorical.ts';
import type { Parents } from './network-structure.ts';

/**
 * A Bayesian-network classifier: the class C is a parent of every feature, plus the feature
 * parents of its structure. Parameters are kept as unnormalised log weights β (a softmax per CPT
 * row), so the same object serves generative and discriminative learning:
 *   prior:  shape (K,)                        p(c) = softmax(prior)
 *   tables: per feature i, shape (K, Q_i, r_i)  p(x_i | c, pa) = softmax over x_i of the row
 * Q_i = Π_p (r_p + 1): a parent's missing value is one more parent state; a missing feature value
 * is marginalised out (its factor is 1).
 */
export interface Classifier {
  readonly K: number;
  readonly states: Int32Array;
  readonly parents: Parents;
  readonly prior: Float64Array;
  readonly tables: readonly Float64Array[];
}

export function configCount(states: Int32Array, parents: Int32Array): number {
  let q = 1;
  for (const p of parents) q *= states[p]! + 1;
  return q;
}

/** The parent configuration of row `row` for feature i (missing parent → its extra state). */
export function configOf(d: CategoricalData, c: Classifier, i: number, row: number): number {
  let q = 0;
  for (const p of c.parents[i]!) {
    const v = d.values[row * d.n + p]!;
    q = q * (c.states[p]! + 1) + (v < 0 ? c.states[p]! : v);
  }
  return q;
}

/** ln of (a + n)/(r·a + Σ row) for every row of r counts (a new array). */
export function logSmoothed(counts: Float64Array, r: number, a: number): Float64Array {
  const out = new Float64Array(counts.length);
  for (let o = 0; o < counts.length; o += r) {
    let s = 0;
    for (let x = 0; x < r; x++) s += counts[o + x]!;
    for (let x = 0; x < r; x++) out[o + x] = Math.log((a + counts[o + x]!) / (r * a + s));
  }
  return out;
}

/** The largest number of CPT entries a classifier may hold (about 400 MB of parameters). */
export const MAX_CELLS = 5e7;

/**
 * Generative parameters from the labelled rows: θ = (a + N)/(r·a + N_row) with a = α per cell
 * when `perRow` is false (Laplace), or a = α / r (a prior of total weight α per CPT row) when
 * true — the choice that keeps CPTs of many-state features (microsatellite genotypes) informative.
 */
export function fitGenerative(d: CategoricalData, parents: Parents, alpha = 1, perRow = false): Classifier {
  const K = d.classes.length;
  const prior = new Float64Array(K);
  let labelled = 0;
  for (let r = 0; r < d.N; r++)
    if (d.labels[r]! >= 0) {
      prior[d.labels[r]!]!++;
      labelled++;
    }
  for (let y = 0; y < K; y++) prior[y] = Math.log((alpha + prior[y]!) / (K * alpha + labelled));
  const shell: Classifier = { K, states: d.states, parents, prior, tables: [] };
  let cells = 0;
  for (let i = 0; i < d.n; i++) cells += K * configCount(d.states, parents[i]!) * d.states[i]!;
  if (cells > MAX_CELLS) {
    throw new RangeError(
      `the classifier's tables would hold ${cells.toExponential(2)} entries: features with many states (such as microsatellite genotypes) give parents too many configurations; use naive Bayes, fewer parents, or a smaller marker panel`,
    );
  }
  const tables = Array.from({ length: d.n }, (_, i) => {
    const r = d.states[i]!;
    const Q = configCount(d.states, parents[i]!);
    const t = new Float64Array(K * Q * r);
    for (let row = 0; row < d.N; row++) {
      const y = d.labels[row]!;
      const x = d.values[row * d.n + i]!;
      if (y < 0 || x < 0) continue;
      t[(y * Q + configOf(d, shell, i, row)) * r + x]!++;
    }
    return logSmoothed(t, r, perRow ? alpha / r : alpha);
  });
  return { K, states: d.states, parents, prior, tables };
}

function logSumExp(a: Float64Array, o: number, n: number): number {
  let m = -Infinity;
  for (let k = 0; k < n; k++) m = Math.max(m, a[o + k]!);
  let s = 0;
  for (let k = 0; k < n; k++) s += Math.exp(a[o + k]! - m);
  return m + Math.log(s);
}

/** Log-normalisers of every CPT row (so log θ = β − lse). */
export function normalizers(c: Classifier): { prior: number; rows: Float64Array[] } {
  return {
    prior: logSumExp(c.prior, 0, c.K),
    rows: c.tables.map((t, i) => {
      const r = c.states[i]!;
      const out = new Float64Array(t.length / r);
      for (let row = 0; row < out.length; row++) out[row] = logSumExp(t, row * r, r);
      return out;
    }),
  };
}

/** ln p(c, x_row) for every class, written into out (length K). */
export function logJoint(d: CategoricalData, c: Classifier, row: number, out: Float64Array, z = normalizers(c)): void {
  for (let y = 0; y < c.K; y++) out[y] = c.prior[y]! - z.prior;
  for (let i = 0; i < d.n; i++) {
    const x = d.values[row * d.n + i]!;
    if (x < 0) continue;
    const r = c.states[i]!;
    const Q = c.tables[i]!.length / (c.K * r);
    const q = configOf(d, c, i, row);
    const t = c.tables[i]!;
    const zi = z.rows[i]!;
    for (let y = 0; y < c.K; y++) out[y]! += t[(y * Q + q) * r + x]! - zi[y * Q + q]!;
  }
}

/** Posterior p(c | x) of every row: shape (N, K). */
export function predict(d: CategoricalData, c: Classifier): Float64Array {
  const out = new Float64Array(d.N * c.K);
  const z = normalizers(c);
  const tmp = new Float64Array(c.K);
  for (let row = 0; row < d.N; row++) {
    logJoint(d, c, row, tmp, z);
    const m = Math.max(...tmp);
    let s = 0;
    for (let y = 0; y < c.K; y++) s += Math.exp(tmp[y]! - m);
    for (let y = 0; y < c.K; y++) out[row * c.K + y] = Math.exp(tmp[y]! - m) / s;
  }
  return out;
}

/** Σ over labelled rows of ln p(c_d | x_d) (conditional) or ln p(c_d, x_d) (joint). */
function labelledLogLik(d: CategoricalData, c: Classifier, conditional: boolean): number {
  const z = normalizers(c);
  const tmp = new Float64Array(c.K);
  let s = 0;
  for (let row = 0; row < d.N; row++) {
    const y = d.labels[row]!;
    if (y < 0) continue;
    logJoint(d, c, row, tmp, z);
    s += tmp[y]! - (conditional ? logSumExp(tmp, 0, c.K) : 0);
  }
  return s;
}

/** Conditional log-likelihood Σ ln p(c_d | x_d) over the labelled rows. */
export function conditionalLogLik(d: CategoricalData, c: Classifier): number {
  return labelledLogLik(d, c, true);
}

/** Log-likelihood Σ ln p(c_d, x_d) over the labelled rows (the generative score). */
export function jointLogLik(d: CategoricalData, c: Classifier): number {
  return labelledLogLik(d, c, false);
}
