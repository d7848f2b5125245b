// What the admixture model's passes over the data offer the fit (f-newton.ts, q-newton.ts,
// admixture.ts), whichever form runs them: the general WebAssembly passes (wasm-passes.ts) or the
// two-allele ones (two-allele-passes.ts).
import type { PassArguments } from './em-pass.ts';
import type { NewtonPassArguments } from './newton-passes.ts';
import type { FDerivativeArguments } from './f-derivatives.ts';

/** Rows of F a step check's trial frequencies may span (more: the JavaScript check). */
export const TRIAL_ROWS = 1024;

/**
 * The admixture model's passes over the data as WebAssembly, for one dataset's work at one K: the
 * EM pass (em-pass.ts), the Q Newton step's derivative and gain passes (newton-passes.ts), F's
 * derivative pass and checks (f-derivatives.ts), and the Newton solves that read what the
 * derivative passes leave in the instance's memory (solve-module.ts). The general form
 * (wasm-passes.ts) gives the JavaScript passes' bits; the two-allele form (two-allele-passes.ts)
 * the same sums to rounding. Parameters are copied in and sums out at each pass.
 */
export interface WasmPasses {
  readonly K: number;
  /** emPass(a), for arguments with this instance's data, K and held-out entries. */
  em(a: PassArguments): number;
  /** derivativesPass(a), likewise. */
  derivatives(a: NewtonPassArguments): void;
  /** gainPass(a), likewise. */
  gains(a: NewtonPassArguments): void;
  /** Starts a Newton step of F at this Q (q qᵀ per individual in a.outer): copies them in for the next two. */
  beginFStep(a: FDerivativeArguments): void;
  /**
   * fDerivativesPass(a, l0, l1, rowBase) (f-derivatives.ts), likewise, for the `rows` rows of F
   * from rowBase that loci l0..l1 − 1 own (at most fBlockRows(K)); false (nothing done) where the
   * rows are more.
   */
  fDerivatives(a: FDerivativeArguments, l0: number, l1: number, rowBase: number, rows: number): boolean;
  /**
   * ψ_l (ln L of locus l's copies) with locus l's rows of F (from firstRow) replaced by the first
   * alleles × K values of `trial`, as f-derivatives.ts's locusLogLik, at the Q of beginFStep; undefined
   * for a locus of over TRIAL_ROWS alleles (a small region holds the trial, not a copy of F).
   */
  locusLogLik(l: number, firstRow: number, alleles: number, trial: Float64Array): number | undefined;
  /** ψ_l of every locus at (Q, F), as fDerivativesPass computes them (a view of this instance's memory, valid until its next pass). */
  logLik(Q: Float64Array, F: Float64Array): Float64Array;
  /**
   * qNewtonStep's derivative pass and its loop of solves over individuals, the same bits: from
   * a.pending (1: the individual takes a step), each one's step into a.step; certain steps applied to
   * a.Q; a.pending left 1 where the step is to be checked. Returns how many are; undefined (nothing
   * done) where the solve module is missing.
   */
  qStep(a: NewtonPassArguments): number | undefined;
  /** Whether `solve` runs: the solve module compiled and the data's loci (`offsets`) were given. */
  readonly solves: boolean;
  /**
   * f-newton.ts's solveLocus (its Solved code, the same bits) for the locus whose rows of F start at
   * firstRow (alleles of them; F as the last fDerivatives copied it in) and whose gradient and
   * Hessian rows start at blockRow in that pass's block: the step into `solvedStep`. Where `solves`,
   * fDerivatives leaves the Hessians here and does not copy them out. The fit solves a block at a
   * time (solveBlock); this one locus's solve lets tests compare every step, certain or not, with
   * the JavaScript solve bit for bit.
   */
  solve(firstRow: number, alleles: number, blockRow: number): number;
  /**
   * ln L_i(q_i + tΔ_i) − ln L_i(q_i) at F (Δ: row i of `step`) of each listed individual, as
   * q-newton.ts's individualGain gives them one by one; where absent, that function runs.
   */
  individualGains?(
    list: ArrayLike<number>,
    t: number,
    Q: Float64Array,
    F: Float64Array,
    step: Float64Array,
  ): Float64Array;
  /** The last solve's step (alleles × K values from its start). */
  readonly solvedStep: Float64Array;
  /**
   * f-newton.ts's locusStep up to its checks for every locus of the block fDerivatives last did
   * (loci l0..l1 − 1, `rows` rows from rowBase), in locus order, the same bits: each locus's
   * solve, its step applied where certain; then the block's rows of F copied into `F`. Per locus
   * of the block, blockStatus says what is left (solve-module.ts's BlockSolve) and, for a step to
   * check, blockSteps holds it at the locus's block rows. Returns how many loci are left
   * (Check or NotSolved). Only where `solves`.
   */
  solveBlock(F: Float64Array, l0: number, l1: number, rowBase: number, rows: number): number;
  /** Ends what the passes started besides their memory (a helper thread); they are not used after. */
  close?(): void;
  readonly blockStatus: Uint8Array;
  readonly blockSteps: Float64Array;
}

