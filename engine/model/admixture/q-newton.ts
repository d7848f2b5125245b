import { everyLocus, type PreparedData } from '../prepared/prepared-data.ts';
import { PARAMETER_FLOOR, type AdmixtureWork } from './admixture.ts';
import { passArguments, passData } from './pass-data.ts';
import { derivativesPass, gainPass, type NewtonPassArguments } from './newton-passes.ts';
import { wasmPassesOf } from './wasm-passes.ts';
import { detLog } from '../../util/det-math.ts';
import { choleskyInPlace, choleskySolve } from '../../util/cholesky.ts';

/**
 * One Newton step for every individual's ancestry q_i with F fixed (the Q block of ADMIXTURE's
 * block relaxation; Alexander, Novembre & Lange 2009), safeguarded so that no individual's
 * likelihood falls. With F fixed, ln L is a sum over individuals of
 *
 *   φ_i(q) = Σ over observed copies c of ln(q · f_c)          (f_c: the row of F of the copy's allele)
 *
 * concave in q on the simplex. Its gradient g = Σ f_c / d_c and the negative Hessian
 * A = Σ f_c f_cᵀ / d_c² (d_c = q · f_c) are accumulated for all individuals in one locus-major
 * pass (the EM pass's order, so genotype codes are read as stored); the step Δ maximises the
 * quadratic model g·Δ − ½ΔᵀAΔ subject to Σ Δ = 0, with components that would fall below
 * PARAMETER_FLOOR pinned to it (an active set, solveStep). The step is kept when φ_i(q + Δ) ≥
 * φ_i(q): certain without computing it for small steps (CERTAIN_RATIO), otherwise computed (in one
 * more pass from products of likelihood ratios when many need it); a step that fails is halved for
 * that individual and checked again. Where the WebAssembly passes run, the derivative pass, the
 * solves and the certain steps are one call (wasm-passes.ts's `qStep`: solveStep and this loop
 * compiled from AssemblyScript, the same bits). (A check of the directional derivative at q + Δ
 * would need no logarithms, but near the optimum it is ≈ 0 of either sign, and halving every other
 * step slowed the fit fourfold on eHGDP.) Individuals whose rows are fixed (supervised mode) or who
 * have no observed copies keep their q.
 */
export interface QNewtonWork {
  /** Shape (N, K): gradient, then the step. */
  readonly gradient: Float64Array;
  /** Shape (N, K(K+1)/2): the lower triangle of A per individual. */
  readonly hessian: Float64Array;
  readonly step: Float64Array;
  /** Shape (N,): φ_i's gain at q + Δ, its running product, 1 while the step is to be checked. */
  readonly gain: Float64Array;
  readonly ratio: Float64Array;
  readonly pending: Uint8Array;
  /** Scratch for the per-individual solve, shape (K, K) and (K,). */
  readonly matrix: Float64Array;
  readonly rhs: Float64Array;
  readonly ones: Float64Array;
  readonly u: Float64Array;
  readonly v: Float64Array;
  readonly free: Int32Array;
  readonly pinned: Uint8Array;
}

export function qNewtonWork(N: number, K: number): QNewtonWork {
  return {
    gradient: new Float64Array(N * K),
    hessian: new Float64Array((N * K * (K + 1)) / 2),
    step: new Float64Array(N * K),
    gain: new Float64Array(N),
    ratio: new Float64Array(N),
    pending: new Uint8Array(N),
    matrix: new Float64Array(K * K),
    rhs: new Float64Array(K),
    ones: new Float64Array(K),
    u: new Float64Array(K),
    v: new Float64Array(K),
    free: new Int32Array(K),
    pinned: new Uint8Array(K),
  };
}

/** Halvings of a step before the individual keeps its q (a step that is not an ascent direction). */
const MAX_HALVINGS = 30;

