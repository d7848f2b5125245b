import { TWO_ALLELE_PASSES_WASM } from './generated/two-allele-passes-wasm.ts';
import { compileBase64, regionMemory } from '../../util/wasm-module.ts';
import { fBlockRows } from './f-derivatives.ts';
import {
  BlockSolve,
  blockSolveBytes,
  locusSolver,
  solveModule,
  solveScratchBytes,
  qSolveScratchBytes,
  type SolveExports,
} from './solve-module.ts';
import { detLog } from '../../util/det-math.ts';
import { helpersPossible, KernelTeam, MAX_HELPERS, TEAM_CONTROL_BYTES } from '../../util/kernel-team.ts';
import { fStepMembers, TRIAL_ROWS, type WasmPasses } from './wasm-passes-api.ts';
import type { PassData } from './pass-data.ts';
import { readByLocus, type PreparedData } from '../prepared/prepared-data.ts';

/**
 * The admixture model's passes for diploid data whose loci have at most two alleles (SNPs), as
 * WebAssembly (scripts/kernels/wasm-two-allele-passes.mjs): the WasmPasses of wasm-passes.ts over
 * genotypes packed two bits each (a quarter of a byte, as PLINK's .bed) with K written out and two
 * individuals a step, where the general passes follow each genotype's entry list. They compute the
 * same sums in another order (equal to rounding, not to the bit) with one exception that changes
 * nothing the fit keeps: F's Hessian of a two-allele locus is given as half the sum of its two
 * alleles' Hessians in each allele's row — the step maximises the same quadratic, since the two
 * rows' steps are opposite. Held-out entries (cross-validation) are written as missing into the codes.
 * Undefined where the data are not of that kind, K is above the kernels' or WebAssembly is missing.
 */
