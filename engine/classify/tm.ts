import type { CategoricalData } from './categorical.ts';
import { configCount, configOf, conditionalLogLik, logSmoothed, predict, type Classifier } from './classifier.ts';
import type { Parents } from './network-structure.ts';

/**
 * Counts of a classifier in the space where the TM algorithm works (dissertation 5.2): class
 * counts n_c and, per feature, n_{c,q,x} (class, parent configuration, state). The polynomial
 * sufficient statistics U of section 5.2.2.4 are an invertible linear transform of these, and the
 * feature-only statistics V stay fixed, so the update u ← u + u⁰ − E_θ{U|x} is, in count space,
 *   n ← n + λ (n⁰ − E_θ{n | x}),
 * where E replaces each item's class indicator by its posterior p_θ(c | x_d).
 */
interface Counts {
  cls: Float64Array;
  tables: Float64Array[];
}

function classifierFrom(d: CategoricalData, parents: Parents, n: Counts, alpha: number): Classifier {
  const K = d.classes.length;
  let total = 0;
  for (const x of n.cls) total += x;
  const prior = Float64Array.from(n.cls, (x) => Math.log((alpha + x) / (K * alpha + total)));
  const tables = n.tables.map((t, i) => logSmoothed(t, d.states[i]!, alpha));
  return { K, states: d.states, parents, prior, tables };
}

/** Observed counts (weights = class indicators) or expected ones (weights = posteriors). */
function countWith(d: CategoricalData, parents: Parents, weights: (row: number, c: number) => number): Counts {
  const K = d.classes.length;
  const shell: Classifier = { K, states: d.states, parents, prior: new Float64Array(K), tables: [] };
  const cls = new Float64Array(K);
  const tables = parents.map((p, i) => new Float64Array(K * configCount(d.states, p) * d.states[i]!));
  for (let row = 0; row < d.N; row++) {
    if (d.labels[row]! < 0) continue;
    for (let c = 0; c < K; c++) {
      const w = weights(row, c);
      if (w === 0) continue;
      cls[c]! += w;
      for (let i = 0; i < d.n; i++) {
        const x = d.values[row * d.n + i]!;
        if (x < 0) continue;
        const r = d.states[i]!;
        const Q = tables[i]!.length / (K * r);
        tables[i]![(c * Q + configOf(d, shell, i, row)) * r + x]! += w;
      }
    }
  }
  return { cls, tables };
}

export interface TmOptions {
  readonly maxIterations: number;
  readonly tolerance: number;
  /** Pseudo-count that maps counts to parameters (θ = (α + n)/(rα + n_row)). */
  readonly alpha: number;
}

export const DEFAULT_TM: TmOptions = { maxIterations: 100, tolerance: 1e-7, alpha: 1 };

/**
 * The TM algorithm (Santafé et al. 2005; dissertation Figure 5.2) for naive Bayes, TAN, kDB and
 * any structure in which the class is a parent of every feature, with multinomial variables:
 * starts from the observed counts, repeats n ← n + λ(n⁰ − E_θ{n|x}) with the largest λ in
 * {1, ½, ¼, …} that keeps every count legal and does not lower the conditional log-likelihood.
 * Returns the classifier and the CLL after every iteration (non-decreasing).
 */
export function fitTM(
  d: CategoricalData,
  parents: Parents,
  o: TmOptions = DEFAULT_TM,
): { classifier: Classifier; trace: number[] } {
  const K = d.classes.length;
  const n0 = countWith(d, parents, (row, c) => (d.labels[row] === c ? 1 : 0));
  let n: Counts = { cls: Float64Array.from(n0.cls), tables: n0.tables.map((t) => Float64Array.from(t)) };
  let model = classifierFrom(d, parents, n, o.alpha);
  let cll = conditionalLogLik(d, model);
  const trace = [cll];
  for (let it = 0; it < o.maxIterations; it++) {
    const post = predict(d, model);
    const expected = countWith(d, parents, (row, c) => post[row * K + c]!);
    let accepted = false;
    for (let lambda = 1; lambda > 1e-6; lambda /= 2) {
      const step = (cur: Float64Array, obs: Float64Array, exp: Float64Array) =>
        Float64Array.from(cur, (v, k) => v + lambda * (obs[k]! - exp[k]!));
      const next: Counts = {
        cls: step(n.cls, n0.cls, expected.cls),
        tables: n.tables.map((t, i) => step(t, n0.tables[i]!, expected.tables[i]!)),
      };
      const legal = next.cls.every((x) => x + o.alpha > 0) && next.tables.every((t) => t.every((x) => x + o.alpha > 0));
      if (!legal) continue;
      const cand = classifierFrom(d, parents, next, o.alpha);
      const v = conditionalLogLik(d, cand);
      if (v >= cll) {
        const gain = v - cll;
        n = next;
        model = cand;
        cll = v;
        accepted = gain > o.tolerance * Math.max(1, Math.abs(v));
        break;
      }
    }
    trace.push(cll);
    if (!accepted) break;
  }
  return { classifier: model, trace };
}
