import { squaremPoint } from './squarem-s3.ts';

/**
 * One individual's ancestry proportions with the frequencies it is scored with including its own
 * allele copies, as they would in a fit of the reference with this individual added (the
 * reference's own proportions held fixed). Per cluster k and locus l the frequencies have the
 * reference's n_k copies (at its fitted frequencies f̂) and a Dirichlet(λ) prior behind them, so
 * the individual's q and its frequencies f maximise
 *
 *   Φ(q, f) = Σ_r w_r ln Σ_k q_k f_rk + Σ_{l,k,a} (n_k f̂_kla + λ) ln f_kla
 *
 * over its observed rows r (distinct (locus, allele) pairs, w_r copies). Only the observed alleles'
 * frequencies enter the first sum; the others share what is left of a locus in proportion to
 * their pseudo-counts at the maximum, so the state is (q, f of the observed rows) and the second
 * sum's unobserved part is rest_lk · ln(1 − S_lk), S_lk the observed rows' total and rest_lk their
 * pseudo-counts' complement. EM (copy ancestries as the missing data):
 * e_rk = w_r q_k f_rk / Σ_k' q_k' f_rk', q_k ← Σ_r e_rk / copies, f_rk ← (b_rk + e_rk) / (D_lk + E_lk)
 * with b = n f̂ + λ, D_lk = n_k + λ A_l and E_lk = Σ_{r at l} e_rk; accelerated by SQUAREM (S3) as
 * projection.ts's fitOne, an extrapolation kept only when the objective does not fall.
 *
 * Why: maximum-likelihood frequencies score an allele that the reference's copies of a cluster
 * happen to lack as (nearly) impossible there, so a new individual carrying it is pushed out of
 * that cluster, where in a joint fit its own copies would have raised that frequency (on
 * microsatellites, with many rare alleles, most of the gap between projected and jointly fitted
 * ancestry); and its own copies pull the frequencies towards it as a fit's own individuals' do (the
 * in-sample advantage: on simulated SNPs fitted individuals are nearer their true ancestry than
 * individuals projected onto the fit's frequencies). The prior alone, without the own copies, is the
 * posterior predictive that assignment tests score individuals outside the sample with (Rannala &
 * Mountain 1997): it closed about half of the gap (docs/algorithms.md §16).
 */
export interface OwnCopiesRows {
  readonly K: number;
  /** Observed rows. */
  readonly R: number;
  /** Copies per row. */
  readonly w: Float64Array;
  /** Row r's locus among the individual's observed loci (0 ≤ j < J, rows of a locus together). */
  readonly locusOf: Int32Array;
  /** Observed loci. */
  readonly J: number;
  /** Pseudo-counts b_rk = n_k f̂_rk + λ, shape (R, K). */
  readonly b: Float64Array;
  /** D_jk = n_k + λ A, shape (J, K). */
  readonly D: Float64Array;
  /** Pseudo-counts of each locus's unobserved alleles, shape (J, K) (0 where every allele is observed). */
  readonly rest: Float64Array;
  /** The individual's copies, Σ w. */
  readonly total: number;
}

export interface OwnCopiesFit {
  readonly q: Float64Array;
  /** ln L of the individual's copies at q and its frequencies. */
  readonly logLik: number;
  readonly iterations: number;
  readonly converged: boolean;
}

/** EM's update of θ into `out`. */
function emMap(x: OwnCopiesRows, theta: Float64Array, out: Float64Array, scratch: Float64Array): void {
  const { K, R, w, locusOf, J, b, D, total } = x;
  const E = scratch.subarray(0, J * K);
  E.fill(0);
  out.fill(0, 0, K);
  for (let r = 0; r < R; r++) {
    const fr = K + r * K;
    let d = 0;
    for (let k = 0; k < K; k++) d += theta[k]! * theta[fr + k]!;
    const share = w[r]! / d;
    const j = locusOf[r]! * K;
    for (let k = 0; k < K; k++) {
      const e = share * theta[k]! * theta[fr + k]!;
      out[fr + k] = e;
      out[k]! += e;
      E[j + k]! += e;
    }
  }
  for (let k = 0; k < K; k++) out[k]! /= total;
  for (let t = 0; t < J * K; t++) E[t] = 1 / (D[t]! + E[t]!);
  for (let r = 0; r < R; r++) {
    const j = locusOf[r]! * K;
    const fr = K + r * K;
    for (let k = 0; k < K; k++) out[fr + k] = (b[r * K + k]! + out[fr + k]!) * E[j + k]!;
  }
}

