import { MISSING } from '../../data/genotype-data.ts';
import { logGamma, normalizeLogRow } from '../../util/log-math.ts';
import { gammaDraw, type Rng } from '../../util/rng.ts';
import type { TanData } from './tan-data.ts';
import { detExp, detLog } from '../../util/det-math.ts';

/**
 * The conditional tables of one variable X_i for its candidate parent sets, in the order
 * v = ∅, {C}, {X_l1}, …, {X_lw}, {C, X_l1}, …, {C, X_lw} (l = candidates[i]):
 *   none:  shape (r_i,)               θ(x_i)
 *   byC:   shape (K, r_i)             θ(x_i | c)
 *   byL:   per candidate, (r_l, r_i)  θ(x_i | x_l)
 *   byCL:  per candidate, (K, r_l, r_i) θ(x_i | c, x_l)
 *   weight: shape (2 + 2w,)           W_iv, the posterior weight of each parent set (sums to 1)
 */
export interface TanTables {
  readonly none: Float64Array;
  readonly byC: Float64Array;
  readonly byL: readonly Float64Array[];
  readonly byCL: readonly Float64Array[];
  readonly weight: Float64Array;
}

/**
 * The EMA-TAN model: cluster weights and, per variable, the posterior-weighted mixture of its
 * candidate CPTs (docs/algorithms.md §5): p(x_i | c, x_<i) = Σ_v W_iv θ̃^v(x_i | pa^v).
 * The complete network's tables are never built.
 */
export interface TanModel {
  readonly K: number;
  readonly weights: Float64Array;
  readonly vars: readonly TanTables[];
}

/** Expected counts with the same shapes as the tables (weight unused). */
export type TanCounts = { readonly cluster: Float64Array; readonly vars: readonly TanTables[] };

function emptyTables(td: TanData, i: number, K: number): TanTables {
  const r = td.states[i]!;
  const cand = td.candidates[i]!;
  return {
    none: new Float64Array(r),
    byC: new Float64Array(K * r),
    byL: Array.from(cand, (l) => new Float64Array(td.states[l]! * r)),
    byCL: Array.from(cand, (l) => new Float64Array(K * td.states[l]! * r)),
    weight: new Float64Array(2 + 2 * cand.length),
  };
}

export function emptyCounts(td: TanData, K: number): TanCounts {
  return { cluster: new Float64Array(K), vars: Array.from({ length: td.n }, (_, i) => emptyTables(td, i, K)) };
}

/** Bytes the tables of a TAN model take at K clusters (model, counts and a working copy). */
export function tanModelBytes(td: TanData, K: number): number {
  let cells = 0;
  for (let i = 0; i < td.n; i++) {
    const r = td.states[i]!;
    cells += r + K * r + 2 + 2 * td.candidates[i]!.length;
    for (const l of td.candidates[i]!) cells += (1 + K) * td.states[l]! * r;
  }
  return cells * 8 * 3;
}

/** The largest set of tables EMA-TAN accepts (bytes). */
export const TAN_MEMORY_LIMIT = 1.5e9;

/**
 * A random start: a naive Bayes model (all weight on {C}) whose θ(x_i | c) are drawn from
 * Dirichlet(p̂_i) around the observed frequencies, as EMA's 'data' start.
 */
export function randomTanModel(td: TanData, K: number, rng: Rng): TanModel {
  const bytes = tanModelBytes(td, K);
  if (bytes > TAN_MEMORY_LIMIT) {
    throw new RangeError(
      `EMA-TAN would need ${(bytes / 2 ** 30).toFixed(1)} GiB of tables here: unphased genotypes of multi-allelic markers have too many states (${td.states.reduce((m, x) => Math.max(m, x), 0)} at one locus). ` +
        'Use phased data, biallelic markers, a smaller --tan-window, or EMA.',
    );
  }
  const vars = Array.from({ length: td.n }, (_, i) => {
    const t = emptyTables(td, i, K);
    const r = td.states[i]!;
    const m = td.marginal[i]!;
    t.none.set(m);
    for (let c = 0; c < K; c++) {
      let s = 0;
      for (let x = 0; x < r; x++) s += t.byC[c * r + x] = gammaDraw(m[x]! + 0.5 / r, rng) + 1e-12;
      for (let x = 0; x < r; x++) t.byC[c * r + x]! /= s;
    }
    t.byL.forEach((tab, j) => {
      const rl = td.states[td.candidates[i]![j]!]!;
      for (let xl = 0; xl < rl; xl++) tab.set(m, xl * r);
    });
    t.byCL.forEach((tab, j) => {
      const rl = td.states[td.candidates[i]![j]!]!;
      for (let c = 0; c < K; c++)
        for (let xl = 0; xl < rl; xl++) tab.set(t.byC.subarray(c * r, (c + 1) * r), (c * rl + xl) * r);
    });
    t.weight[1] = 1;
    return t;
  });
  return { K, weights: new Float64Array(K).fill(1 / K), vars };
}

