import { alleleOffsets, type GenotypeData } from '../data/genotype-data.ts';
import { maximizeLbfgs, type LbfgsOptions } from '../util/lbfgs.ts';
import { priorWeight, softmaxInPlace, type AlleleCounts, type AllelePrior } from './allele-nb.ts';
import { chooseByInnerFolds, L2_GRID } from './evaluate.ts';

/**
 * Discriminative parameters for naive Bayes over alleles (the allele model of allele-nb.ts with
 * point frequencies): individual x scores class c by
 *
 *   s_c(x) = b_c + Σ_l Σ_a n_la(x) ln θ_cla,
 *
 * n_la(x) the copies of allele a that x carries at locus l (missing copies skipped, any ploidy).
 * Two learners maximise the conditional log-likelihood CLL = Σ_d ln p(c_d | x_d) over the same
 * parameters: the gradient (L-BFGS in the softmax parameterisation θ_cl· = softmax(β_cl·), as seed
 * 002 does for categorical variables) and the TM algorithm in count space (dissertation 5.2).
 * Both start from the generative estimate, the posterior mean of Rannala & Mountain's Dirichlet
 * (θ_cla = (n_cla + w/r_l) / (n_cl + w)).
 */

/** Every individual's allele counts, sparse: entries start[i]..start[i+1] of allele row, locus, count. */
export interface AlleleRows {
  readonly offsets: Int32Array;
  readonly start: Int32Array;
  readonly allele: Int32Array;
  readonly locus: Int32Array;
  readonly count: Float64Array;
}

/** The sparse allele counts of every individual (allele rows offsets[l] + a, as in allele-nb.ts). */
export function alleleRows(data: GenotypeData): AlleleRows {
  const offsets = alleleOffsets(data);
  const N = data.individuals.length;
  const L = data.loci.length;
  const P = data.ploidy;
  const start = new Int32Array(N + 1);
  const allele: number[] = [];
  const locus: number[] = [];
  const count: number[] = [];
  for (let i = 0; i < N; i++) {
    for (let l = 0; l < L; l++) {
      const base = (l * N + i) * P;
      for (let p = 0; p < P; p++) {
        const a = data.calls[base + p]!;
        if (a < 0) continue;
        let earlier = false;
        for (let q = 0; q < p; q++) if (data.calls[base + q] === a) earlier = true;
        if (earlier) continue;
        let n = 1;
        for (let q = p + 1; q < P; q++) if (data.calls[base + q] === a) n++;
        allele.push(offsets[l]! + a);
        locus.push(l);
        count.push(n);
      }
    }
    start[i + 1] = allele.length;
  }
  return {
    offsets,
    start,
    allele: Int32Array.from(allele),
    locus: Int32Array.from(locus),
    count: Float64Array.from(count),
  };
}

/** Point-frequency allele model: logTheta shape (T, K), class biases b (K). */
export interface PlugInAlleleModel {
  readonly K: number;
  readonly logTheta: Float64Array;
  readonly bias: Float64Array;
}

/** s_c(x_i) for every class into out[o..o+K). */
function scores(x: AlleleRows, m: PlugInAlleleModel, i: number, out: Float64Array, o = 0): void {
  const K = m.K;
  for (let c = 0; c < K; c++) out[o + c] = m.bias[c]!;
  for (let e = x.start[i]!; e < x.start[i + 1]!; e++) {
    const t = x.allele[e]! * K;
    const n = x.count[e]!;
    for (let c = 0; c < K; c++) out[o + c]! += n * m.logTheta[t + c]!;
  }
}

/** Posteriors p(c | x_i) of the individuals `rows`, shape (rows.length, K). */
export function plugInPosteriors(x: AlleleRows, m: PlugInAlleleModel, rows: ArrayLike<number>): Float64Array {
  const out = new Float64Array(rows.length * m.K);
  for (let r = 0; r < rows.length; r++) {
    scores(x, m, rows[r]!, out, r * m.K);
    softmaxInPlace(out, r * m.K, m.K);
  }
  return out;
}

/** CLL = Σ ln p(c_i | x_i) over the labelled `rows`. */
export function alleleCll(x: AlleleRows, m: PlugInAlleleModel, labels: Int32Array, rows: ArrayLike<number>): number {
  const post = plugInPosteriors(x, m, rows);
  let s = 0;
  for (let r = 0; r < rows.length; r++) s += Math.log(Math.max(1e-300, post[r * m.K + labels[rows[r]!]!]!));
  return s;
}

