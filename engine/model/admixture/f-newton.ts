import type { PreparedData } from '../prepared/prepared-data.ts';
import { PARAMETER_FLOOR, type AdmixtureWork } from './admixture.ts';
import { passArguments, passData } from './pass-data.ts';
import { choleskyInPlace, choleskySolve, invertPositiveDefinite } from '../../util/cholesky.ts';
import { fBlockRows, fBlocks, fDerivativesPass, locusLogLik, type FDerivativeArguments } from './f-derivatives.ts';
import { wasmPassesOf, type WasmPasses } from './wasm-passes.ts';
import { BlockSolve } from './solve-module.ts';

/**
 * One Newton step for the allele frequencies F with Q fixed (the F block of ADMIXTURE's block
 * relaxation; Alexander, Novembre & Lange 2009), locus by locus, safeguarded so that no locus's
 * likelihood falls. With Q fixed, ln L is a sum over loci of
 *
 *   ψ_l(F_l) = Σ over observed copies c at l of ln(q_c · f_a)      (f_a: the row of F of the copy's allele a)
 *
 * concave in F_l (K clusters × A alleles, each cluster's frequencies on a simplex). Its gradient
 * g_ka = Σ_{c of a} q_ck / d_c and negative Hessian are block diagonal over alleles:
 * H_a = Σ_{c of a} q_c q_cᵀ / d_c² (K × K). The step maximises g·Δ − ½ΔᵀHΔ subject to
 * Σ_a Δ_ka = 0 for every k: Δ_a = H_a⁻¹(g_a − λ) with the K multipliers λ from the K × K system
 * (Σ_a H_a⁻¹) λ = Σ_a H_a⁻¹ g_a (a Schur complement), entries that would fall below PARAMETER_FLOOR
 * pinned to it (an active set, as the Q step's). The locus's ln L at F + Δ is then computed from
 * the same copies (still in cache) and the step halved until it does not fall.
 *
 * Why: with Q fixed, EM's F update crawls when individuals are admixed between similar clusters
 * (the copies' cluster of origin is nearly unknown); on eHGDP at K = 8 (after 100 SQUAREM cycles
 * of the default fit), 400 such EM updates gained 36 ln L units and still climbed, where two Newton
 * steps gained 66 and a third 0.07. When the step fails its check or nearly doubles a frequency,
 * EM's update of the locus is computed too and taken if it does better (far from the optimum).
 */
export interface FNewtonWork {
  /** Per row of the block: gradient (K) and the packed lower triangle of H_a (K(K+1)/2). */
  readonly gradient: Float64Array;
  readonly hessian: Float64Array;
  /** Per individual, the packed lower triangle of q qᵀ (shape (N, K(K+1)/2)), made once per step. */
  readonly outer: Float64Array;
  /** Per locus, ψ_l at the F the step was given. */
  readonly lociLL: Float64Array;
  /** Per allele of a locus (K each): the Newton step, and EM's update as a step (emLocusStep). */
  readonly step: Float64Array;
  readonly emStep: Float64Array;
  /** Per allele of a locus (K each): the frequencies a step's check tries (F + tΔ). */
  readonly trial: Float64Array;
  /** Per allele of a locus (K each): b_a = g_a − H_a Δ_a over the pinned entries, for the free ones in order. */
  readonly bs: Float64Array;
  /** Per allele, H_a unpacked (K × K), and the inverse of its free block (K × K, free clusters first). */
  readonly full: Float64Array;
  readonly inverse: Float64Array;
  readonly pinned: Uint8Array;
  /** Per allele: whether its pinned entries changed since its inverse was made; its free clusters (K each) and how many. */
  readonly changed: Uint8Array;
  readonly freeOf: Int32Array;
  readonly freeCount: Int32Array;
  /** Per cluster: the Schur complement system, the multipliers, what pinned entries free. */
  readonly schur: Float64Array;
  readonly rhs: Float64Array;
  readonly lambda: Float64Array;
  readonly target: Float64Array;
  /** Scratch (K × K and K; triangle: the inverse Cholesky factor). */
  readonly matrix: Float64Array;
  readonly triangle: Float64Array;
  readonly solved: Float64Array;
  readonly b: Float64Array;
}