export function twoAllelePasses(a: Omit<PassData, 'Q'>): WasmPasses | undefined {
  const { N, L, K, offsets } = a;
  if (!offsets || K > MAX_K) return undefined;
  const codes = packedCodes(a);
  if (!codes) return undefined;
  const bpl = Math.ceil(N / 4);
  // A shared memory where helper threads may take shares of each pass (kernel-team.ts).
  const shared = helpersPossible();
  const threads = shared ? 1 + MAX_HELPERS : 1;
  const module = passModule(shared);
  if (!module) return undefined;
  const Np = 4 * bpl;
  const rows = a.F.length / K;
  const T = (K * (K + 1)) / 2;
  const blockRows = Math.min(rows, fBlockRows(K));
  const trialRows = Math.min(rows, TRIAL_ROWS);
  const regions = {
    state: 16,
    codes: codes.length,
    lut: 16 * 128,
    offs: (L + 1) * 4,
    Q: N * K * 8, // by individual, for the solves
    Qt: K * Np * 8, // by cluster, for the passes
    F: rows * K * 8,
    trial: trialRows * K * 8, // after F: a check's trial rows are read at F's addresses moved
    Fn: rows * K * 8,
    sumsT: Math.max(K, T) * Np * 8, // by cluster: EM's sums, the gradient; then the Hessian's
    hessT: T * Np * 8,
    gradient: N * K * 8, // by individual, for the solves
    hessian: N * T * 8,
    step: N * K * 8,
    stepT: K * Np * 8,
    pending: N,
    gainT: Np * 8,
    ratioT: Np * 8,
    listed: Np * 4, // a step check's individuals and their steps (individualGains)
    listSteps: K * Np * 8,
    asides: threads * (bpl + 1) * 16, // per thread of a pass by loci, its products set aside
    control: shared ? TEAM_CONTROL_BYTES : 0,
    lociLL: L * 8,
    fGradient: blockRows * K * 8,
    fHessian: blockRows * T * 8,
    // The solves' scratch, one for each thread of the team (F's first: its step is solvedStep).
    solve: threads * align16(solveScratchBytes(K, 2)),
    qSolve: threads * align16(qSolveScratchBytes(K)),
    ...blockSolveBytes(K, blockRows),
  };
  const made = regionMemory(regions, shared);
  if (!made) return undefined;
  const { at, memory } = made;
  const kernels = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as Record<
    string,
    (...args: number[]) => void
  >;
  const solveModuleNow = solveModule(shared);
  const solver = solveModuleNow
    ? (new WebAssembly.Instance(solveModuleNow, { env: { memory } }).exports as unknown as SolveExports)
    : undefined;
  // The kernels the team's threads may share (their index in `shareable`: the passes', then the
  // solves' where the solve module runs), and EM's (never shared: its sums run over both
  // individuals and loci).
  const shareable: [number, string][] = [
    ...['floglik', 'fderivatives', 'qderivatives', 'gains'].map((name): [number, string] => [0, `${name}${K}`]),
    [0, 'listgains'],
    ...(solver ? [[1, 'qSolve'] as [number, string], [1, 'fSolveBlock'] as [number, string]] : []),
  ];
  const local = shareable.map(([m, name]) =>
    m === 0 ? kernels[name]! : (solver as unknown as Record<string, (...args: number[]) => void>)[name]!,
  );
  const [FLOGLIK, FDERIVATIVES, QDERIVATIVES, GAINS, LIST_GAINS, Q_SOLVE, F_SOLVE_BLOCK] = [
    0, 1, 2, 3, 4, 5, 6,
  ] as const;
  const em = kernels[`em${K}`]!;
  const modules = solveModuleNow ? [module, solveModuleNow] : [module];
  const team = shared ? new KernelTeam({ modules, memory, control: at.control, kernels: shareable }, local) : undefined;
  const solve = locusSolver(solver, memory, at, K, 2, blockRows);
  const buffer = memory.buffer;
  const f64 = (region: keyof typeof regions, n: number) => new Float64Array(buffer, at[region], n);
  const codeBytes = new Uint8Array(buffer, at.codes, codes.length);
  codeBytes.set(codes);
  writeTable(new DataView(buffer, at.lut, 16 * 128));
  new Int32Array(buffer, at.offs, L + 1).set(offsets);
  const state = f64('state', 2);
  const Q = f64('Q', N * K);
  const Qt = f64('Qt', K * Np);
  const F = f64('F', rows * K);
  const trial = f64('trial', trialRows * K);
  const Fn = f64('Fn', rows * K);
  const sumsT = f64('sumsT', Math.max(K, T) * Np);
  const hessT = f64('hessT', T * Np);
  const gradient = f64('gradient', N * K);
  const hessian = f64('hessian', N * T);
  const step = f64('step', N * K);
  const stepT = f64('stepT', K * Np);
  const pending = new Uint8Array(buffer, at.pending, N);
  const gainT = f64('gainT', Np);
  const ratioT = f64('ratioT', Np);
  const lociLL = f64('lociLL', L);
  const fGradient = f64('fGradient', blockRows * K);
  const fHessian = f64('fHessian', blockRows * T);
  // Padding individuals are missing; their q is 1/K so that their (unused) terms stay finite.
  Qt.fill(1 / K);
  /** Q (by individual) into Qt (by cluster). */
  const setQ = (q: Float64Array) => {
    for (let k = 0; k < K; k++) for (let i = 0; i < N; i++) Qt[k * Np + i] = q[i * K + k]!;
  };
  /** A kernel's arguments: loci l0 ≤ l < l1, F's rows at `atF`, then its own. */
  const args = (own: readonly number[], l0 = 0, l1 = L, atF = at.F) => [
    at.codes + l0 * bpl,
    bpl,
    l0,
    l1,
    at.offs,
    at.Qt,
    atF,
    at.lut,
    ...own,
  ];
  /**
   * Runs `kernel` over [from, to) — loci, bytes of codes, listed individuals — cut into as many
   * shares as the team has threads ready, each at least `least` long with bounds on multiples of
   * `align` (one share, here, without a team or for a short range); `argsOf(a, b, t)`: the
   * arguments of share t, [a, b). Each share's results are its own, so any cut gives one call's.
   */
  const inShares = (
    kernel: number,
    [from, to]: readonly [number, number],
    { least, align = 1 }: { readonly least: number; readonly align?: number },
    argsOf: (a: number, b: number, t: number) => readonly number[],
  ) => {
    const width = team && to - from >= 2 * least ? Math.min(team.width(), Math.floor((to - from) / least)) : 1;
    const shares = cuts(from, to, width, align).map(([a, b], t) => argsOf(a, b, t));
    if (team) team.run(kernel, shares);
    else local[kernel]!(...shares[0]!);
  };
  const asideBytes = (bpl + 1) * 16;
  /**
   * A kernel with per-locus results over loci l0 ≤ l < l1, a share of the loci on each thread (thread
   * t's products set aside in its own part of `asides`). Few loci (a step's check of one locus, say):
   * one call here.
   */
  const byLoci = (kernel: number, own: (aside: number) => readonly number[], l0: number, l1: number, atF = at.F) =>
    inShares(kernel, [l0, l1], { least: SHARE_LOCI }, (a, b, t) => args(own(at.asides + t * asideBytes), a, b, atF));
  /**
   * A kernel with per-individual results summed over every locus, a share of the individuals (whole
   * bytes of codes) on each thread: each individual's sums run over the loci in the same order.
   */
  const byIndividuals = (kernel: number, own: readonly number[]) =>
    inShares(kernel, [0, bpl], { least: SHARE_BYTES, align: SHARE_ALIGN }, (j0, j1) => args([...own, j0, j1]));
  /**
   * The Q derivatives, by individual, into gradient and hessian (this memory's). The kernel sums them
   * as they act on steps with Σ Δ = 0, in coordinates 1..K − 1 (wasm-two-allele-passes.mjs): the full
   * form has row and column 0 zero, plus c 11ᵀ (c the mean diagonal; nothing on Σ Δ = 0), so that the
   * solve's matrix is positive definite.
   */
  const qDerivatives = () => {
    sumsT.fill(0, 0, K * Np);
    hessT.fill(0);
    byIndividuals(QDERIVATIVES, [at.sumsT, at.hessT]);
    const packed = (k: number, m: number) => ((k - 1) * k) / 2 + (m - 1);
    for (let i = 0; i < N; i++) {
      gradient[i * K] = 0;
      for (let k = 1; k < K; k++) gradient[i * K + k] = sumsT[(k - 1) * Np + i]!;
      let trace = 0;
      for (let k = 1; k < K; k++) trace += hessT[packed(k, k) * Np + i]!;
      const c = trace / (K - 1);
      for (let k = 0; k < K; k++)
        for (let m = 0; m <= k; m++)
          hessian[i * T + (k * (k + 1)) / 2 + m] = m === 0 ? c : hessT[packed(k, m) * Np + i]! + c;
    }
  };
  /**
   * ln L_i(q_i + tΔ_i) − ln L_i(q_i) of each listed individual, by the module's listgains: locus by
   * locus from the codes, per individual the running product of (d′/d)^c_a (e′/e)^c_b in locus
   * order, the listed individuals together at each locus (their codes share the locus's bytes).
   */
  const listed = new Int32Array(buffer, at.listed, Np);
  const listSteps = f64('listSteps', K * Np);
  const individualGains = (
    list: ArrayLike<number>,
    t: number,
    q: Float64Array,
    f: Float64Array,
    stepOf: Float64Array,
  ): Float64Array => {
    const n = list.length;
    F.set(f);
    // The listed individuals, their q and Δ rows (n × K) and running sums in the gain pass's scratch.
    for (let j = 0; j < n; j++) {
      const i = list[j]!;
      listed[j] = i;
      for (let k = 0; k < K; k++) {
        stepT[j * K + k] = q[i * K + k]!;
        listSteps[j * K + k] = stepOf[i * K + k]!;
      }
    }
    gainT.fill(0, 0, n);
    ratioT.fill(1, 0, n);
    // Each listed individual's gain alone: shares of the list on the team's threads.
    inShares(LIST_GAINS, [0, n], { least: SHARE_LISTED }, (j0, j1) => [
      at.codes,
      bpl,
      L,
      at.offs,
      at.F,
      K,
      at.listed + 4 * j0,
      j1 - j0,
      at.stepT + 8 * K * j0,
      at.listSteps + 8 * K * j0,
      t,
      at.gainT + 8 * j0,
      at.ratioT + 8 * j0,
    ]);
    return Float64Array.from({ length: n }, (_, j) => gainT[j]! + detLog(ratioT[j]!));
  };
  /** F's solves of a block (locusSolver's solveBlock), a share of the block's loci on each thread of the team. */
  const solveBlock: WasmPasses['solveBlock'] = (out, l0, l1, rowBase, rows) => {
    if (!team || !solver) return solve.solveBlock(out, l0, l1, rowBase, rows);
    const scratch = align16(solveScratchBytes(K, 2));
    inShares(F_SOLVE_BLOCK, [l0, l1], { least: SHARE_LOCI }, (a, b, t) => [
      K,
      2,
      a,
      b,
      at.offs,
      rowBase,
      at.F,
      at.fGradient,
      at.fHessian,
      at.solve + t * scratch,
      at.fStatus + (a - l0),
      at.fSteps,
    ]);
    out.set(new Float64Array(buffer, at.F + rowBase * K * 8, rows * K), rowBase * K);
    let left = 0;
    for (let j = 0; j < l1 - l0; j++) if (solve.blockStatus[j]! >= BlockSolve.Check) left++;
    return left;
  };
  return {
    K,
    ...solve,
    solveBlock,
    close: () => team?.close(),
    qStep(p) {
      if (!solver) return undefined;
      Q.set(p.Q);
      setQ(p.Q);
      F.set(p.F);
      qDerivatives();
      pending.set(p.pending);
      const qScratch = align16(qSolveScratchBytes(K));
      inShares(Q_SOLVE, [0, N], { least: SHARE_SOLVES }, (i0, i1, t) => [
        i1 - i0,
        K,
        at.Q + 8 * K * i0,
        at.gradient + 8 * K * i0,
        at.hessian + 8 * T * i0,
        at.step + 8 * K * i0,
        at.pending + i0,
        at.qSolve + t * qScratch,
      ]);
      // The solves leave pending 1 where a step is to be checked.
      let checks = 0;
      for (let i = 0; i < N; i++) checks += pending[i]!;
      p.Q.set(Q);
      p.step.set(step);
      p.pending.set(pending);
      return checks;
    },
    em(p) {
      setQ(p.Q);
      F.set(p.F);
      sumsT.fill(0, 0, K * Np);
      Fn.set(p.Fn);
      state[0] = 0;
      state[1] = 1;
      em(...args([at.sumsT, at.Fn, at.state, at.asides]));
      for (let i = 0; i < N; i++) for (let k = 0; k < K; k++) p.Qn[i * K + k]! += sumsT[k * Np + i]!;
      p.Fn.set(Fn);
      return state[0]! + detLog(state[1]!);
    },
    derivatives(p) {
      setQ(p.Q);
      F.set(p.F);
      qDerivatives();
      for (let j = 0; j < N * K; j++) p.gradient[j]! += gradient[j]!;
      for (let j = 0; j < N * T; j++) p.hessian[j]! += hessian[j]!;
    },
    gains(p) {
      setQ(p.Q);
      F.set(p.F);
      stepT.fill(0);
      for (let i = 0; i < N; i++) {
        if (p.pending[i] === 0) continue;
        for (let k = 0; k < K; k++) stepT[k * Np + i] = p.step[i * K + k]!;
      }
      gainT.fill(0);
      gainT.set(p.gain);
      ratioT.fill(1);
      ratioT.set(p.ratio);
      byIndividuals(GAINS, [at.stepT, at.gainT, at.ratioT]);
      for (let i = 0; i < N; i++) {
        if (p.pending[i] === 0) continue;
        p.gain[i] = gainT[i]!;
        p.ratio[i] = ratioT[i]!;
      }
    },
    individualGains,
    beginFStep(p) {
      setQ(p.Q);
    },
    ...fStepMembers({
      K,
      blockRows,
      trialRows,
      solves: solve.solves,
      F,
      fGradient,
      fHessian,
      lociLL,
      trial,
      atF: at.F,
      atTrial: at.trial,
      setQ,
      derive: (l0, l1, rowBase) =>
        byLoci(FDERIVATIVES, (aside) => [at.fGradient, at.fHessian, rowBase, at.lociLL, aside], l0, l1),
      psi: (l0, l1, atF) => byLoci(FLOGLIK, (aside) => [at.lociLL, aside], l0, l1, atF),
    }),
  };
}