/** ln θ from counts: (n_cla + w/r) / (n_cl + w) per locus and class. */
function logFrequencies(offsets: Int32Array, K: number, counts: Float64Array, prior: AllelePrior): Float64Array {
  const L = offsets.length - 1;
  const out = new Float64Array(counts.length);
  for (let l = 0; l < L; l++) {
    const lo = offsets[l]!;
    const r = offsets[l + 1]! - lo;
    const pseudo = priorWeight(prior, r) / r;
    for (let c = 0; c < K; c++) {
      let A = 0;
      for (let a = lo; a < lo + r; a++) A += counts[a * K + c]! + pseudo;
      for (let a = lo; a < lo + r; a++) out[a * K + c] = Math.log((counts[a * K + c]! + pseudo) / A);
    }
  }
  return out;
}

/** The generative start: posterior-mean frequencies and equal class biases (GeneClass2's equal priors). */
export function generativePlugIn(counts: AlleleCounts, prior: AllelePrior): PlugInAlleleModel {
  return {
    K: counts.K,
    logTheta: logFrequencies(counts.offsets, counts.K, counts.counts, prior),
    bias: new Float64Array(counts.K),
  };
}

export interface AlleleGradientOptions extends LbfgsOptions {
  /** Strength of the L2 anchor (l2/2)·‖β − β₀‖² to the generative start. */
  readonly l2: number;
}

export const DEFAULT_ALLELE_GRADIENT: AlleleGradientOptions = {
  maxIterations: 200,
  tolerance: 1e-7,
  memory: 7,
  // The default anchor: measured (5-fold CV) on nancycats (accuracy 67.1 / 68.4 / 68.8 / 68.4 % for
  // 0.01 / 0.1 / 1 / 10), eHGDP regions (97.6 % for each) and linked loci (tests: 0.93 up to 1);
  // the inner-CV choice ('auto') refits 12 times per fold, too slow for a default on large panels.
  l2: 1,
};

/**
 * CLL (minus the L2 anchor) and its gradient in β = (b, ln θ unnormalised):
 *   ∂/∂β_tc = Σ_d w_dc (n_t(x_d) − n_l(t)(x_d) θ_tc),  ∂/∂b_c = Σ_d w_dc,  w_dc = 1[c = c_d] − p(c | x_d).
 * v = (b (K), β (T·K)); θ is the per-locus, per-class softmax of β.
 */
export function alleleCllGradient(
  x: AlleleRows,
  labels: Int32Array,
  rows: ArrayLike<number>,
  K: number,
  v: Float64Array,
  anchor: Float64Array,
  l2: number,
): { value: number; grad: Float64Array } {
  const model = modelFromVector(x.offsets, K, v);
  const L = x.offsets.length - 1;
  const grad = new Float64Array(v.length);
  const A = grad.subarray(K);
  const B = new Float64Array(L * K);
  const s = new Float64Array(K);
  let value = 0;
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r]!;
    const y = labels[i]!;
    scores(x, model, i, s);
    let mx = -Infinity;
    for (let c = 0; c < K; c++) mx = Math.max(mx, s[c]!);
    let z = 0;
    for (let c = 0; c < K; c++) z += Math.exp(s[c]! - mx);
    const lse = mx + Math.log(z);
    value += s[y]! - lse;
    for (let c = 0; c < K; c++) s[c] = (c === y ? 1 : 0) - Math.exp(s[c]! - lse);
    for (let c = 0; c < K; c++) grad[c]! += s[c]!;
    for (let e = x.start[i]!; e < x.start[i + 1]!; e++) {
      const t = x.allele[e]! * K;
      const l = x.locus[e]! * K;
      const n = x.count[e]!;
      for (let c = 0; c < K; c++) {
        A[t + c]! += n * s[c]!;
        B[l + c]! += n * s[c]!;
      }
    }
  }
  for (let l = 0; l < L; l++)
    for (let t = x.offsets[l]!; t < x.offsets[l + 1]!; t++)
      for (let c = 0; c < K; c++) A[t * K + c]! -= B[l * K + c]! * Math.exp(model.logTheta[t * K + c]!);
  for (let k = 0; k < v.length; k++) {
    const diff = v[k]! - anchor[k]!;
    value -= (l2 / 2) * diff * diff;
    grad[k]! -= l2 * diff;
  }
  return { value, grad };
}