export function fNewtonWork(md: PreparedData, K: number): FNewtonWork {
  let A = 1;
  for (let l = 0; l < md.L; l++) A = Math.max(A, md.alleles[l]!);
  const T = (K * (K + 1)) / 2;
  const rows = Math.max(A, Math.min(md.totalAlleles, fBlockRows(K)));
  return {
    gradient: new Float64Array(rows * K),
    hessian: new Float64Array(rows * T),
    outer: new Float64Array(md.N * T),
    lociLL: new Float64Array(md.L),
    step: new Float64Array(A * K),
    emStep: new Float64Array(A * K),
    trial: new Float64Array(A * K),
    bs: new Float64Array(A * K),
    full: new Float64Array(A * K * K),
    inverse: new Float64Array(A * K * K),
    pinned: new Uint8Array(A * K),
    changed: new Uint8Array(A),
    freeOf: new Int32Array(A * K),
    freeCount: new Int32Array(A),
    schur: new Float64Array(K * K),
    rhs: new Float64Array(K),
    lambda: new Float64Array(K),
    target: new Float64Array(K),
    matrix: new Float64Array(K * K),
    triangle: new Float64Array(K * K),
    solved: new Float64Array(K),
    b: new Float64Array(K),
  };
}

/** Active-set rounds per locus before the step is cut back to the floor instead. */
const MAX_ROUNDS = 8;
/** A Newton step that raises a frequency by more than this fraction of it is compared with EM's update. */
const DOUBLING = 0.9;
/** Halvings of a locus's step before it keeps its frequencies. */
const MAX_HALVINGS = 20;

/**
 * Updates F in place by one safeguarded Newton step per locus with Q fixed; returns ln L at the
 * F it was given (computed in the same pass). Where the WebAssembly passes run, a block's solves
 * and certain steps run there too, in one call (`solveBlock`: solveLocus and applyLocus compiled
 * from AssemblyScript, the same bits), reading the Hessians where the derivative pass left them
 * (s.hessian is then unused); only the steps to check come back here.
 */
export function fNewtonStep(
  md: PreparedData,
  work: AdmixtureWork,
  K: number,
  Q: Float64Array,
  F: Float64Array,
  s: FNewtonWork,
): number {
  const T = (K * (K + 1)) / 2;
  const outer = s.outer;
  for (let i = 0; i < md.N; i++)
    for (let k = 0, t = i * T; k < K; k++) for (let m = 0; m <= k; m++) outer[t++] = Q[i * K + k]! * Q[i * K + m]!;
  const pass: FDerivativeArguments = passArguments(passData(md, work, K, Q, F), {
    outer,
    gradient: s.gradient,
    hessian: s.hessian,
    lociLL: s.lociLL,
  });
  const wasm = work.wasm === false ? undefined : wasmPassesOf(work, pass);
  wasm?.beginFStep(pass);
  const c: FStep = { md, work, K, Q, F, s, wasm };
  let ll = 0;
  for (const { l0, l1, rowBase, rows } of fBlocks(md.offsets, md.L, K)) {
    const viaWasm = wasm?.fDerivatives(pass, l0, l1, rowBase, rows) ?? false;
    if (!viaWasm) {
      s.gradient.fill(0, 0, rows * K);
      s.hessian.fill(0, 0, rows * T);
      fDerivativesPass(pass, l0, l1, rowBase);
    }
    if (!(viaWasm && wasm!.solves)) {
      for (let l = l0; l < l1; l++) ll += locusStep(c, l, md.offsets[l]! - rowBase);
      continue;
    }
    // The block's solves and certain steps in one call; the steps to check here.
    const left = wasm!.solveBlock(F, l0, l1, rowBase, rows);
    const { blockStatus, blockSteps } = wasm!;
    for (let l = l0; l < l1; l++) {
      ll += s.lociLL[l]!;
      if (left === 0) continue;
      const status = blockStatus[l - l0]! as BlockSolve;
      if (status === BlockSolve.NotSolved) throw new Error('F solve: not available for this locus');
      if (status !== BlockSolve.Check) continue;
      const from = (md.offsets[l]! - rowBase) * K;
      for (let e = 0; e < md.alleles[l]! * K; e++) s.step[e] = blockSteps[from + e]!;
      checkedStep(c, l, md.offsets[l]! - rowBase);
    }
  }
  return ll;
}

/**
 * ln L at (Q, F) as fNewtonStep returns it — the sum of every locus's ψ_l in locus order, the same
 * bits — for a fraction of a step's cost (no derivatives, solves or checks): SQUAREM's test of an
 * extrapolated point before it takes a step from there.
 */
