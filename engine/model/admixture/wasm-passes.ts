// The admixture model's passes over the data as WebAssembly in their general form
// (scripts/kernels/wasm-admixture-passes.mjs): the EM pass (em-pass.ts) and the Newton steps' passes
// (newton-passes.ts, f-derivatives.ts) with the same operations in the same order, so the same results
// to the bit. The per-genotype entries live in the instance's memory; the genotype codes (and the
// held-out mask, turned locus-major) too when they take at most 16 MiB, else they are copied in a few
// MiB of loci at a time, so large data are not duplicated per worker. Where WebAssembly with SIMD is
// missing, wasmPasses returns undefined and the JavaScript passes run.
import { ADMIXTURE_PASSES_WASM } from './generated/admixture-passes-wasm.ts';
import {
  blockSolveBytes,
  locusSolver,
  solveModule,
  solveScratchBytes,
  qSolveScratchBytes,
  type SolveExports,
} from './solve-module.ts';
import { bytesOf, compileBase64, regionMemory } from '../../util/wasm-module.ts';
import { detLog } from '../../util/det-math.ts';
import type { PassData } from './pass-data.ts';
import { fBlockRows } from './f-derivatives.ts';
import { twoAllelePasses } from './two-allele-passes.ts';
import { fStepMembers, TRIAL_ROWS, type WasmPasses } from './wasm-passes-api.ts';
export type { WasmPasses } from './wasm-passes-api.ts';

/** What an instance is made from: every pass's data (pass-data.ts's passData) but Q, which each pass copies in. */
type DataArguments = Omit<PassData, 'Q'>;
/** A pass's exported function: the data's arguments (codes, mask, l0, l1, N, K, gOffs, start, row, count, Q, F), then its own. */
type PassFunction = (...addresses: number[]) => void;

/** Codes (or a mask) up to this many bytes are copied in once, not for every pass. */
const RESIDENT_BYTES = 1 << 24;
/** Otherwise loci are copied in groups of about this many bytes. */
const CHUNK_BYTES = 1 << 22;
let compiled: WebAssembly.Module | null | undefined;
function passModule(): WebAssembly.Module | null {
  if (compiled === undefined) compiled = compileBase64(ADMIXTURE_PASSES_WASM);
  return compiled;
}

/** heldOut (individual-major, N × L) as a locus-major mask. */
function locusMajor(heldOut: Uint8Array, N: number, L: number): Uint8Array {
  const mask = new Uint8Array(N * L);
  for (let i = 0; i < N; i++) for (let l = 0; l < L; l++) mask[l * N + i] = heldOut[i * L + l]!;
  return mask;
}

/** The most copies a genotype holds (the ploidy): Σ of its entries' counts. */
function mostCopies(start: Int32Array, count: Float64Array): number {
  let most = 0;
  for (let g = 0; g + 1 < start.length; g++) {
    let copies = 0;
    for (let j = start[g]!; j < start[g + 1]!; j++) copies += count[j]!;
    most = Math.max(most, copies);
  }
  return most;
}

/**
 * The WebAssembly passes for the data and K of `a`; undefined where they cannot run. `limits`
 * (tests): the largest codes kept resident, and the bytes of loci copied in at a time otherwise.
 */