/**
 * Whether the admixture model's passes over `md` are the two-allele ones (K aside): diploid, at most
 * two alleles a locus, every genotype with both copies or none. Such data never need every locus's
 * codes at once (everyLocus).
 */
export function twoAlleleData(md: PreparedData): boolean {
  if (md.P !== 2) return false;
  for (let l = 0; l < md.L; l++) if (md.alleles[l]! > 2) return false;
  const alleles = md.genotypeAlleles;
  for (let g = 0; g < alleles.length; g += 2) if (alleles[g]! < 0 !== alleles[g + 1]! < 0) return false;
  return true;
}

/** The largest K the kernels are written for (scripts/kernels/wasm-two-allele-passes.mjs's MAX_K). */
export const MAX_K = 10;

/** The two-bit codes: two copies of a locus's first allele, missing, one of each, two of the second. */
const FIRST_TWICE = 0;
const MISSING = 1;
const ONE_EACH = 2;
const SECOND_TWICE = 3;

/**
 * The genotypes as two-bit codes, locus-major, ⌈N/4⌉ bytes a locus (individual i in bits 2(i mod 4)
 * of byte ⌊i/4⌋; padding individuals missing), held-out entries missing; undefined unless every
 * locus has at most two alleles and every observed genotype two copies.
 */