export function fStepLogLik(
  md: PreparedData,
  work: AdmixtureWork,
  K: number,
  Q: Float64Array,
  F: Float64Array,
): number {
  const data = passData(md, work, K, Q, F);
  const wasm = work.wasm === false ? undefined : wasmPassesOf(work, data);
  const lociLL = wasm?.logLik(Q, F);
  let ll = 0;
  for (let l = 0; l < md.L; l++) ll += lociLL ? lociLL[l]! : locusLogLik(data, l, F, 0);
  return ll;
}

/** What a locus's step reads: the data, Q and F (updated in place), the step's work, the passes. */
interface FStep {
  readonly md: PreparedData;
  readonly work: AdmixtureWork;
  readonly K: number;
  readonly Q: Float64Array;
  readonly F: Float64Array;
  readonly s: FNewtonWork;
  readonly wasm: WasmPasses | undefined;
}

/** Locus l's safeguarded step (its derivatives in s from row rb); returns ψ_l at the F it was given. */
function locusStep(c: FStep, l: number, rb: number): number {
  const { md, K, F, s } = c;
  const before = s.lociLL[l]!;
  const solved = solveLocus(md, K, F, s, l, rb);
  if (solved === Solved.None) return before;
  if (solved === Solved.Certain) applyLocus(md, K, F, s.step, l, 1);
  else checkedStep(c, l, rb);
  return before;
}

/**
 * Locus l's step in s.step, not certain to raise ψ_l: taken if ψ_l does not fall, else EM's update
 * of the locus if it does better, else halved until ψ_l does not fall.
 */
function checkedStep(c: FStep, l: number, rb: number): void {
  const { md, K, F, s } = c;
  const before = s.lociLL[l]!;
  const trialLogLik = (step: Float64Array, t: number) => trialLocusLogLik(c, step, l, t);
  // Far from the optimum Newton's model of a logarithm is poor (a frequency that should grow
  // tenfold at most doubles); EM's F update, which moves frequencies in proportion, may then do
  // better. It is tried when the Newton step fails or nearly doubles a frequency.
  const newton = trialLogLik(s.step, 1);
  if (newton < before || largestRise(md, K, F, s.step, l) > DOUBLING) {
    emLocusStep(md, K, F, s, l, rb);
    const em = trialLogLik(s.emStep, 1);
    if (em > newton && em >= before) {
      applyLocus(md, K, F, s.emStep, l, 1);
      return;
    }
  }
  let t = 1;
  for (let halving = 0; halving <= MAX_HALVINGS; halving++, t /= 2) {
    if ((halving === 0 ? newton : trialLogLik(s.step, t)) >= before) {
      applyLocus(md, K, F, s.step, l, t);
      break;
    }
  }
}

/** ψ_l(F_l + tΔ), with F_l + tΔ formed in s.trial (ψ by the WebAssembly pass where there is one). */
function trialLocusLogLik(c: FStep, step: Float64Array, l: number, t: number): number {
  const { md, work, K, Q, F, s, wasm } = c;
  const off = md.offsets[l]!;
  const alleles = md.alleles[l]!;
  const trial = s.trial;
  for (let e = 0; e < alleles * K; e++) trial[e] = F[off * K + e]! + t * step[e]!;
  return wasm?.locusLogLik(l, off, alleles, trial) ?? locusLogLik(passData(md, work, K, Q, F), l, trial, off);
}

/** EM's update of locus l's frequencies with Q fixed, as a step from F into s.emStep: f_ka ∝ f_ka g_ka. */
function emLocusStep(md: PreparedData, K: number, F: Float64Array, s: FNewtonWork, l: number, rb: number): void {
  const off = md.offsets[l]!;
  const A = md.alleles[l]!;
  for (let k = 0; k < K; k++) {
    let sum = 0;
    for (let a = 0; a < A; a++) sum += F[(off + a) * K + k]! * s.gradient[(rb + a) * K + k]!;
    let total = 0;
    for (let a = 0; a < A; a++) {
      const x = sum > 0 ? Math.max(PARAMETER_FLOOR, (F[(off + a) * K + k]! * s.gradient[(rb + a) * K + k]!) / sum) : 0;
      s.emStep[a * K + k] = x;
      total += x;
    }
    for (let a = 0; a < A; a++)
      s.emStep[a * K + k] = sum > 0 ? s.emStep[a * K + k]! / total - F[(off + a) * K + k]! : 0;
  }
}