/** Updates Q in place: one safeguarded Newton step per individual with F fixed. */
export function qNewtonStep(
  md: PreparedData,
  work: AdmixtureWork,
  K: number,
  Q: Float64Array,
  F: Float64Array,
  s: QNewtonWork,
): void {
  if (K < 2) return;
  const pass: NewtonPassArguments = passArguments(passData(md, work, K, Q, F), { ...s });
  const wasm = work.wasm === false ? undefined : wasmPassesOf(work, pass);
  const { pending, step } = s;
  const copies = work.copies;
  for (let i = 0; i < md.N; i++) pending[i] = copies[i]! === 0 || (work.fixed && work.fixed[i]) ? 0 : 1;
  // The derivative pass and the solves in WebAssembly where they run, else here.
  let checks = wasm?.qStep(pass);
  if (checks === undefined) {
    s.gradient.fill(0);
    s.hessian.fill(0);
    if (wasm) wasm.derivatives(pass);
    else derivativesPass(pass);
    checks = 0;
    for (let i = 0; i < md.N; i++) {
      if (!pending[i]) continue;
      pending[i] = 0;
      const solved = solveStep(i, K, Q, s);
      if (solved === Solved.None) continue;
      if (solved === Solved.Certain && stepRatio(i, K, Q, step) <= CERTAIN_RATIO) applyStep(Q, i, K, step, 1);
      else {
        pending[i] = 1;
        checks++;
      }
    }
  }
  if (checks === 0) return;
  // Few checks are done one by one; many in one pass over the data.
  const onePass = checks * 8 > md.N;
  if (onePass) {
    s.gain.fill(0);
    s.ratio.fill(1);
    if (wasm) wasm.gains(pass);
    else gainPass(pass);
  }
  // The steps checked at t = 1 (from the pass, where it ran) and at each halving, the individuals of
  // a round together where the passes can (the two-allele passes: one sweep over the loci), else one by one.
  const gainsAt = (list: number[], t: number): ArrayLike<number> =>
    wasm?.individualGains?.(list, t, Q, F, step) ?? list.map((i) => individualGain(md, work, K, Q, F, s, i, t));
  let list: number[] = [];
  for (let i = 0; i < md.N; i++) if (pending[i]) list.push(i);
  let t = 1;
  let gains = onePass ? list.map((i) => s.gain[i]! + detLog(s.ratio[i]!)) : gainsAt(list, t);
  for (let halving = 0; ; halving++) {
    // A step that raises φ_i is kept; one that lowers it is halved (at most MAX_HALVINGS times).
    const falling: number[] = [];
    list.forEach((i, j) => {
      if (gains[j]! >= 0) applyStep(Q, i, K, step, t);
      else if (gains[j]! < 0) falling.push(i);
    });
    if (falling.length === 0 || halving === MAX_HALVINGS) return;
    list = falling;
    t /= 2;
    gains = gainsAt(list, t);
  }
}

/**
 * A step needs no check when every |Δ_k| ≤ CERTAIN_RATIO · q_k and the step solves the quadratic
 * model's KKT conditions: then every copy's x = f·Δ/d has |x| ≤ ρ = max_k |Δ_k|/q_k, ln(1 + x) ≥
 * x − x²/2 − |x|³/(3(1 − ρ)), Σ c x² = ΔᵀAΔ and g·Δ ≥ ΔᵀAΔ (KKT), so the gain is at least
 * ΔᵀAΔ (½ − ρ/(3(1 − ρ))) > 0 for ρ < 0.6. Near convergence nearly every step qualifies, which
 * saves the checking pass.
 */
const CERTAIN_RATIO = 0.5;

function stepRatio(i: number, K: number, Q: Float64Array, step: Float64Array): number {
  let ratio = 0;
  for (let k = 0; k < K; k++) ratio = Math.max(ratio, Math.abs(step[i * K + k]!) / Q[i * K + k]!);
  return ratio;
}

function applyStep(Q: Float64Array, i: number, K: number, step: Float64Array, t: number): void {
  for (let k = 0; k < K; k++) Q[i * K + k]! += t * step[i * K + k]!;
  renormalise(Q, i, K);
}

/** φ_i(q + tΔ) − φ_i(q) for one individual (its copies read locus by locus). */
function individualGain(
  md: PreparedData,
  work: AdmixtureWork,
  K: number,
  Q: Float64Array,
  F: Float64Array,
  s: QNewtonWork,
  i: number,
  t: number,
): number {
  const { N, L, genotypeOffsets } = md;
  const genotypeOf = everyLocus(md).genotypeOf;
  const { start, row, count, heldOut } = work;
  const { step } = s;
  const q = i * K;
  // A running product of the ratios, its logarithm taken when it leaves [1e-200, 1e200].
  let gain = 0;
  let product = 1;
  for (let l = 0; l < L; l++) {
    if (heldOut !== undefined && heldOut[i * L + l] === 1) continue;
    const g = genotypeOffsets[l]! + genotypeOf[l * N + i]!;
    for (let j = start[g]!; j < start[g + 1]!; j++) {
      const r = row[j]! * K;
      let d = 0;
      let e = 0;
      for (let k = 0; k < K; k++) {
        const f = F[r + k]!;
        d += Q[q + k]! * f;
        e += step[q + k]! * f;
      }
      const x = (d + t * e) / d;
      for (let c = count[j]!; c > 0; c--) product *= x;
    }
    if (product < 1e-200 || product > 1e200) {
      gain += detLog(product);
      product = 1;
    }
  }
  return gain + detLog(product);
}