export function packedCodes(a: Omit<PassData, 'Q'>): Uint8Array | undefined {
  const { N, L, genotypeOffsets, heldOut, start, row, count, offsets, locusCodes } = a;
  if (!offsets) return undefined;
  const bpl = Math.ceil(N / 4);
  // Per genotype (all loci): its code.
  const G = genotypeOffsets[L]!;
  const codeOf = new Uint8Array(G);
  for (let l = 0; l < L; l++) {
    const first = offsets[l]!;
    if (offsets[l + 1]! - first > 2) return undefined;
    for (let g = genotypeOffsets[l]!; g < genotypeOffsets[l + 1]!; g++) {
      let ca = 0;
      let cb = 0;
      for (let j = start[g]!; j < start[g + 1]!; j++) {
        if (row[j] === first) ca += count[j]!;
        else cb += count[j]!;
      }
      if (ca + cb === 0) codeOf[g] = MISSING;
      else if (ca + cb !== 2) return undefined;
      else codeOf[g] = ca === 2 ? FIRST_TWICE : ca === 1 ? ONE_EACH : SECOND_TWICE;
    }
  }
  const codes = new Uint8Array(L * bpl);
  if (a.prepared && !heldOut) {
    packGroups(a.prepared, codeOf, codes);
    return codes;
  }
  // A locus at a time where the data can (never every locus's codes at once), else from genotypeOf.
  const scratch = new Int32Array(N);
  const genotypeOf = locusCodes ? undefined : a.genotypeOf;
  for (let l = 0; l < L; l++) {
    const gOff = genotypeOffsets[l]!;
    const base = l * bpl;
    const locus = locusCodes ? locusCodes(l, scratch) : genotypeOf!.subarray(l * N, (l + 1) * N);
    const code = (i: number) =>
      i >= N || (heldOut !== undefined && heldOut[i * L + l] === 1) ? MISSING : codeOf[gOff + locus[i]!]!;
    // Whole bytes of four individuals, then the last (padding individuals are missing).
    const whole = heldOut === undefined ? N >> 2 : 0;
    for (let j = 0; j < whole; j++) {
      const i = 4 * j;
      codes[base + j] =
        codeOf[gOff + locus[i]!]! |
        (codeOf[gOff + locus[i + 1]!]! << 2) |
        (codeOf[gOff + locus[i + 2]!]! << 4) |
        (codeOf[gOff + locus[i + 3]!]! << 6);
    }
    for (let i = 4 * whole; i < 4 * bpl; i++) codes[base + (i >> 2)]! |= code(i) << (2 * (i & 3));
  }
  return codes;
}

