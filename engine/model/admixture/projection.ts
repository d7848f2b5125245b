import { MISSING, type GenotypeData } from '../../data/genotype-data.ts';
import { qNewtonWork, Solved, solveStep } from './q-newton.ts';
import { PARAMETER_FLOOR } from './admixture.ts';
import { fitOwnCopies, type OwnCopiesRows } from './own-copies.ts';
import { detLog, detPow } from '../../util/det-math.ts';

/** Options of {@link projectAncestry}. */
export interface ProjectionOptions {
  /** Stop when no proportion moves by more than this in an iteration (default 1e-7). */
  readonly tolerance?: number;
  /** Iterations per individual at most (default 2,000; each a SQUAREM cycle of three EM steps). */
  readonly maxIterations?: number;
  /**
   * The reference's sample behind F: each cluster's allele copies n_k and the Dirichlet prior λ
   * (> 0) per allele. When given, each individual is scored with the frequencies of the reference
   * plus its own copies (own-copies.ts) instead of F as it is.
   */
  readonly sample?: { readonly clusterCopies: Float64Array; readonly prior: number };
}

/** Ancestry proportions of individuals estimated with the ancestral frequencies held fixed. */
export interface Projection {
  readonly K: number;
  /** shape (N, K). */
  readonly Q: Float64Array;
  /** ln L of each individual's genotypes at its Q. */
  readonly logLik: Float64Array;
  /** Allele copies each individual's estimate rests on (0: no call on a reference marker; Q uniform). */
  readonly copies: Int32Array;
  readonly iterations: Int32Array;
  readonly converged: Uint8Array;
}

/**
 * One individual's rows for fitOwnCopies: its observed rows (rows[0..R), rows of a locus together,
 * their loci in rowLocus) with w copies each, `total` in all.
 */
function ownCopiesRows(
  F: Float64Array,
  K: number,
  offsets: Int32Array,
  sample: NonNullable<ProjectionOptions['sample']>,
  rows: Int32Array,
  rowLocus: Int32Array,
  R: number,
  w: Float64Array,
  total: number,
): OwnCopiesRows {
  const { clusterCopies: n, prior } = sample;
  const locusOf = new Int32Array(R);
  const b = new Float64Array(R * K);
  let J = 0;
  for (let r = 0; r < R; r++) {
    if (r > 0 && rowLocus[r] !== rowLocus[r - 1]) J++;
    locusOf[r] = J;
    const row = rows[r]!;
    for (let k = 0; k < K; k++) b[r * K + k] = n[k]! * F[row * K + k]! + prior;
  }
  if (R > 0) J++;
  const D = new Float64Array(J * K);
  for (let r = 0; r < R; r++) {
    if (r > 0 && locusOf[r] === locusOf[r - 1]) continue;
    const A = offsets[rowLocus[r]! + 1]! - offsets[rowLocus[r]!]!;
    for (let k = 0; k < K; k++) D[locusOf[r]! * K + k] = n[k]! + prior * A;
  }
  return { K, R, w, locusOf, J, b, D, total };
}

/** Smallest frequency a copy is scored with (a reference estimate of exactly 0 would make ln L −∞). */
const FLOOR = 1e-9;

/**
 * ADMIXTURE's projection (its -P mode): each individual's ancestry proportions q maximise
 * Σ_copies ln Σ_k q_k f_k(allele) with the frequencies F fixed — no individual affects another or
 * F, so a new sample cannot shift the reference. `data` holds the individuals on F's markers and
 * allele indices (onReferenceMarkers); F has one row per (locus, allele) in `offsets` order, K
 * columns. Maximised by Newton steps on the simplex (fitOneNewton; EM accelerated by SQUAREM,
 * Varadhan & Roland 2008, scheme S3, where no ascent step is found): the likelihood is concave in
 * q, so the maximum is global and the start (uniform) does not matter.
 */
