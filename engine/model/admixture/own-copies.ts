import { detLog, detPow } from '../../util/det-math.ts';

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
 * pseudo-counts' complement. Maximised by blocks (fitOwnCopies): q with f fixed (concave: Newton
 * steps), then f by EM's update with the copies' ancestry as the missing data,
 * e_rk = w_r q_k f_rk / Σ_k' q_k' f_rk', f_rk ← (b_rk + e_rk) / (D_lk + E_lk), with b = n f̂ + λ,
 * D_lk = n_k + λ A_l and E_lk = Σ_{r at l} e_rk.
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

/** EM's update of the frequencies at θ = (q, f) into `out` (shape (R, K)); E: scratch of (J, K). */
function frequencyUpdate(x: OwnCopiesRows, theta: Float64Array, out: Float64Array, E: Float64Array): void {
  const { K, R, w, locusOf, J, b, D } = x;
  E.fill(0);
  for (let r = 0; r < R; r++) {
    const fr = K + r * K;
    let d = 0;
    for (let k = 0; k < K; k++) d += theta[k]! * theta[fr + k]!;
    const share = w[r]! / d;
    const j = locusOf[r]! * K;
    for (let k = 0; k < K; k++) {
      const e = share * theta[k]! * theta[fr + k]!;
      out[r * K + k] = e;
      E[j + k]! += e;
    }
  }
  for (let t = 0; t < J * K; t++) E[t] = 1 / (D[t]! + E[t]!);
  for (let r = 0; r < R; r++) {
    const j = locusOf[r]! * K;
    for (let k = 0; k < K; k++) out[r * K + k] = (b[r * K + k]! + out[r * K + k]!) * E[j + k]!;
  }
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
    product *= w[r] === 1 ? d : w[r] === 2 ? d * d : detPow(d, w[r]!);
    if (product < 1e-150) {
      logLik += detLog(product);
      product = 1;
    }
  }
  return logLik + detLog(product);
}

/** The reference's predictive frequencies b / D of the individual's rows, shape (R, K). */
function predictiveRows(x: OwnCopiesRows): Float64Array {
  const { K, R, locusOf, b, D } = x;
  const f = new Float64Array(R * K);
  for (let r = 0; r < R; r++) for (let k = 0; k < K; k++) f[r * K + k] = b[r * K + k]! / D[locusOf[r]! * K + k]!;
  return f;
}

/**
 * The individual's (q, f) by blocks: q maximises Σ_r w_r ln(q · f_r) with f fixed (`solveQ`, a
 * Newton solve: concave) at the start and the end, and in between takes one Newton step a round
 * (`stepQ`) after f takes EM's update at (q, f) — each block raises Φ, and at their common fixed
 * point (q, f) is a stationary point of Φ. One individual's
 * copies move the frequencies little (its ≤ ploidy copies a locus against the reference's n_k), so
 * f's update is nearly its maximum given q and the blocks converge in a few rounds. Starts at the
 * reference's predictive frequencies b / D (Φ's maximum in f with the own copies left out).
 */
export function fitOwnCopies(
  x: OwnCopiesRows,
  tol: number,
  maxIt: number,
  solveQ: (f: Float64Array, start?: Float64Array) => Float64Array,
  stepQ: (f: Float64Array, q: Float64Array) => number,
): OwnCopiesFit {
  const { K, R, total } = x;
  // θ = (q, f): K + R·K values.
  const theta = new Float64Array(K + R * K);
  const next = new Float64Array(R * K);
  theta.set(predictiveRows(x), K);
  if (total === 0) {
    theta.fill(1 / K, 0, K);
    return { q: theta.slice(0, K), logLik: 0, iterations: 0, converged: true };
  }
  // q solved at the reference's predictive frequencies; then rounds of f's update and one Newton
  // step of q, until neither moves by more than tol (f moves by about own copies / reference copies
  // a round, so q's maximum moves little between rounds and one step follows it).
  theta.set(solveQ(theta.subarray(K)), 0);
  const scratch = new Float64Array(x.J * K);
  const q = theta.subarray(0, K);
  for (let it = 1; it <= maxIt; it++) {
    frequencyUpdate(x, theta, next, scratch);
    let change = 0;
    for (let t = 0; t < R * K; t++) change = Math.max(change, Math.abs(next[t]! - theta[K + t]!));
    theta.set(next, K);
    change = Math.max(change, stepQ(theta.subarray(K), q));
    if (change < tol) {
      // The last q exactly at its maximum for these f (a solve from where the steps left it).
      theta.set(solveQ(theta.subarray(K), q), 0);
      return { q: theta.slice(0, K), logLik: logLikAt(x, theta), iterations: it, converged: true };
    }
  }
  return { q: theta.slice(0, K), logLik: logLikAt(x, theta), iterations: maxIt, converged: false };
}