/**
 * p(x_i = x | c, parents of this row) for every c, written into out[0..K): the W-weighted mixture.
 * A missing parent value is averaged over the parent's observed state frequencies.
 */
function conditional(
  td: TanData,
  t: TanTables,
  i: number,
  x: number,
  d: number,
  h: number,
  K: number,
  out: Float64Array,
): void {
  const { N, R, values } = td;
  const r = td.states[i]!;
  const cand = td.candidates[i]!;
  const w = t.weight;
  const w0 = w[0]! * t.none[x]!;
  for (let c = 0; c < K; c++) out[c] = w0 + w[1]! * t.byC[c * r + x]!;
  for (let j = 0; j < cand.length; j++) {
    const l = cand[j]!;
    const rl = td.states[l]!;
    const xl = values[(l * N + d) * R + h]!;
    const wl = w[2 + j]!;
    const wcl = w[2 + cand.length + j]!;
    if (xl !== MISSING) {
      const base = t.byL[j]![xl * r + x]! * wl;
      const cl = t.byCL[j]!;
      for (let c = 0; c < K; c++) out[c]! += base + wcl * cl[(c * rl + xl) * r + x]!;
    } else {
      const m = td.marginal[l]!;
      let base = 0;
      for (let y = 0; y < rl; y++) base += m[y]! * t.byL[j]![y * r + x]!;
      for (let c = 0; c < K; c++) {
        let s = 0;
        for (let y = 0; y < rl; y++) s += m[y]! * t.byCL[j]![(c * rl + y) * r + x]!;
        out[c]! += wl * base + wcl * s;
      }
    }
  }
}

/** Digit j (candidate j's state) of a joint candidate configuration. */
function digit(td: TanData, i: number, cfg: number, j: number): number {
  const cand = td.candidates[i]!;
  let x = cfg;
  for (let k = cand.length - 1; k > j; k--) x = Math.floor(x / td.states[cand[k]!]!);
  return x % td.states[cand[j]!]!;
}

/** ln p(x_i = x | c, candidates in joint state cfg) for all (cfg, c, x): shape (configs, K, r). */
function logTable(td: TanData, t: TanTables, i: number, K: number): Float64Array {
  const r = td.states[i]!;
  const cand = td.candidates[i]!;
  const configs = td.configs[i]!;
  const w = t.weight;
  const out = new Float64Array(configs * K * r);
  const xs = new Int32Array(cand.length);
  for (let cfg = 0; cfg < configs; cfg++) {
    for (let j = 0; j < cand.length; j++) xs[j] = digit(td, i, cfg, j);
    for (let c = 0; c < K; c++)
      for (let x = 0; x < r; x++) {
        let p = w[0]! * t.none[x]! + w[1]! * t.byC[c * r + x]!;
        for (let j = 0; j < cand.length; j++) {
          const rl = td.states[cand[j]!]!;
          p +=
            w[2 + j]! * t.byL[j]![xs[j]! * r + x]! + w[2 + cand.length + j]! * t.byCL[j]![(c * rl + xs[j]!) * r + x]!;
        }
        out[(cfg * K + c) * r + x] = detLog(p);
      }
  }
  return out;
}

/**
 * E step: posterior p(c | x_d) (shape (N, K)) and the log-likelihood of the observed values.
 * Rows whose candidates are all observed read a precomputed table of ln p(x_i | c, parents).
 */