/** The model of a parameter vector (b, β): ln θ = β − ln Σ_locus exp β per class. */
function modelFromVector(offsets: Int32Array, K: number, v: Float64Array): PlugInAlleleModel {
  const beta = v.subarray(K);
  const logTheta = new Float64Array(beta.length);
  const L = offsets.length - 1;
  for (let l = 0; l < L; l++)
    for (let c = 0; c < K; c++) {
      let mx = -Infinity;
      for (let t = offsets[l]!; t < offsets[l + 1]!; t++) mx = Math.max(mx, beta[t * K + c]!);
      let z = 0;
      for (let t = offsets[l]!; t < offsets[l + 1]!; t++) z += Math.exp(beta[t * K + c]! - mx);
      const lse = mx + Math.log(z);
      for (let t = offsets[l]!; t < offsets[l + 1]!; t++) logTheta[t * K + c] = beta[t * K + c]! - lse;
    }
  return { K, logTheta, bias: v.slice(0, K) };
}

/**
 * Gradient-CLL learning from the generative start: L-BFGS on the L2-anchored CLL of the labelled
 * `rows` (the objective never decreases: `trace`).
 */
export function fitAlleleGradient(
  x: AlleleRows,
  labels: Int32Array,
  rows: ArrayLike<number>,
  start: PlugInAlleleModel,
  o: AlleleGradientOptions = DEFAULT_ALLELE_GRADIENT,
): { model: PlugInAlleleModel; trace: number[] } {
  const K = start.K;
  const anchor = new Float64Array(K + start.logTheta.length);
  anchor.set(start.bias, 0);
  anchor.set(start.logTheta, K);
  const labelled = Array.from(rows).filter((i) => labels[i]! >= 0);
  const res = maximizeLbfgs(anchor, (v) => alleleCllGradient(x, labels, labelled, K, v, anchor, o.l2), o);
  return { model: modelFromVector(x.offsets, K, res.x), trace: res.trace };
}

export interface AlleleTmOptions {
  readonly maxIterations: number;
  readonly tolerance: number;
  /** The frequencies' prior (as in allele-nb.ts); class counts get one pseudo-count each. */
  readonly prior: AllelePrior;
}

export const DEFAULT_ALLELE_TM: AlleleTmOptions = { maxIterations: 100, tolerance: 1e-7, prior: 1 };

/** The model of TM counts: frequencies as {@link logFrequencies}, biases ln((1 + n_c) / (K + n)). */
function tmModel(offsets: Int32Array, K: number, cls: Float64Array, counts: Float64Array, prior: AllelePrior) {
  let total = 0;
  for (const n of cls) total += n;
  return {
    K,
    logTheta: logFrequencies(offsets, K, counts, prior),
    bias: Float64Array.from(cls, (n) => Math.log((1 + n) / (K + total))),
  };
}

/**
 * The TM algorithm over allele counts (dissertation 5.2, as tm.ts for categorical variables):
 * from the observed counts n⁰ (class counts and n_cla), repeat n ← n + λ(n⁰ − E_θ{n | x}), where
 * the expectation weights each individual's allele counts by p_θ(c | x), with the largest λ in
 * {1, ½, ¼, …} that keeps every pseudo-count positive and does not lower the CLL. `trace`: the
 * CLL after every iteration (non-decreasing).
 */
