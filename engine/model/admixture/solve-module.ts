// The WebAssembly module of the admixture model's Newton solves (F's per locus, Q's per individual;
// scripts/kernels/assembly/newton-solves.ts), shared by the general passes (wasm-passes.ts) and the
// two-allele ones (two-allele-passes.ts): it works on their memory, where their passes leave the
// gradients and Hessians.
import { NEWTON_SOLVES_WASM } from './generated/newton-solves-wasm.ts';
import { compileBase64 } from '../../util/wasm-module.ts';

let solveCompiled: WebAssembly.Module | null | undefined;

export function solveModule(): WebAssembly.Module | null {
  if (solveCompiled === undefined) solveCompiled = compileBase64(NEWTON_SOLVES_WASM);
  return solveCompiled;
}

/** The solve module's exports (scripts/kernels/assembly/newton-solves.ts): addresses in the shared memory. */
export interface SolveExports {
  solveLocus(K: number, A: number, F: number, gradient: number, hessian: number, scratch: number): number;
  scratchBytes(K: number, A: number): number;
  qSolve(
    N: number,
    K: number,
    Q: number,
    gradient: number,
    hessian: number,
    step: number,
    pending: number,
    scratch: number,
  ): number;
  qScratchBytes(K: number): number;
}

/** Bytes of the solve module's scratch for Q's solve at K (its qScratchBytes, tested). */
export function qSolveScratchBytes(K: number): number {
  return 8 * (K * K + 4 * K) + 4 * K + K;
}

/** Bytes of the solve module's scratch for loci of at most A alleles at K (its scratchBytes, tested). */
export function solveScratchBytes(K: number, A: number): number {
  return 8 * (2 * A * K + 2 * A * K * K + 3 * K * K + 5 * K) + 4 * (A * K + A) + A * K + A;
}

/** Where a passes' memory holds what F's solve reads: F, a block's gradients and Hessians, the scratch. */
export interface SolveRegions {
  readonly F: number;
  readonly fGradient: number;
  readonly fHessian: number;
  readonly solve: number;
}

/**
 * The WasmPasses members of F's per-locus solve over a passes' memory: `solve` runs the module's
 * solveLocus for a locus of at most `mostAlleles` alleles (its step into `solvedStep`, the start of
 * the scratch); `solves` whether the module runs.
 */
export function locusSolver(
  solver: SolveExports | undefined,
  memory: WebAssembly.Memory,
  at: SolveRegions,
  K: number,
  mostAlleles: number,
): {
  readonly solves: boolean;
  readonly solvedStep: Float64Array;
  solve(firstRow: number, alleles: number, blockRow: number): number;
} {
  const T = (K * (K + 1)) / 2;
  const solves = solver !== undefined && mostAlleles > 0;
  return {
    solves,
    solvedStep: new Float64Array(memory.buffer, at.solve, mostAlleles * K),
    solve(firstRow, alleles, blockRow) {
      if (!solves || alleles > mostAlleles) throw new Error('F solve: not available for this locus');
      return solver!.solveLocus(
        K,
        alleles,
        at.F + firstRow * K * 8,
        at.fGradient + blockRow * K * 8,
        at.fHessian + blockRow * T * 8,
        at.solve,
      );
    },
  };
}