/** The largest rise step_ka / f_ka over locus l's frequencies. */
function largestRise(md: PreparedData, K: number, F: Float64Array, step: Float64Array, l: number): number {
  const off = md.offsets[l]!;
  let rise = 0;
  for (let e = 0; e < md.alleles[l]! * K; e++) rise = Math.max(rise, step[e]! / F[off * K + e]!);
  return rise;
}

function applyLocus(md: PreparedData, K: number, F: Float64Array, step: Float64Array, l: number, t: number): void {
  const off = md.offsets[l]!;
  const A = md.alleles[l]!;
  for (let k = 0; k < K; k++) {
    let sum = 0;
    for (let a = 0; a < A; a++) {
      const x = Math.max(PARAMETER_FLOOR, F[(off + a) * K + k]! + t * step[a * K + k]!);
      F[(off + a) * K + k] = x;
      sum += x;
    }
    for (let a = 0; a < A; a++) F[(off + a) * K + k]! /= sum;
  }
}

/**
 * A step needs no check when every |Δ_ka| ≤ CERTAIN_RATIO · f_ka and it meets the quadratic
 * model's KKT conditions: each copy's x = q·Δ_a / d then has |x| ≤ ρ, and the gain is at least
 * ΔᵀHΔ (½ − ρ/(3(1 − ρ))) > 0 (the argument of q-newton.ts's CERTAIN_RATIO, with pinned entries
 * only adding to g·Δ − ΔᵀHΔ ≥ 0).
 */
const CERTAIN_RATIO = 0.5;

/** What solveLocus found: no step; a step meeting the model's KKT conditions that needs no check; a step to check. */
const enum Solved {
  None,
  Certain,
  Unchecked,
}

/**
 * The step of locus l into s.step (see fNewtonStep). Entries at the floor start pinned; free
 * entries that would end below it are pinned and the rest re-solved; pinned entries whose model
 * gradient exceeds their cluster's multiplier are released. When the rounds run out on an
 * infeasible step, it is shortened to the floor. (Exported for the test of its WebAssembly form,
 * scripts/kernels/assembly/newton-solves.ts.)
 */