export function tanEStep(td: TanData, model: TanModel, posterior: Float64Array): number {
  const { N, R, n, values } = td;
  const K = model.K;
  const tmp = new Float64Array(K);
  for (let d = 0; d < N; d++) for (let c = 0; c < K; c++) posterior[d * K + c] = detLog(model.weights[c]!);
  for (let i = 0; i < n; i++) {
    const t = model.vars[i]!;
    const r = td.states[i]!;
    const cfgs = td.parentConfig[i];
    const table = cfgs ? logTable(td, t, i, K) : undefined;
    for (let d = 0; d < N; d++) {
      const o = d * K;
      for (let h = 0; h < R; h++) {
        const row = d * R + h;
        const x = values[i * N * R + row]!;
        if (x === MISSING) continue;
        const cfg = cfgs ? cfgs[row]! : -1;
        if (cfg >= 0) {
          const base = cfg * K * r + x;
          for (let c = 0; c < K; c++) posterior[o + c]! += table![base + c * r]!;
        } else {
          conditional(td, t, i, x, d, h, K, tmp);
          for (let c = 0; c < K; c++) posterior[o + c]! += detLog(tmp[c]!);
        }
      }
    }
  }
  let ll = 0;
  for (let d = 0; d < N; d++) ll += normalizeLogRow(posterior, d, K);
  return ll;
}

/** Adds one row's contribution with a missing candidate (spread over its frequencies). */
function countRowSlow(
  td: TanData,
  t: TanTables,
  i: number,
  x: number,
  d: number,
  h: number,
  posterior: Float64Array,
  K: number,
): void {
  const { N, R, values } = td;
  const r = td.states[i]!;
  const cand = td.candidates[i]!;
  for (let j = 0; j < cand.length; j++) {
    const l = cand[j]!;
    const rl = td.states[l]!;
    const xl = values[(l * N + d) * R + h]!;
    if (xl !== MISSING) {
      t.byL[j]![xl * r + x]!++;
      for (let c = 0; c < K; c++) t.byCL[j]![(c * rl + xl) * r + x]! += posterior[d * K + c]!;
    } else {
      const m = td.marginal[l]!;
      for (let y = 0; y < rl; y++) {
        t.byL[j]![y * r + x]! += m[y]!;
        for (let c = 0; c < K; c++) t.byCL[j]![(c * rl + y) * r + x]! += m[y]! * posterior[d * K + c]!;
      }
    }
  }
}

/**
 * Expected counts (7.23, 7.24) from posteriors; a missing candidate value is spread over its
 * frequencies. Rows are first summed per (candidate configuration, state), then spread to the
 * tables, so each row costs K additions.
 */
export function tanCounts(td: TanData, posterior: Float64Array, K: number, out: TanCounts): void {
  const { N, R, n, values } = td;
  out.cluster.fill(0);
  for (let d = 0; d < N; d++) for (let c = 0; c < K; c++) out.cluster[c]! += posterior[d * K + c]!;
  for (let i = 0; i < n; i++) {
    const t = out.vars[i]!;
    t.none.fill(0);
    t.byC.fill(0);
    for (const a of t.byL) a.fill(0);
    for (const a of t.byCL) a.fill(0);
    const r = td.states[i]!;
    const cand = td.candidates[i]!;
    const cfgs = td.parentConfig[i];
    const configs = td.configs[i]!;
    const acc = cfgs ? new Float64Array(configs * r * K) : undefined;
    const rows = cfgs ? new Float64Array(configs * r) : undefined;
    for (let d = 0; d < N; d++) {
      for (let h = 0; h < R; h++) {
        const row = d * R + h;
        const x = values[i * N * R + row]!;
        if (x === MISSING) continue;
        t.none[x]!++;
        for (let c = 0; c < K; c++) t.byC[c * r + x]! += posterior[d * K + c]!;
        const cfg = cfgs ? cfgs[row]! : -1;
        if (cfg >= 0) {
          const o = (cfg * r + x) * K;
          rows![cfg * r + x]!++;
          for (let c = 0; c < K; c++) acc![o + c]! += posterior[d * K + c]!;
        } else if (cand.length > 0) countRowSlow(td, t, i, x, d, h, posterior, K);
      }
    }
    if (!cfgs) continue;
    for (let cfg = 0; cfg < configs; cfg++)
      for (let x = 0; x < r; x++) {
        const nRows = rows![cfg * r + x]!;
        if (nRows === 0) continue;
        const o = (cfg * r + x) * K;
        for (let j = 0; j < cand.length; j++) {
          const xl = digit(td, i, cfg, j);
          const rl = td.states[cand[j]!]!;
          t.byL[j]![xl * r + x]! += nRows;
          for (let c = 0; c < K; c++) t.byCL[j]![(c * rl + xl) * r + x]! += acc![o + c]!;
        }
      }
  }
}