/**
 * ln(a / b) for positive a, b: near 1 (|s| < 0.025, s = (a − b)/(a + b)) by the series
 * 2 atanh s = 2(s + s³/3 + s⁵/5 + s⁷/7), whose first omitted term is below 1e-15 of the result
 * there (a logarithm costs several times the arithmetic).
 */
function lnRatio(a: number, b: number): number {
  const s = (a - b) / (a + b);
  if (s > 0.025 || s < -0.025) return Math.log(a / b);
  const z = s * s;
  return 2 * s * (1 + z * (1 / 3 + z * (1 / 5 + z / 7)));
}

/**
 * Φ(to) − Φ(from), summed as logarithms of ratios: the ln L part as logs of running products of
 * (d_to / d_from)^w, the rest term by term with lnRatio (near convergence nearly every ratio is
 * near 1). An extrapolation's test needs only the sign.
 */
function gain(x: OwnCopiesRows, from: Float64Array, to: Float64Array, scratch: Float64Array): number {
  const { K, R, w, locusOf, J, b, rest } = x;
  const S0 = scratch.subarray(0, J * K);
  const S1 = scratch.subarray(J * K, 2 * J * K);
  S0.fill(0);
  S1.fill(0);
  let sum = 0;
  let product = 1;
  for (let r = 0; r < R; r++) {
    const fr = K + r * K;
    let d0 = 0;
    let d1 = 0;
    for (let k = 0; k < K; k++) {
      d0 += from[k]! * from[fr + k]!;
      d1 += to[k]! * to[fr + k]!;
    }
    const ratio = d1 / d0;
    product *= w[r] === 1 ? ratio : w[r] === 2 ? ratio * ratio : Math.pow(ratio, w[r]!);
    if (product < 1e-150 || product > 1e150) {
      sum += Math.log(product);
      product = 1;
    }
    const j = locusOf[r]! * K;
    for (let k = 0; k < K; k++) {
      const f0 = from[fr + k]!;
      const f1 = to[fr + k]!;
      sum += b[r * K + k]! * lnRatio(f1, f0);
      S0[j + k]! += f0;
      S1[j + k]! += f1;
    }
  }
  sum += Math.log(product);
  for (let t = 0; t < J * K; t++) if (rest[t]! > 0) sum += rest[t]! * lnRatio(1 - S1[t]!, 1 - S0[t]!);
  return sum;
}

/** The individual's ln L at θ (Φ's first sum). */
function logLikAt(x: OwnCopiesRows, theta: Float64Array): number {
  const { K, R, w } = x;
  let logLik = 0;
  let product = 1;
  for (let r = 0; r < R; r++) {
    const fr = K + r * K;
    let d = 0;
    for (let k = 0; k < K; k++) d += theta[k]! * theta[fr + k]!;
    product *= w[r] === 1 ? d : w[r] === 2 ? d * d : Math.pow(d, w[r]!);
    if (product < 1e-150) {
      logLik += Math.log(product);
      product = 1;
    }
  }
  return logLik + Math.log(product);
}

/**
 * An extrapolated θ made valid: q as projection.ts's toSimplex (no entry below a tenth of where it
 * was, rescaled); each frequency no lower than a tenth of where it was, a locus's observed total
 * 1 where every allele is observed, else leaving its unobserved alleles at least a tenth of what
 * they had.
 */