/**
 * packedCodes without held-out entries, from the prepared data's stored rows: per locus a table from
 * the row's values (a locus's genotype, or its group's combined genotype) to the two-bit code, then
 * four individuals a byte through it — no locus decoded into a row of genotypes first.
 */
function packGroups(md: PreparedData, codeOf: Uint8Array, codes: Uint8Array): void {
  const { N, groups, genotypeOffsets } = md;
  const bpl = Math.ceil(N / 4);
  const whole = N >> 2;
  const lut = new Uint8Array(Math.max(groups.maxCombined, 256));
  for (let q = 0; q + 1 < groups.first.length; q++) {
    const l0 = groups.first[q]!;
    const l1 = groups.first[q + 1]!;
    const byLocus = readByLocus(md, q);
    const size = byLocus ? 0 : groups.size[q]!;
    let stride = size;
    for (let l = l0; l < l1; l++) {
      const gOff = genotypeOffsets[l]!;
      const G = genotypeOffsets[l + 1]! - gOff;
      let row: ArrayLike<number>;
      if (byLocus) {
        row = md.locusCodes.subarray(l * N, (l + 1) * N);
        for (let g = 0; g < G; g++) lut[g] = codeOf[gOff + g]!;
      } else {
        // The combined code c holds locus l's genotype as digit ⌊c / stride⌋ mod G (the group's
        // first locus the most significant).
        stride /= G;
        row = groups.codes.subarray(groups.row[q]! * N, (groups.row[q]! + 1) * N);
        for (let c = 0; c < size; c++) lut[c] = codeOf[gOff + (Math.floor(c / stride) % G)]!;
      }
      const base = l * bpl;
      for (let j = 0; j < whole; j++) {
        const i = 4 * j;
        codes[base + j] =
          lut[row[i]!]! | (lut[row[i + 1]!]! << 2) | (lut[row[i + 2]!]! << 4) | (lut[row[i + 3]!]! << 6);
      }
      // The last byte: its padding individuals missing.
      if (whole < bpl) {
        let b = 0;
        for (let i = 4 * whole; i < 4 * bpl; i++) b |= (i < N ? lut[row[i]!]! : MISSING) << (2 * (i & 3));
        codes[base + whole] = b;
      }
    }
  }
}