/** ln of Π_configs Γ(rα)/Γ(rα + N_j) Π_k Γ(α + N_jk)/Γ(α) for a table of `configs` rows of r counts. */
function logML(counts: Float64Array, configs: number, r: number, alpha: number): number {
  let s = 0;
  const lga = logGamma(alpha);
  const lgra = logGamma(r * alpha);
  for (let j = 0; j < configs; j++) {
    let n = 0;
    for (let k = 0; k < r; k++) {
      const x = counts[j * r + k]!;
      n += x;
      if (x !== 0) s += logGamma(alpha + x) - lga;
    }
    if (n !== 0) s += lgra - logGamma(r * alpha + n);
  }
  return s;
}

/** θ̃ = (α + N_jk)/(rα + N_j) row by row. */
function smooth(counts: Float64Array, configs: number, r: number, alpha: number, out: Float64Array): void {
  for (let j = 0; j < configs; j++) {
    let n = 0;
    for (let k = 0; k < r; k++) n += counts[j * r + k]!;
    for (let k = 0; k < r; k++) out[j * r + k] = (alpha + counts[j * r + k]!) / (r * alpha + n);
  }
}

/**
 * MA step of EMA-TAN (7.32 normalised): per variable, W_iv ∝ p_S(v)·ML_i^v over the candidate parent
 * sets (uniform p_S), and each θ̃^v from its expected counts. With `onlyC` (EM / warm-up) all
 * weight goes to {C}, which is the naive Bayes M step on the same variables.
 */
export function tanMaStep(
  td: TanData,
  counts: TanCounts,
  K: number,
  alpha: number,
  alphaCluster: number,
  out: TanModel,
  onlyC: boolean,
): void {
  let total = 0;
  for (let c = 0; c < K; c++) total += counts.cluster[c]!;
  for (let c = 0; c < K; c++) out.weights[c] = (alphaCluster + counts.cluster[c]!) / (K * alphaCluster + total);
  for (let i = 0; i < td.n; i++) {
    const r = td.states[i]!;
    const cand = td.candidates[i]!;
    const cnt = counts.vars[i]!;
    const t = out.vars[i]!;
    smooth(cnt.none, 1, r, alpha, t.none);
    smooth(cnt.byC, K, r, alpha, t.byC);
    cnt.byL.forEach((a, j) => smooth(a, td.states[cand[j]!]!, r, alpha, t.byL[j]!));
    cnt.byCL.forEach((a, j) => smooth(a, K * td.states[cand[j]!]!, r, alpha, t.byCL[j]!));
    const w = t.weight;
    if (onlyC) {
      w.fill(0);
      w[1] = 1;
      continue;
    }
    w[0] = logML(cnt.none, 1, r, alpha);
    w[1] = logML(cnt.byC, K, r, alpha);
    cnt.byL.forEach((a, j) => (w[2 + j] = logML(a, td.states[cand[j]!]!, r, alpha)));
    cnt.byCL.forEach((a, j) => (w[2 + cand.length + j] = logML(a, K * td.states[cand[j]!]!, r, alpha)));
    let max = -Infinity;
    for (const x of w) max = Math.max(max, x);
    let z = 0;
    for (let v = 0; v < w.length; v++) z += w[v] = detExp(w[v]! - max);
    for (let v = 0; v < w.length; v++) w[v]! /= z;
  }
}

/** Largest parameter change between two TAN models (weights, CPTs and W), the L∞ norm. */
export function tanChange(a: TanModel, b: TanModel): number {
  let d = 0;
  const diff = (x: Float64Array, y: Float64Array) => {
    for (let k = 0; k < x.length; k++) d = Math.max(d, Math.abs(x[k]! - y[k]!));
  };
  diff(a.weights, b.weights);
  a.vars.forEach((t, i) => {
    const u = b.vars[i]!;
    diff(t.none, u.none);
    diff(t.byC, u.byC);
    diff(t.weight, u.weight);
    t.byL.forEach((x, j) => diff(x, u.byL[j]!));
    t.byCL.forEach((x, j) => diff(x, u.byCL[j]!));
  });
  return d;
}

export function cloneTan(m: TanModel): TanModel {
  return {
    K: m.K,
    weights: Float64Array.from(m.weights),
    vars: m.vars.map((t) => ({
      none: Float64Array.from(t.none),
      byC: Float64Array.from(t.byC),
      byL: t.byL.map((a) => Float64Array.from(a)),
      byCL: t.byCL.map((a) => Float64Array.from(a)),
      weight: Float64Array.from(t.weight),
    })),
  };
}