export function projectAncestry(
  data: GenotypeData,
  F: Float64Array,
  K: number,
  offsets: Int32Array,
  options: ProjectionOptions = {},
): Projection {
  const steps = projectionSteps(data, F, K, offsets, options);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * {@link projectAncestry} over individuals first ≤ i < first + count (all by default), yielding
 * the individuals done after each one (a worker yields to its messages between them); the
 * projection's arrays are the range's.
 */
export function* projectionSteps(
  data: GenotypeData,
  F: Float64Array,
  K: number,
  offsets: Int32Array,
  options: ProjectionOptions = {},
  first = 0,
  count = data.individuals.length - first,
): Generator<number, Projection> {
  const tol = options.tolerance ?? 1e-7;
  const maxIt = options.maxIterations ?? 2000;
  const N = data.individuals.length;
  if (!(Number.isInteger(first) && Number.isInteger(count) && first >= 0 && count >= 0 && first + count <= N))
    throw new RangeError(`individuals ${first}..${first + count} are not within 0..${N}`);
  const L = data.loci.length;
  const P = data.ploidy;
  const Q = new Float64Array(count * K);
  const logLik = new Float64Array(count);
  const copies = new Int32Array(count);
  const iterations = new Int32Array(count);
  const converged = new Uint8Array(count);
  const sample = options.sample;
  if (sample && !(sample.prior > 0))
    throw new RangeError(`own copies need a frequency prior above 0, not ${sample.prior}`);
  // One individual at a time: its distinct (locus, allele) rows with their copy counts.
  const counts = new Int32Array(offsets[L]!);
  const rows = new Int32Array(L * P);
  const rowLocus = new Int32Array(L * P);
  const packed = data.packed;
  const calls = packed ? undefined : data.calls;
  for (let t = 0; t < count; t++) {
    const i = first + t;
    let R = 0;
    if (packed) {
      // Two-bit codes (packed-calls.ts): 00 two copies of allele 0, 10 one of each, 11 two of
      // allele 1, 01 missing — the rows and order the unpacked copies (0, 0), (0, 1), (1, 1) give.
      const { bytes, bytesPerLocus } = packed;
      const byte = i >> 2;
      const shift = 2 * (i & 3);
      for (let l = 0; l < L; l++) {
        const code = (bytes[l * bytesPerLocus + byte]! >> shift) & 3;
        if (code === 1) continue;
        const row = offsets[l]!;
        if (code !== 3) {
          if (counts[row]! === 0) {
            rowLocus[R] = l;
            rows[R++] = row;
          }
          counts[row]! += code === 0 ? 2 : 1;
        }
        if (code !== 0) {
          if (counts[row + 1]! === 0) {
            rowLocus[R] = l;
            rows[R++] = row + 1;
          }
          counts[row + 1]! += code === 3 ? 2 : 1;
        }
      }
    } else
      for (let l = 0; l < L; l++)
        for (let p = 0; p < P; p++) {
          const a = calls![(l * N + i) * P + p]!;
          if (a === MISSING) continue;
          const row = offsets[l]! + a;
          if (counts[row]!++ === 0) {
            rowLocus[R] = l;
            rows[R++] = row;
          }
        }
    const w = new Float64Array(R);
    let total = 0;
    for (let r = 0; r < R; r++) {
      const row = rows[r]!;
      w[r] = counts[row]!;
      total += counts[row]!;
      counts[row] = 0;
    }
    let fit: IndividualFit;
    if (sample) {
      const own = ownCopiesRows(F, K, offsets, sample, rows, rowLocus, R, w, total);
      fit = fitOwnCopies(
        own,
        tol,
        maxIt,
        (f, start) => fitOneNewton({ ...own, f }, tol, maxIt, start).q,
        ownCopiesStepper(own),
      );
    } else {
      const f = new Float64Array(R * K);
      for (let r = 0; r < R; r++) for (let k = 0; k < K; k++) f[r * K + k] = Math.max(FLOOR, F[rows[r]! * K + k]!);
      fit = fitOneNewton({ f, w, R, K, total }, tol, maxIt);
    }
    copies[t] = total;
    Q.set(fit.q, t * K);
    logLik[t] = fit.logLik;
    iterations[t] = fit.iterations;
    converged[t] = fit.converged ? 1 : 0;
    yield t + 1;
  }
  return { K, Q, logLik, copies, iterations, converged };
}

/**
 * ln L(q) = Σ_r w_r ln Σ_k q_k f_rk (when asked), and into `g` when given the gradient ratios
 * g_k = (1/n) Σ_r w_r f_rk / p_r: EM's update of q is q_k · g_k, and at the maximum g_k = 1
 * wherever q_k > 0 (and ≤ 1 where q_k = 0).
 */
function gradientRatios(
  f: Float64Array,
  w: Float64Array,
  R: number,
  K: number,
  total: number,
  q: Float64Array,
  g?: Float64Array,
  withLogLik = true,
): number {
  let ll = 0;
  // ln L as the log of running products (one logarithm per many rows; each p ≥ 1e-9, so a
  // product is taken before it could underflow).
  let product = 1;
  if (g) g.fill(0);
  for (let r = 0; r < R; r++) {
    let p = 0;
    for (let k = 0; k < K; k++) p += q[k]! * f[r * K + k]!;
    if (withLogLik) {
      product *= w[r] === 1 ? p : w[r] === 2 ? p * p : detPow(p, w[r]!);
      if (product < 1e-150) {
        ll += detLog(product);
        product = 1;
      }
    }
    if (g) {
      const s = w[r]! / p;
      for (let k = 0; k < K; k++) g[k]! += s * f[r * K + k]!;
    }
  }
  ll += detLog(product);
  if (g) for (let k = 0; k < K; k++) g[k]! /= total;
  return ll;
}

/** ln L(q) (when asked) and, into `out` when given, the EM update of q. */
function emStep(
  f: Float64Array,
  w: Float64Array,
  R: number,
  K: number,
  total: number,
  q: Float64Array,
  out?: Float64Array,
  withLogLik = true,
): number {
  const ll = gradientRatios(f, w, R, K, total, q, out, withLogLik);
  if (out) for (let k = 0; k < K; k++) out[k]! *= q[k]!;
  return ll;
}

/**
 * An extrapolated q back on the simplex: no entry below a tenth of where it was (an extrapolation
 * that empties a component in one jump strands EM there, which multiplies it by a bounded factor
 * per step), then rescaled.
 */
function toSimplex(q: Float64Array, from: Float64Array): void {
  let s = 0;
  for (let k = 0; k < q.length; k++) {
    const floor = Math.max(from[k]! * 0.1, 1e-300);
    if (!(q[k]! > floor)) q[k] = floor;
    s += q[k]!;
  }
  for (let k = 0; k < q.length; k++) q[k]! /= s;
}

/**
 * Whether q is the maximum: a component near 0 whose gradient ratio g_k is above 1 would gain
 * from mass, and is given some (so EM, which scales q_k by g_k, is not stuck at a boundary it
 * should leave).
 */
function reviveStranded(
  f: Float64Array,
  w: Float64Array,
  R: number,
  K: number,
  total: number,
  q: Float64Array,
): boolean {
  const g = new Float64Array(K);
  gradientRatios(f, w, R, K, total, q, g, false);
  let revived = false;
  for (let k = 0; k < K; k++)
    if (q[k]! < 1e-4 && g[k]! > 1 + 1e-6) {
      q[k] = 1e-3;
      revived = true;
    }
  if (revived) {
    const s = q.reduce((a, b) => a + b, 0);
    for (let k = 0; k < K; k++) q[k]! /= s;
  }
  return revived;
}

/** One Newton step's outcome: the step taken (or none), its size and ln L after it. */
interface NewtonStep {
  /** 'none': no ascent step was found (the maximum, within rounding, or a step the model cannot give). */
  readonly solved: 'certain' | 'unchecked' | 'none';
  /** The largest change of a proportion. */
  readonly change: number;
  readonly logLik: number;
}

/**
 * One Newton step of q (in place) with f fixed: q-newton.ts's active-set solve of the quadratic
 * model on the simplex (q ≥ PARAMETER_FLOOR), halved until ln L does not fall below its value at q
 * (taken in the same pass as the derivatives, as gradientRatios takes it).
 */
function newtonStep(
  x: IndividualRows,
  q: Float64Array,
  work: ReturnType<typeof qNewtonWork>,
  trial: Float64Array,
): NewtonStep {
  const { f, w, R, K, total } = x;
  const { gradient, hessian, step } = work;
  gradient.fill(0);
  hessian.fill(0);
  let ll = 0;
  let product = 1;
  for (let r = 0; r < R; r++) {
    let d = 0;
    for (let k = 0; k < K; k++) d += q[k]! * f[r * K + k]!;
    product *= w[r] === 1 ? d : w[r] === 2 ? d * d : detPow(d, w[r]!);
    if (product < 1e-150) {
      ll += detLog(product);
      product = 1;
    }
    const a = w[r]! / d;
    const b = a / d;
    for (let k = 0, t = 0; k < K; k++) {
      const fk = f[r * K + k]!;
      gradient[k]! += a * fk;
      const bf = b * fk;
      for (let m = 0; m <= k; m++, t++) hessian[t]! += bf * f[r * K + m]!;
    }
  }
  ll += detLog(product);
  const solved = solveStep(0, K, q, work);
  if (solved === Solved.None) return { solved: 'none', change: 0, logLik: ll };
  let t = 1;
  let next = -Infinity;
  for (let halving = 0; halving < 40; halving++, t /= 2) {
    let sum = 0;
    for (let k = 0; k < K; k++) sum += trial[k] = Math.max(PARAMETER_FLOOR, q[k]! + t * step[k]!);
    for (let k = 0; k < K; k++) trial[k]! /= sum;
    next = emStep(f, w, R, K, total, trial);
    if (next >= ll) break;
  }
  if (!(next >= ll)) return { solved: 'none', change: 0, logLik: ll };
  let change = 0;
  for (let k = 0; k < K; k++) change = Math.max(change, Math.abs(trial[k]! - q[k]!));
  q.set(trial);
  return { solved: solved === Solved.Certain ? 'certain' : 'unchecked', change, logLik: next };
}

/**
 * One individual's q with F fixed by Newton steps ({@link newtonStep}): the likelihood is concave
 * in q, so a few steps reach the maximum where EM, which this falls back to when no ascent step is
 * found short of convergence, takes many. Stops when no proportion moves by more than tol and the
 * step met the model's KKT conditions.
 */
function fitOneNewton(x: IndividualRows, tol: number, maxIt: number, start?: Float64Array): IndividualFit {
  const { f, w, R, K, total } = x;
  const q = start ? Float64Array.from(start) : new Float64Array(K).fill(1 / K);
  if (total === 0 || K < 2)
    return { q, logLik: total === 0 ? 0 : emStep(f, w, R, K, total, q), iterations: 0, converged: true };
  const work = qNewtonWork(1, K);
  const trial = new Float64Array(K);
  for (let it = 1; it <= maxIt; it++) {
    const s = newtonStep(x, q, work, trial);
    // No ascent step at a point that meets the conditions of the maximum: there already.
    if (s.solved === 'none' && atMaximum(q, work.gradient, total))
      return { q, logLik: s.logLik, iterations: it, converged: true };
    if (s.solved === 'none') break;
    const ll = s.logLik;
    if (s.change < tol && s.solved === 'certain') return { q, logLik: ll, iterations: it, converged: true };
  }
  // No ascent step short of convergence (or the iterations ran out): EM from here.
  return fitOne(x, tol, maxIt, q);
}

/**
 * Whether q meets the conditions of the maximum of Σ_r w_r ln(q · f_r) on the simplex, from the
 * gradient g_k = Σ_r w_r f_rk / (q · f_r) at q (whose q-weighted sum is the copies, `total`):
 * g_k = total where q_k is above the floor, g_k ≤ total where it is at it (to 1e-7 relative: a
 * point that near moves q by less than the fits' tolerance).
 */
function atMaximum(q: Float64Array, gradient: Float64Array, total: number): boolean {
  for (let k = 0; k < q.length; k++) {
    const ratio = gradient[k]! / total;
    if (q[k]! > PARAMETER_FLOOR * (1 + 1e-9) ? Math.abs(ratio - 1) > 1e-7 : ratio > 1 + 1e-7) return false;
  }
  return true;
}

/**
 * The own-copies fit's q block: a Newton step from q (in place) with the frequencies f, made
 * for each f of fitOwnCopies' outer loop (one step a block, not a solve: f moves little each round).
 */
function ownCopiesStepper(x: OwnCopiesRows): (f: Float64Array, q: Float64Array) => number {
  const work = qNewtonWork(1, x.K);
  const trial = new Float64Array(x.K);
  return (f, q) => {
    const rows: IndividualRows = { f, w: x.w, R: x.R, K: x.K, total: x.total };
    return newtonStep(rows, q, work, trial).change;
  };
}

/** One individual's rows with F fixed: frequencies f (R, K) of its distinct (locus, allele) rows, w copies each. */
interface IndividualRows {
  readonly f: Float64Array;
  readonly w: Float64Array;
  readonly R: number;
  readonly K: number;
  /** Σ w. */
  readonly total: number;
}

interface IndividualFit {
  readonly q: Float64Array;
  readonly logLik: number;
  readonly iterations: number;
  readonly converged: boolean;
}

/** One individual's q with F fixed by EM accelerated by SQUAREM, from `start` (uniform when absent). */
function fitOne(x: IndividualRows, tol: number, maxIt: number, start?: Float64Array): IndividualFit {
  const { f, w, R, K, total } = x;
  let q = start ? Float64Array.from(start) : new Float64Array(K).fill(1 / K);
  if (total === 0) return { q, logLik: 0, iterations: 0, converged: true };
  const q1 = new Float64Array(K);
  const q2 = new Float64Array(K);
  const qx = new Float64Array(K);
  const next = new Float64Array(K);
  for (let it = 1; it <= maxIt; it++) {
    emStep(f, w, R, K, total, q, q1, false);
    const ll1 = emStep(f, w, R, K, total, q1, q2);
    // SQUAREM S3: α = −‖r‖/‖v‖ with r = q1 − q, v = q2 − 2q1 + q; a step of at least one EM step.
    let rr = 0;
    let vv = 0;
    for (let k = 0; k < K; k++) {
      const d = q1[k]! - q[k]!;
      const v = q2[k]! - 2 * q1[k]! + q[k]!;
      rr += d * d;
      vv += v * v;
    }
    let candidate = q2;
    if (vv > 0) {
      const alpha = Math.min(-1, -Math.sqrt(rr / vv));
      for (let k = 0; k < K; k++) {
        const d = q1[k]! - q[k]!;
        const v = q2[k]! - 2 * q1[k]! + q[k]!;
        qx[k] = q[k]! - 2 * alpha * d + alpha * alpha * v;
      }
      toSimplex(qx, q);
      // One EM step from the extrapolated point keeps it a proper update; kept when it does not lose ln L.
      emStep(f, w, R, K, total, qx, next, false);
      if (emStep(f, w, R, K, total, next) >= ll1) candidate = next;
    }
    let change = 0;
    for (let k = 0; k < K; k++) change = Math.max(change, Math.abs(candidate[k]! - q[k]!));
    q = Float64Array.from(candidate);
    if (change < tol && !reviveStranded(f, w, R, K, total, q))
      return { q, logLik: emStep(f, w, R, K, total, q), iterations: it, converged: true };
  }
  return { q, logLik: emStep(f, w, R, K, total, q), iterations: maxIt, converged: false };
}
