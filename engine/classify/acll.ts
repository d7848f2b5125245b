import { createRng } from '../util/rng.ts';
import type { CategoricalData } from './categorical.ts';
import { configCount, configOf, type Classifier } from './classifier.ts';
import type { Parents } from './network-structure.ts';

/**
 * β of the approximate conditional log-likelihood (aCLL) for s classes (seed 000, Theorem 3.2).
 * CLL_t = ln U_{t,c_t} − ln Σ_c U_{t,c}, and ln Σ_c U_c is replaced by its least-squares fit
 * b·Σ_c ln U_c + γ for U_1..U_s i.i.d. Uniform(0, 1) (the symmetric uniform assumption; seeded
 * Monte Carlo), so CLL_t ≈ α ln U_{t,c_t} + β Σ_{c≠c_t} ln U_{t,c} − γ with β = −b, α = 1 + β.
 * For s = 2 this gives β = (π² − 18)/24 ≈ −0.339 and α ≈ 0.661, the binary aCLL constants.
 */
export function acllBeta(s: number, samples = 200_000, seed = 1): number {
  const rng = createRng(seed);
  let sa = 0;
  let sb = 0;
  let sab = 0;
  let sbb = 0;
  for (let t = 0; t < samples; t++) {
    let sum = 0;
    let b = 0;
    for (let c = 0; c < s; c++) {
      const u = 1 - rng.uniform();
      sum += u;
      b += Math.log(u);
    }
    const a = Math.log(sum);
    sa += a;
    sb += b;
    sab += a * b;
    sbb += b * b;
  }
  const cov = sab / samples - (sa / samples) * (sb / samples);
  const varB = sbb / samples - (sb / samples) ** 2;
  return -cov / varB;
}

const betaCache = new Map<number, number>();
/** β for s classes, computed once per s. */
export function acllBetaCached(s: number): number {
  return betaFor(s);
}
function betaFor(s: number): number {
  let b = betaCache.get(s);
  if (b === undefined) betaCache.set(s, (b = acllBeta(s)));
  return b;
}

/**
 * Closed-form aCLL parameters (seed 000, Theorem 3.8): with α = 1 + β and N' pseudo-counts,
 *   N⁺_{ijck} = max(N', α N_{ijck} + β Σ_{c'≠c} N_{ijc'k}),  θ_{ijck} = N⁺_{ijck} / Σ_k N⁺_{ijck},
 * and likewise for the class prior.
 */
export function fitAcll(d: CategoricalData, parents: Parents, pseudo = 0.5): Classifier {
  const K = d.classes.length;
  const beta = betaFor(K);
  const alpha = 1 + beta;
  const shell: Classifier = { K, states: d.states, parents, prior: new Float64Array(K), tables: [] };
  const nc = new Float64Array(K);
  for (let r = 0; r < d.N; r++) if (d.labels[r]! >= 0) nc[d.labels[r]!]!++;
  const totalC = nc.reduce((a, b) => a + b, 0);
  const plusC = Float64Array.from(nc, (x) => Math.max(pseudo, alpha * x + beta * (totalC - x)));
  const sumC = plusC.reduce((a, b) => a + b, 0);
  const prior = Float64Array.from(plusC, (x) => Math.log(x / sumC));
  const tables = parents.map((p, i) => {
    const r = d.states[i]!;
    const Q = configCount(d.states, p);
    const counts = new Float64Array(K * Q * r);
    for (let row = 0; row < d.N; row++) {
      const y = d.labels[row]!;
      const x = d.values[row * d.n + i]!;
      if (y < 0 || x < 0) continue;
      counts[(y * Q + configOf(d, { ...shell, parents }, i, row)) * r + x]!++;
    }
    const out = new Float64Array(counts.length);
    for (let q = 0; q < Q; q++)
      for (let c = 0; c < K; c++) {
        let rowSum = 0;
        for (let x = 0; x < r; x++) {
          let others = 0;
          for (let c2 = 0; c2 < K; c2++) if (c2 !== c) others += counts[(c2 * Q + q) * r + x]!;
          const v = Math.max(pseudo, alpha * counts[(c * Q + q) * r + x]! + beta * others);
          out[(c * Q + q) * r + x] = v;
          rowSum += v;
        }
        for (let x = 0; x < r; x++) out[(c * Q + q) * r + x] = Math.log(out[(c * Q + q) * r + x]! / rowSum);
      }
    return out;
  });
  return { K, states: d.states, parents, prior, tables };
}