/** What the F step's members need of a passes' memory and kernels (fStepMembers). */
export interface FStepParts {
  readonly K: number;
  /** The most rows of F a derivative pass takes, and a check's trial frequencies. */
  readonly blockRows: number;
  readonly trialRows: number;
  /** Whether the solves read the Hessians in this memory (then they are not copied out). */
  readonly solves: boolean;
  readonly F: Float64Array;
  readonly fGradient: Float64Array;
  readonly fHessian: Float64Array;
  readonly lociLL: Float64Array;
  readonly trial: Float64Array;
  /** Byte addresses of F and of the trial region (after F's). */
  readonly atF: number;
  readonly atTrial: number;
  setQ(Q: Float64Array): void;
  /** F's derivative pass over loci l0 ≤ l < l1 whose rows start at rowBase (`rows` of them). */
  derive(l0: number, l1: number, rowBase: number, rows: number): void;
  /** The ln L pass over loci l0 ≤ l < l1 with F's rows read from address atF. */
  psi(l0: number, l1: number, atF: number): void;
}

/** The members of the F step that both forms of the passes share (see WasmPasses). */
export function fStepMembers(o: FStepParts): Pick<WasmPasses, 'fDerivatives' | 'locusLogLik' | 'logLik'> {
  const { K, F, fGradient, fHessian, lociLL, trial } = o;
  const T = (K * (K + 1)) / 2;
  return {
    fDerivatives(p, l0, l1, rowBase, n) {
      if (n > o.blockRows) return false;
      // Q (and what the pass needs of it) came with beginFStep; F's rows of the block's loci (not
      // yet updated by the step) are copied with the block.
      F.set(p.F.subarray(rowBase * K, (rowBase + n) * K), rowBase * K);
      o.derive(l0, l1, rowBase, n);
      p.gradient.set(fGradient.subarray(0, n * K));
      if (!o.solves) p.hessian.set(fHessian.subarray(0, n * T));
      p.lociLL.set(lociLL.subarray(l0, l1), l0);
      return true;
    },
    locusLogLik(l, firstRow, alleles, values) {
      if (alleles > o.trialRows) return undefined;
      trial.set(values.subarray(0, alleles * K));
      // The pass reads row r at F + 8Kr: F is placed so that the locus's first row is the trial's
      // first (never below 0: the trial region lies beyond F's, which holds every row).
      o.psi(l, l + 1, o.atTrial - firstRow * K * 8);
      return lociLL[l]!;
    },
    logLik(q, f) {
      o.setQ(q);
      F.set(f);
      o.psi(0, lociLL.length, o.atF);
      return lociLL;
    },
  };
}