export function fitAlleleTM(
  x: AlleleRows,
  labels: Int32Array,
  rows: ArrayLike<number>,
  counts0: AlleleCounts,
  o: AlleleTmOptions = DEFAULT_ALLELE_TM,
): { model: PlugInAlleleModel; trace: number[] } {
  const { K, offsets } = counts0;
  const labelled = Array.from(rows).filter((i) => labels[i]! >= 0);
  const cls0 = new Float64Array(K);
  for (const i of labelled) cls0[labels[i]!]!++;
  const n0 = counts0.counts;
  const L = offsets.length - 1;
  const minPseudo = new Float64Array(n0.length);
  for (let l = 0; l < L; l++) {
    const r = offsets[l + 1]! - offsets[l]!;
    minPseudo.fill(priorWeight(o.prior, r) / r, offsets[l]! * K, offsets[l + 1]! * K);
  }
  let cls = Float64Array.from(cls0);
  let n = Float64Array.from(n0);
  let model = tmModel(offsets, K, cls, n, o.prior);
  let cll = alleleCll(x, model, labels, labelled);
  const trace = [cll];
  for (let it = 0; it < o.maxIterations; it++) {
    const post = plugInPosteriors(x, model, labelled);
    const eCls = new Float64Array(K);
    const eN = new Float64Array(n.length);
    labelled.forEach((i, r) => {
      for (let c = 0; c < K; c++) eCls[c]! += post[r * K + c]!;
      for (let e = x.start[i]!; e < x.start[i + 1]!; e++) {
        const t = x.allele[e]! * K;
        for (let c = 0; c < K; c++) eN[t + c]! += x.count[e]! * post[r * K + c]!;
      }
    });
    let accepted = false;
    for (let lambda = 1; lambda > 1e-6; lambda /= 2) {
      const nextCls = Float64Array.from(cls, (v, c) => v + lambda * (cls0[c]! - eCls[c]!));
      const nextN = Float64Array.from(n, (v, k) => v + lambda * (n0[k]! - eN[k]!));
      if (!nextCls.every((v) => v + 1 > 0) || !nextN.every((v, k) => v + minPseudo[k]! > 0)) continue;
      const cand = tmModel(offsets, K, nextCls, nextN, o.prior);
      const value = alleleCll(x, cand, labels, labelled);
      if (value >= cll) {
        accepted = value - cll > o.tolerance * Math.max(1, Math.abs(value));
        cls = nextCls;
        n = nextN;
        model = cand;
        cll = value;
        break;
      }
    }
    trace.push(cll);
    if (!accepted) break;
  }
  return { model, trace };
}

/** The L2 anchor chosen by inner 3-fold cross-validation: the highest held-out CLL (ties to the earlier). */
export function chooseAlleleL2(
  x: AlleleRows,
  labels: Int32Array,
  rows: readonly number[],
  countsOf: (rows: number[]) => AlleleCounts,
  prior: AllelePrior,
  seed = 7,
): number {
  // The training rows keep the caller's order (the gradient's sums follow it).
  const heldOut = (_inner: number[], test: number[], l2: number) => {
    const held = new Set(test);
    const trainRows = rows.filter((i) => !held.has(i));
    const start = generativePlugIn(countsOf(trainRows), prior);
    const { model } = fitAlleleGradient(x, labels, trainRows, start, { ...DEFAULT_ALLELE_GRADIENT, l2 });
    return alleleCll(x, model, labels, test);
  };
  return chooseByInnerFolds(subsetLabels(labels, rows), L2_GRID, heldOut, seed) ?? DEFAULT_ALLELE_GRADIENT.l2;
}

/** Labels with every row outside `rows` set to −1 (unlabelled), so folds deal only `rows`. */
function subsetLabels(labels: Int32Array, rows: readonly number[]): Int32Array {
  const out = new Int32Array(labels.length).fill(-1);
  for (const i of rows) out[i] = labels[i]!;
  return out;
}

/**
 * A discriminative allele classifier trained on the labelled `rows` (their counts `counts`):
 * gradient-CLL with the L2 anchor given or chosen by inner CV ('auto'), or TM.
 */
export function trainDiscriminativeAlleles(
  x: AlleleRows,
  labels: Int32Array,
  rows: number[],
  counts: AlleleCounts,
  countsOf: (rows: number[]) => AlleleCounts,
  prior: AllelePrior,
  learning: 'gradient' | 'tm',
  l2: number | 'auto',
): PlugInAlleleModel {
  if (learning === 'tm') return fitAlleleTM(x, labels, rows, counts, { ...DEFAULT_ALLELE_TM, prior }).model;
  const strength = l2 === 'auto' ? chooseAlleleL2(x, labels, rows, countsOf, prior) : l2;
  return fitAlleleGradient(x, labels, rows, generativePlugIn(counts, prior), {
    ...DEFAULT_ALLELE_GRADIENT,
    l2: strength,
  }).model;
}