/**
 * The kernels' table: per nibble (two individuals, the low one in lane 0) 128 bytes — copies of the
 * first allele, of the second (f64x2 each), then lane masks choosing each individual's two
 * likelihood factors: the first is d (first allele's) where the mask at 32 is set, else e where the
 * mask at 48 is, else 1; the second likewise with the masks at 64 and 80.
 */
function writeTable(view: DataView): void {
  const first = [2, 0, 1, 0];
  const second = [0, 0, 1, 2];
  // Per code: the masks (x is d, x is e, y is d, y is e).
  const masks = [
    [1, 0, 1, 0],
    [0, 0, 0, 0],
    [1, 0, 0, 1],
    [0, 1, 0, 1],
  ];
  for (let nib = 0; nib < 16; nib++) {
    const base = nib * 128;
    for (let lane = 0; lane < 2; lane++) {
      const c = (nib >> (2 * lane)) & 3;
      view.setFloat64(base + lane * 8, first[c]!, true);
      view.setFloat64(base + 16 + lane * 8, second[c]!, true);
      for (let m = 0; m < 4; m++) {
        const bits = masks[c]![m] ? 0xffffffff : 0;
        view.setUint32(base + 32 + 16 * m + lane * 8, bits, true);
        view.setUint32(base + 32 + 16 * m + lane * 8 + 4, bits, true);
      }
    }
  }
}

const compiled = new Map<boolean, WebAssembly.Module | null>();

/** The module (compiled once per thread), importing a shared memory or not. */
function passModule(shared: boolean): WebAssembly.Module | null {
  let module = compiled.get(shared);
  if (module === undefined) compiled.set(shared, (module = compileBase64(TWO_ALLELE_PASSES_WASM, shared)));
  return module;
}

/** The fewest loci of a share of a pass by loci (a step's check of one locus runs on one thread). */
const SHARE_LOCI = 32;
/** The fewest bytes of codes (4 individuals each) of a share of a pass by individuals, and their multiple. */
const SHARE_BYTES = 16;
const SHARE_ALIGN = 8;
/** The fewest individuals of a share of a step check's list. */
const SHARE_LISTED = 8;
/** The fewest individuals of a share of Q's solves. */
const SHARE_SOLVES = 64;

/** `bytes` rounded up to a multiple of 16 (each thread's scratch aligned). */
const align16 = (bytes: number) => Math.ceil(bytes / 16) * 16;

/** [a, b) cut into `n` ranges as even as multiples of `align` allow (the last takes the rest). */
export function cuts(a: number, b: number, n: number, align: number): [number, number][] {
  const out: [number, number][] = [];
  let from = a;
  for (let t = 1; t < n; t++) {
    const to = Math.max(from, a + Math.round(((b - a) * t) / n / align) * align);
    out.push([from, Math.min(to, b)]);
    from = Math.min(to, b);
  }
  out.push([from, b]);
  return out;
}