export function solveLocus(
  md: PreparedData,
  K: number,
  F: Float64Array,
  s: FNewtonWork,
  l: number,
  rb: number,
): Solved {
  const off = md.offsets[l]!;
  const A = md.alleles[l]!;
  const T = (K * (K + 1)) / 2;
  const KK = K * K;
  const { gradient, hessian, step, inverse, pinned, changed, freeOf, freeCount } = s;
  const { schur, rhs, lambda, target, matrix, triangle, solved, b, bs } = s;
  // Each allele's H_a unpacked into full K × K (s.full), so that the rounds index it directly.
  const full = s.full;
  for (let a = 0; a < A; a++) {
    const p = (rb + a) * T;
    const u = a * KK;
    for (let k = 0, t = p; k < K; k++)
      for (let m = 0; m <= k; m++, t++) {
        const x = hessian[t]!;
        full[u + k * K + m] = x;
        full[u + m * K + k] = x;
      }
  }
  for (let e = 0; e < A * K; e++) pinned[e] = F[off * K + e]! <= PARAMETER_FLOOR * (1 + 1e-9) ? 1 : 0;
  // An allele's inverse free block and its b depend only on its own pinned entries: they are made
  // again only for the alleles whose pinned entries changed in the last round.
  changed.fill(1, 0, A);
  /** Allele a's free clusters (freeOf from a·K, freeCount[a] of them), b_a (in bs) and the inverse of its free block; false if singular. */
  const factorAllele = (a: number) => {
    const u = a * KK;
    let n = 0;
    for (let k = 0; k < K; k++) if (!pinned[a * K + k]) freeOf[a * K + n++] = k;
    freeCount[a] = n;
    if (n === 0) return true;
    let trace = 0;
    for (let x = 0; x < n; x++) {
      const k = freeOf[a * K + x]!;
      trace += full[u + k * K + k]!;
    }
    const ridge = 1e-10 * trace + 1e-300;
    for (let x = 0; x < n; x++) {
      const k = freeOf[a * K + x]!;
      let v = gradient[(rb + a) * K + k]!;
      if (n < K) for (let m = 0; m < K; m++) if (pinned[a * K + m]) v -= full[u + k * K + m]! * step[a * K + m]!;
      bs[a * K + x] = v;
      for (let y = 0; y < n; y++) matrix[x * n + y] = full[u + k * K + freeOf[a * K + y]!]! + (x === y ? ridge : 0);
    }
    return invertPositiveDefinite(matrix, n, inverse, triangle, u);
  };
  let kkt = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    schur.fill(0);
    rhs.fill(0);
    target.fill(0);
    // Pinned entries move to the floor; their cluster's free entries share what that frees.
    for (let a = 0; a < A; a++)
      for (let k = 0; k < K; k++) {
        const d = pinned[a * K + k] ? PARAMETER_FLOOR - F[(off + a) * K + k]! : 0;
        step[a * K + k] = d;
        target[k]! -= d;
      }
    for (let a = 0; a < A; a++) {
      if (changed[a] === 1) {
        if (!factorAllele(a)) return Solved.None;
        changed[a] = 0;
      }
      const n = freeCount[a]!;
      const base = a * KK;
      const fa = a * K;
      for (let x = 0; x < n; x++) {
        const row = freeOf[fa + x]! * K;
        let u = 0;
        for (let y = 0; y < n; y++) {
          const m = inverse[base + x * n + y]!;
          schur[row + freeOf[fa + y]!]! += m;
          u += m * bs[fa + y]!;
        }
        rhs[freeOf[fa + x]!]! += u;
      }
    }
    // (Σ_a H_a⁻¹) λ = Σ_a H_a⁻¹ b_a − target, so that Σ_a Δ_ka = target_k for every cluster k.
    let trace = 0;
    for (let k = 0; k < K; k++) trace += schur[k * K + k]!;
    for (let k = 0; k < K; k++) {
      for (let m = 0; m < K; m++) matrix[k * K + m] = schur[k * K + m]!;
      matrix[k * K + k]! += 1e-12 * trace + 1e-300;
      b[k] = rhs[k]! - target[k]!;
    }
    if (!choleskyInPlace(matrix, K)) return Solved.None;
    choleskySolve(matrix, K, b, lambda);
    let blocked = false;
    for (let a = 0; a < A; a++) {
      const n = freeCount[a]!;
      const base = a * KK;
      const fa = a * K;
      for (let x = 0; x < n; x++) b[x] = bs[fa + x]! - lambda[freeOf[fa + x]!]!;
      for (let x = 0; x < n; x++) {
        let d = 0;
        for (let y = 0; y < n; y++) d += inverse[base + x * n + y]! * b[y]!;
        solved[x] = d;
      }
      for (let x = 0; x < n; x++) {
        const k = freeOf[fa + x]!;
        step[fa + k] = solved[x]!;
        if (F[(off + a) * K + k]! + solved[x]! < PARAMETER_FLOOR) {
          pinned[fa + k] = 1;
          changed[a] = 1;
          blocked = true;
        }
      }
    }
    if (blocked) continue;
    // Feasible: release the pinned entries whose model gradient (g − HΔ) exceeds their cluster's multiplier.
    let released = false;
    for (let a = 0; a < A; a++) {
      if (freeCount[a] === K) continue;
      const u = a * KK;
      for (let k = 0; k < K; k++) {
        if (!pinned[a * K + k]) continue;
        let residual = gradient[(rb + a) * K + k]!;
        for (let m = 0; m < K; m++) residual -= full[u + k * K + m]! * step[a * K + m]!;
        if (residual - lambda[k]! > 1e-9 * Math.abs(lambda[k]!)) {
          pinned[a * K + k] = 0;
          changed[a] = 1;
          released = true;
        }
      }
    }
    if (released) continue;
    kkt = true;
    break;
  }
  // Rounds run out on an infeasible step: shorten it to the floor (sums over alleles stay 0).
  let t = 1;
  for (let e = 0; e < A * K; e++) {
    const x = F[off * K + e]! + step[e]!;
    if (x < PARAMETER_FLOOR) t = Math.min(t, (F[off * K + e]! - PARAMETER_FLOOR) / -step[e]!);
  }
  let ascent = 0;
  let ratio = 0;
  for (let e = 0; e < A * K; e++) {
    step[e]! *= t;
    ascent += gradient[rb * K + e]! * step[e]!;
    ratio = Math.max(ratio, Math.abs(step[e]!) / F[off * K + e]!);
  }
  if (!(ascent > 0)) return Solved.None;
  return kkt && t === 1 && ratio <= CERTAIN_RATIO ? Solved.Certain : Solved.Unchecked;
}
