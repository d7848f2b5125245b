// The WebAssembly module of the admixture model's Newton solves (F's per locus, Q's per individual;
// scripts/kernels/assembly/newton-solves.ts), shared by the general passes (wasm-passes.ts) and the
// two-allele ones (two-allele-passes.ts): it works on their memory, where their passes leave the
// gradients and Hessians.
import { NEWTON_SOLVES_WASM } from './generated/newton-solves-wasm.ts';
import { compileBase64 } from '../../util/wasm-module.ts';
import type { WasmPasses } from './wasm-passes-api.ts';

const solveCompiled = new Map<boolean, WebAssembly.Module | null>();

/** The module (compiled once per thread), importing a shared memory or not (the passes' memory). */
export function solveModule(shared = false): WebAssembly.Module | null {
  let module = solveCompiled.get(shared);
  if (module === undefined) solveCompiled.set(shared, (module = compileBase64(NEWTON_SOLVES_WASM, shared)));
  return module;
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
  fSolveBlock(
    K: number,
    mostAlleles: number,
    l0: number,
    l1: number,
    offs: number,
    rowBase: number,
    F: number,
    gradient: number,
    hessian: number,
    scratch: number,
    status: number,
    steps: number,
  ): number;
}

/** Bytes of the solve module's scratch for Q's solve at K (its qScratchBytes, tested). */
export function qSolveScratchBytes(K: number): number {
  return 8 * (K * K + 4 * K) + 4 * K + K;
}

/** Bytes of the solve module's scratch for loci of at most A alleles at K (its scratchBytes, tested). */
export function solveScratchBytes(K: number, A: number): number {
  return 8 * (2 * A * K + 2 * A * K * K + 3 * K * K + 5 * K) + 4 * (A * K + A) + A * K + A;
}

/**
 * Where a passes' memory holds what F's solve reads: F, a block's gradients and Hessians, the
 * scratch; for a block's solves, per locus its first row (offs, L + 1 int32), and per locus of the
 * block its status (fStatus, a byte) and per row its step to check (fSteps, K doubles).
 */
export interface SolveRegions {
  readonly F: number;
  readonly fGradient: number;
  readonly fHessian: number;
  readonly solve: number;
  readonly offs: number;
  readonly fStatus: number;
  readonly fSteps: number;
}

/** Bytes of the regions fStatus and fSteps for blocks of at most `blockRows` rows at K. */
export function blockSolveBytes(K: number, blockRows: number): { fStatus: number; fSteps: number } {
  return { fStatus: blockRows, fSteps: blockRows * K * 8 };
}

/** What a block's solves left for a locus (fSolveBlock's status). */
export const enum BlockSolve {
  None = 0,
  Applied = 1,
  Check = 2,
  NotSolved = 3,
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
  blockRows: number,
): Pick<WasmPasses, 'solves' | 'solvedStep' | 'solve' | 'solveBlock' | 'blockStatus' | 'blockSteps'> {
  const T = (K * (K + 1)) / 2;
  const solves = solver !== undefined && mostAlleles > 0;
  return {
    solves,
    solvedStep: new Float64Array(memory.buffer, at.solve, mostAlleles * K),
    blockStatus: new Uint8Array(memory.buffer, at.fStatus, blockRows),
    blockSteps: new Float64Array(memory.buffer, at.fSteps, blockRows * K),
    solveBlock(F, l0, l1, rowBase, rows) {
      if (!solves) throw new Error('F solve: not available');
      const left = solver!.fSolveBlock(
        K,
        mostAlleles,
        l0,
        l1,
        at.offs,
        rowBase,
        at.F,
        at.fGradient,
        at.fHessian,
        at.solve,
        at.fStatus,
        at.fSteps,
      );
      F.set(new Float64Array(memory.buffer, at.F + rowBase * K * 8, rows * K), rowBase * K);
      return left;
    },
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