function toValid(x: OwnCopiesRows, theta: Float64Array, from: Float64Array, scratch: Float64Array): void {
  const { K, R, locusOf, J, rest } = x;
  let s = 0;
  for (let k = 0; k < K; k++) {
    const floor = Math.max(from[k]! * 0.1, 1e-300);
    if (!(theta[k]! > floor)) theta[k] = floor;
    s += theta[k]!;
  }
  for (let k = 0; k < K; k++) theta[k]! /= s;
  const S = scratch.subarray(0, J * K);
  const S0 = scratch.subarray(J * K, 2 * J * K);
  S.fill(0);
  S0.fill(0);
  for (let r = 0; r < R; r++) {
    const j = locusOf[r]! * K;
    for (let k = 0; k < K; k++) {
      const at = K + r * K + k;
      const floor = from[at]! * 0.1;
      if (!(theta[at]! > floor)) theta[at] = floor;
      S[j + k]! += theta[at]!;
      S0[j + k]! += from[at]!;
    }
  }
  // Per (locus, cluster): the factor its observed frequencies are scaled by.
  for (let t = 0; t < J * K; t++) {
    if (rest[t]! === 0) S[t] = 1 / S[t]!;
    else {
      const room = 0.1 * (1 - S0[t]!);
      S[t] = 1 - S[t]! < room ? (1 - room) / S[t]! : 1;
    }
  }
  for (let r = 0; r < R; r++) {
    const j = locusOf[r]! * K;
    for (let k = 0; k < K; k++) theta[K + r * K + k]! *= S[j + k]!;
  }
}

/** Whether a component near 0 would gain from mass (its gradient ratio above 1); such get some. */
function reviveStranded(x: OwnCopiesRows, theta: Float64Array): boolean {
  const { K, R, w, total } = x;
  const g = new Float64Array(K);
  for (let r = 0; r < R; r++) {
    const fr = K + r * K;
    let d = 0;
    for (let k = 0; k < K; k++) d += theta[k]! * theta[fr + k]!;
    for (let k = 0; k < K; k++) g[k]! += (w[r]! * theta[fr + k]!) / d;
  }
  let revived = false;
  for (let k = 0; k < K; k++)
    if (theta[k]! < 1e-4 && g[k]! / total > 1 + 1e-6) {
      theta[k] = 1e-3;
      revived = true;
    }
  if (revived) {
    let s = 0;
    for (let k = 0; k < K; k++) s += theta[k]!;
    for (let k = 0; k < K; k++) theta[k]! /= s;
  }
  return revived;
}

/** The reference's predictive frequencies b / D of the individual's rows, shape (R, K). */
export function predictiveRows(x: OwnCopiesRows): Float64Array {
  const { K, R, locusOf, b, D } = x;
  const f = new Float64Array(R * K);
  for (let r = 0; r < R; r++) for (let k = 0; k < K; k++) f[r * K + k] = b[r * K + k]! / D[locusOf[r]! * K + k]!;
  return f;
}

/**
 * The individual's (q, f) from `start` (q; uniform when absent) and f at the reference's
 * predictive frequencies b / D. The objective need not be concave, but one individual's copies
 * move the frequencies little, so a start at its ancestry under the predictive frequencies (its
 * maximum with f held there) begins near the maximum and cuts the iterations.
 */
export function fitOwnCopies(x: OwnCopiesRows, tol: number, maxIt: number, start?: Float64Array): OwnCopiesFit {
  const { K, R, total } = x;
  // θ = (q, f): K + R·K values.
  const make = () => new Float64Array(K + R * K);
  let theta = make();
  if (start) theta.set(start);
  else theta.fill(1 / K, 0, K);
  theta.set(predictiveRows(x), K);
  if (total === 0) return { q: theta.slice(0, K), logLik: 0, iterations: 0, converged: true };
  const scratch = new Float64Array(2 * x.J * K);
  const t1 = make();
  const t2 = make();
  const tx = make();
  const next = make();
  for (let it = 1; it <= maxIt; it++) {
    emMap(x, theta, t1, scratch);
    emMap(x, t1, t2, scratch);
    let candidate = t2;
    if (squaremPoint(theta, t1, t2, tx)) {
      toValid(x, tx, theta, scratch);
      emMap(x, tx, next, scratch);
      if (gain(x, t1, next, scratch) >= 0) candidate = next;
    }
    let change = 0;
    for (let k = 0; k < K; k++) change = Math.max(change, Math.abs(candidate[k]! - theta[k]!));
    theta = Float64Array.from(candidate);
    if (change < tol && !reviveStranded(x, theta))
      return {
        q: theta.slice(0, K),
        logLik: logLikAt(x, theta),
        iterations: it,
        converged: true,
      };
  }
  return {
    q: theta.slice(0, K),
    logLik: logLikAt(x, theta),
    iterations: maxIt,
    converged: false,
  };
}