export function wasmPasses(
  a: DataArguments,
  limits = { residentBytes: RESIDENT_BYTES, chunkBytes: CHUNK_BYTES },
): WasmPasses | undefined {
  const module = passModule();
  if (!module) return undefined;
  const { N, L, K, genotypeOf, genotypeOffsets, start, row, count } = a;
  const rows = a.F.length / K;
  const T = (K * (K + 1)) / 2;
  const bytes = genotypeOf.BYTES_PER_ELEMENT;
  const mask = a.heldOut ? locusMajor(a.heldOut, N, L) : undefined;
  const ploidy = mostCopies(start, count);
  // The most alleles at a locus: the solve's scratch (no solve without the loci's rows).
  let mostAlleles = 0;
  if (a.offsets) for (let l = 0; l < L; l++) mostAlleles = Math.max(mostAlleles, a.offsets[l + 1]! - a.offsets[l]!);
  const resident = genotypeOf.byteLength <= limits.residentBytes;
  const chunk = resident ? L : Math.max(1, Math.min(L, Math.floor(limits.chunkBytes / (N * bytes))));
  const regions = {
    state: 16, // ln L so far, running product (at 0, so that no mask is at 0)
    gOffs: genotypeOffsets.byteLength,
    start: start.byteLength,
    row: row.byteLength,
    count: count.byteLength,
    codes: chunk * N * bytes,
    mask: mask ? chunk * N : 0,
    Q: N * K * 8,
    F: rows * K * 8,
    Qn: N * K * 8, // the EM pass's sums; the Newton passes' gradient
    Fn: rows * K * 8,
    terms: K * 8,
    aside: N * Math.max(1, ploidy) * 8, // running products set aside at a locus
    asideI: N * 4, // and their individuals (gains)
    hessian: N * T * 8,
    step: N * K * 8,
    pending: N,
    gain: N * 8,
    ratio: N * 8,
    // F's Newton step: per individual q qᵀ, per locus ln L, a block of rows' gradients and Hessians.
    outer: N * T * 8,
    lociLL: L * 8,
    fGradient: Math.min(rows, fBlockRows(K)) * K * 8,
    fHessian: Math.min(rows, fBlockRows(K)) * T * 8,
    trial: Math.min(rows, TRIAL_ROWS) * K * 8, // a locus's trial frequencies
    solve: solveScratchBytes(K, mostAlleles), // F's solve per locus: its step first
    qSolve: qSolveScratchBytes(K),
    offs: a.offsets ? a.offsets.byteLength : 0,
    ...blockSolveBytes(K, Math.min(rows, fBlockRows(K))),
  };
  const made = regionMemory(regions);
  if (!made) return undefined;
  const { at, memory } = made;
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as Record<
    string,
    PassFunction | undefined
  >;
  const width = genotypeOf instanceof Uint8Array ? 8 : genotypeOf instanceof Uint16Array ? 16 : 32;
  const exported = (name: string) => (exports[`${name}${width}k${K}`] ?? exports[`${name}${width}`])!;
  const [emFunction, derivativesFunction, gainsFunction] = ['pass', 'derivatives', 'gains'].map(exported) as [
    PassFunction,
    PassFunction,
    PassFunction,
  ];
  const fDerivativesFunction = exported('fderivatives');
  const fLogLikFunction = exported('floglik');
  const buffer = memory.buffer;
  const f64 = (region: keyof typeof regions, n: number) => new Float64Array(buffer, at[region], n);
  new Int32Array(buffer, at.gOffs, genotypeOffsets.length).set(genotypeOffsets);
  new Int32Array(buffer, at.start, start.length).set(start);
  new Int32Array(buffer, at.row, row.length).set(row);
  f64('count', count.length).set(count);
  const codesView = new Uint8Array(buffer, at.codes, chunk * N * bytes);
  const maskView = mask ? new Uint8Array(buffer, at.mask, chunk * N) : undefined;
  if (resident) {
    codesView.set(bytesOf(genotypeOf));
    maskView?.set(mask!);
  }
  const codeBytes = bytesOf(genotypeOf);
  const state = f64('state', 2);
  const Q = f64('Q', N * K);
  const F = f64('F', rows * K);
  const Qn = f64('Qn', N * K);
  const Fn = f64('Fn', rows * K);
  const hessian = f64('hessian', N * T);
  const step = f64('step', N * K);
  const pending = new Uint8Array(buffer, at.pending, N);
  const gain = f64('gain', N);
  const ratio = f64('ratio', N);
  /**
   * Runs `pass` over loci from ≤ l < to (copying codes in per group of loci unless resident), with
   * its own arguments after the data's.
   */
  const overLoci = (pass: PassFunction, own: readonly number[], from = 0, to = L, atF = at.F) => {
    if (resident) {
      const codes = at.codes + from * N * bytes;
      pass(
        codes,
        maskView ? at.mask + from * N : 0,
        from,
        to,
        N,
        K,
        at.gOffs,
        at.start,
        at.row,
        at.count,
        at.Q,
        atF,
        ...own,
      );
      return;
    }
    for (let l0 = from; l0 < to; l0 += chunk) {
      const l1 = Math.min(to, l0 + chunk);
      codesView.set(codeBytes.subarray(l0 * N * bytes, l1 * N * bytes));
      maskView?.set(mask!.subarray(l0 * N, l1 * N));
      pass(at.codes, maskView ? at.mask : 0, l0, l1, N, K, at.gOffs, at.start, at.row, at.count, at.Q, atF, ...own);
    }
  };
  const outer = f64('outer', N * T);
  const lociLL = f64('lociLL', L);
  const blockRows = Math.min(rows, fBlockRows(K));
  const fGradient = f64('fGradient', blockRows * K);
  const fHessian = f64('fHessian', blockRows * T);
  const trial = f64('trial', Math.min(rows, TRIAL_ROWS) * K);
  const solveModuleNow = solveModule();
  const solveExports = solveModuleNow
    ? (new WebAssembly.Instance(solveModuleNow, { env: { memory } }).exports as unknown as SolveExports)
    : undefined;
  if (a.offsets) new Int32Array(buffer, at.offs, L + 1).set(a.offsets);
  const solve = locusSolver(solveExports, memory, at, K, mostAlleles, Math.min(rows, fBlockRows(K)));
  return {
    qStep(p) {
      if (!solveExports) return undefined;
      Q.set(p.Q);
      F.set(p.F);
      Qn.fill(0);
      hessian.fill(0);
      overLoci(derivativesFunction, [at.Qn, at.hessian, T * 8]);
      pending.set(p.pending);
      const checks = solveExports.qSolve(N, K, at.Q, at.Qn, at.hessian, at.step, at.pending, at.qSolve);
      p.Q.set(Q);
      p.step.set(step);
      p.pending.set(pending);
      return checks;
    },
    ...solve,
    K,
    em(p) {
      Q.set(p.Q);
      F.set(p.F);
      Qn.set(p.Qn);
      Fn.set(p.Fn);
      state[0] = 0;
      state[1] = 1;
      overLoci(emFunction, [at.Qn, at.Fn, at.terms, at.state, at.aside]);
      p.Qn.set(Qn);
      p.Fn.set(Fn);
      return state[0]! + detLog(state[1]!);
    },
    derivatives(p) {
      Q.set(p.Q);
      F.set(p.F);
      Qn.set(p.gradient);
      hessian.set(p.hessian);
      overLoci(derivativesFunction, [at.Qn, at.hessian, T * 8]);
      p.gradient.set(Qn);
      p.hessian.set(hessian);
    },
    gains(p) {
      Q.set(p.Q);
      F.set(p.F);
      step.set(p.step);
      pending.set(p.pending);
      gain.set(p.gain);
      ratio.set(p.ratio);
      overLoci(gainsFunction, [at.step, at.pending, at.gain, at.ratio, at.aside, at.asideI]);
      p.gain.set(gain);
      p.ratio.set(ratio);
    },
    beginFStep(p) {
      Q.set(p.Q);
      outer.set(p.outer);
    },
    ...fStepMembers({
      K,
      blockRows,
      trialRows: TRIAL_ROWS,
      solves: solve.solves,
      F,
      fGradient,
      fHessian,
      lociLL,
      trial,
      atF: at.F,
      atTrial: at.trial,
      setQ: (q) => Q.set(q),
      derive: (l0, l1, rowBase, n) => {
        fGradient.fill(0, 0, n * K);
        fHessian.fill(0, 0, n * T);
        overLoci(
          fDerivativesFunction,
          [at.fGradient, at.fHessian, at.outer, T * 8, rowBase, at.lociLL, at.aside],
          l0,
          l1,
        );
      },
      psi: (l0, l1, atF) => overLoci(fLogLikFunction, [at.lociLL, at.aside], l0, l1, atF),
    }),
  };
}

/** The passes of each work description (the key), for its last K (one fit uses one K); null: unavailable. */
const cache = new WeakMap<object, WasmPasses | null>();

/**
 * The WebAssembly passes for `work`'s data at K, made once per work and K: the two-allele passes
 * (two-allele-passes.ts) where the data are diploid with at most two alleles a locus, unless
 * `work.wasm` is 'general'; else the general ones.
 */
export function wasmPassesOf(work: { readonly wasm?: boolean | 'general' }, a: DataArguments): WasmPasses | undefined {
  let passes = cache.get(work);
  if (passes === undefined || (passes !== null && passes.K !== a.K)) {
    passes?.close?.();
    passes = (work.wasm === 'general' ? undefined : twoAllelePasses(a)) ?? wasmPasses(a) ?? null;
    cache.set(work, passes);
  }
  return passes ?? undefined;
}

/** Ends the passes made for `work` (their helper thread), for a work that is not used again. */
export function closePassesOf(work: object): void {
  cache.get(work)?.close?.();
  cache.delete(work);
}
