import { maximizeLbfgs, type LbfgsOptions } from '../util/lbfgs.ts';
import type { CategoricalData } from './categorical.ts';
import { configOf, logJoint, normalizers, type Classifier } from './classifier.ts';

/** The classifier's parameters as one vector: prior, then every table. */
export function pack(c: Classifier): Float64Array {
  const out = new Float64Array(c.prior.length + c.tables.reduce((s, t) => s + t.length, 0));
  out.set(c.prior, 0);
  let o = c.prior.length;
  for (const t of c.tables) {
    out.set(t, o);
    o += t.length;
  }
  return out;
}

export function unpack(c: Classifier, v: Float64Array): Classifier {
  let o = c.K;
  return {
    ...c,
    prior: v.slice(0, c.K),
    tables: c.tables.map((t) => {
      const s = v.slice(o, o + t.length);
      o += t.length;
      return s;
    }),
  };
}

/**
 * Conditional log-likelihood CLL = Σ_d ln p(c_d | x_d) and its gradient with respect to the
 * softmax weights β (seed 002's gradient, in the softmax parameterisation):
 *   ∂CLL/∂β_{i,c,q,k} = Σ_d w_dc · 1[q_d = q] · (1[x_di = k] − θ_{i,c,q,k}),  w_dc = 1[c = c_d] − p(c | x_d),
 *   ∂CLL/∂β_c (prior) = Σ_d w_dc.
 * `l2` subtracts (l2/2)·‖β − β₀‖² to keep weights finite on separable data.
 */
export function cllGradient(
  d: CategoricalData,
  c: Classifier,
  anchor?: Float64Array,
  l2 = 0,
): { value: number; grad: Float64Array } {
  const K = c.K;
  const z = normalizers(c);
  const gradPrior = new Float64Array(K);
  const A = c.tables.map((t) => new Float64Array(t.length));
  const B = c.tables.map((t, i) => new Float64Array(t.length / c.states[i]!));
  const lj = new Float64Array(K);
  let value = 0;
  for (let row = 0; row < d.N; row++) {
    const y = d.labels[row]!;
    if (y < 0) continue;
    logJoint(d, c, row, lj, z);
    let m = -Infinity;
    for (let k = 0; k < K; k++) m = Math.max(m, lj[k]!);
    let s = 0;
    for (let k = 0; k < K; k++) s += Math.exp(lj[k]! - m);
    const lse = m + Math.log(s);
    value += lj[y]! - lse;
    for (let k = 0; k < K; k++) {
      const w = (k === y ? 1 : 0) - Math.exp(lj[k]! - lse);
      gradPrior[k]! += w;
      if (w === 0) continue;
      for (let i = 0; i < d.n; i++) {
        const x = d.values[row * d.n + i]!;
        if (x < 0) continue;
        const r = c.states[i]!;
        const Q = B[i]!.length / K;
        const rowIdx = k * Q + configOf(d, c, i, row);
        A[i]![rowIdx * r + x]! += w;
        B[i]![rowIdx]! += w;
      }
    }
  }
  // The prior's softmax: ∂/∂β_c = Σ_d w_dc (Σ_c w_dc = 0, so the normaliser's term vanishes).
  const grad = new Float64Array(K + c.tables.reduce((t, x) => t + x.length, 0));
  grad.set(gradPrior, 0);
  let o = K;
  c.tables.forEach((t, i) => {
    const r = c.states[i]!;
    const zi = z.rows[i]!;
    for (let q = 0; q < B[i]!.length; q++) {
      const b = B[i]![q]!;
      for (let x = 0; x < r; x++) grad[o + q * r + x] = A[i]![q * r + x]! - b * Math.exp(t[q * r + x]! - zi[q]!);
    }
    o += t.length;
  });
  if (l2 > 0 && anchor) {
    const v = pack(c);
    for (let k = 0; k < v.length; k++) {
      const diff = v[k]! - anchor[k]!;
      value -= (l2 / 2) * diff * diff;
      grad[k]! -= l2 * diff;
    }
  }
  return { value, grad };
}

export interface DiscriminativeOptions extends LbfgsOptions {
  readonly l2: number;
}

export const DEFAULT_DISCRIMINATIVE: DiscriminativeOptions = {
  maxIterations: 200,
  tolerance: 1e-7,
  l2: 0.01,
  memory: 7,
};

/**
 * Discriminative parameters: maximises the (lightly L2-anchored) conditional log-likelihood by
 * L-BFGS from the given (generative) parameters; the objective never decreases along the
 * iterations (`trace`).
 */
export function fitDiscriminative(
  d: CategoricalData,
  start: Classifier,
  o: DiscriminativeOptions = DEFAULT_DISCRIMINATIVE,
): { classifier: Classifier; trace: number[] } {
  const anchor = pack(start);
  const { x, trace } = maximizeLbfgs(anchor, (v) => cllGradient(d, unpack(start, v), anchor, o.l2), o);
  return { classifier: unpack(start, x), trace };
}