/** Rounding can leave a q component just below the floor or the row's sum off 1 by an ulp. */
function renormalise(Q: Float64Array, i: number, K: number): void {
  let sum = 0;
  for (let k = 0; k < K; k++) {
    const x = Math.max(PARAMETER_FLOOR, Q[i * K + k]!);
    Q[i * K + k] = x;
    sum += x;
  }
  for (let k = 0; k < K; k++) Q[i * K + k]! /= sum;
}

/**
 * The step of individual i into s.step: maximises the model g·Δ − ½ΔᵀAΔ subject to Σ Δ = 0 and
 * q + Δ ≥ PARAMETER_FLOOR by an active-set iteration. Components at the floor start pinned there;
 * a free component that would end below the floor is pinned and the rest re-solved; when the
 * solution is feasible, the pinned component whose model gradient most exceeds the free ones'
 * (the multiplier μ) is released and the rest re-solved (an optimum on the boundary can lie
 * elsewhere on it than the start). Returns whether a feasible ascent step (g·Δ > 0) was found, and
 * whether it meets the KKT conditions (it may not when the rounds run out).
 */
export function solveStep(i: number, K: number, Q: Float64Array, s: QNewtonWork): Solved {
  const { gradient, hessian, step, matrix, rhs, ones, u, v, free, pinned } = s;
  const T = (K * (K + 1)) / 2;
  const h = i * T;
  const qi = i * K;
  const a = (k: number, m: number) =>
    k >= m ? hessian[h + (k * (k + 1)) / 2 + m]! : hessian[h + (m * (m + 1)) / 2 + k]!;
  for (let k = 0; k < K; k++) pinned[k] = Q[qi + k]! <= PARAMETER_FLOOR * (1 + 1e-9) ? 1 : 0;
  for (let round = 0; round < 3 * K; round++) {
    let n = 0;
    for (let k = 0; k < K; k++) if (!pinned[k]) free[n++] = k;
    if (n === 0) return Solved.None;
    // Pinned components move to the floor; the free ones share what that frees: Σ_free Δ = −Σ_pinned Δ.
    let target = 0;
    for (let k = 0; k < K; k++) {
      const d = pinned[k] ? PARAMETER_FLOOR - Q[qi + k]! : 0;
      step[qi + k] = d;
      target -= d;
    }
    let trace = 0;
    for (let x = 0; x < n; x++) trace += a(free[x]!, free[x]!);
    const ridge = 1e-12 * trace + 1e-300;
    for (let x = 0; x < n; x++) {
      const k = free[x]!;
      let b = gradient[qi + k]!;
      for (let m = 0; m < K; m++) if (pinned[m]) b -= a(k, m) * step[qi + m]!;
      rhs[x] = b;
      ones[x] = 1;
      for (let y = 0; y < n; y++) matrix[x * n + y] = a(k, free[y]!) + (x === y ? ridge : 0);
    }
    if (!choleskyInPlace(matrix, n)) return Solved.None;
    choleskySolve(matrix, n, rhs, u);
    choleskySolve(matrix, n, ones, v);
    let su = 0;
    let sv = 0;
    for (let x = 0; x < n; x++) {
      su += u[x]!;
      sv += v[x]!;
    }
    // Δ_free = A⁻¹(b − μ1) with μ such that Σ Δ_free = target.
    const mu = (su - target) / sv;
    let blocked = false;
    for (let x = 0; x < n; x++) {
      const k = free[x]!;
      const d = u[x]! - mu * v[x]!;
      step[qi + k] = d;
      if (Q[qi + k]! + d < PARAMETER_FLOOR) {
        pinned[k] = 1;
        blocked = true;
      }
    }
    if (blocked) continue;
    // Feasible: release the pinned component whose model gradient g_k − (AΔ)_k most exceeds μ.
    let release = -1;
    let most = 1e-9 * Math.abs(mu);
    for (let k = 0; k < K; k++) {
      if (!pinned[k]) continue;
      let m = gradient[qi + k]!;
      for (let c = 0; c < K; c++) m -= a(k, c) * step[qi + c]!;
      if (m - mu > most) [release, most] = [k, m - mu];
    }
    if (release >= 0 && round < 3 * K - 1) {
      pinned[release] = 0;
      continue;
    }
    let ascent = 0;
    for (let k = 0; k < K; k++) ascent += gradient[qi + k]! * step[qi + k]!;
    if (!(ascent > 0)) return Solved.None;
    return release >= 0 ? Solved.Unchecked : Solved.Certain;
  }
  return Solved.None;
}

/** What solveStep found: no step; a step meeting the model's KKT conditions; a feasible step that may not. */
export const enum Solved {
  None,
  Certain,
  Unchecked,
}
