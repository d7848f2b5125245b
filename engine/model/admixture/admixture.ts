import { locusRow, readByLocus, type PreparedData } from '../prepared/prepared-data.ts';
import { detLog } from '../../util/det-math.ts';
import { emPass, type PassArguments } from './em-pass.ts';
import { wasmPassesOf } from './wasm-passes.ts';
import { passArguments, passData } from './pass-data.ts';
import { maStep, type Priors } from '../mixture/ma-step.ts';
import type { Acceleration, FUpdate, QUpdate } from '../../util/choices.ts';

/**
 * The admixture model (the likelihood of STRUCTURE's admixture model without priors, as
 * ADMIXTURE maximises it; docs/algorithms.md §14): copy c of individual i at locus l has ancestry
 * z ~ Cat(q_i) and allele a ~ Cat(f_{z,l}). With d_ila = Σ_k q_ik f_kla,
 *
 *   ln L = Σ over observed copies of ln d_ila      (no constants; missing copies skipped)
 *
 * Parameters: Q, shape (N, K), rows on the simplex; F, shape (Σ_l r_l, K) in the mixture
 * model's layout (row offsets[l] + a, column k), each (l, k) column block on the simplex.
 */
export interface AdmixtureParams {
  readonly K: number;
  readonly Q: Float64Array;
  readonly F: Float64Array;
}

/** The value an extrapolated parameter at or below zero is given (keeps ln d finite). */
export const PARAMETER_FLOOR = 1e-9;

/** Scratch and constants for EM passes over one dataset (sized to the data, reused across passes). */
export interface AdmixtureWork {
  /** Observed copies per individual (the q update's denominator). */
  readonly copies: Float64Array;
  /**
   * The distinct genotypes of every locus as runs of (F row, copy count): genotype g (an index
   * into buildPreparedData's genotype table, locus offset included) owns entries start[g] ..
   * start[g + 1] − 1; `row` is the allele's row in F, offsets[l] + a, and `count`
   * how many copies of that allele the genotype holds (2 for a diploid homozygote). Missing
   * copies have no entry. A pass reads one entry per distinct allele of an individual's genotype.
   */
  readonly start: Int32Array;
  readonly row: Int32Array;
  readonly count: Float64Array;
  /**
   * Per (individual, locus), shape (N, L) individual-major: 1 when the entry is held out (cross-
   * validation); absent: every entry is used.
   */
  readonly heldOut?: Uint8Array;
  /** Rows of Q that stay fixed (supervised mode), or absent. */
  readonly fixed?: Uint8Array;
  /**
   * false: the JavaScript passes, not the WebAssembly ones (wasm-passes.ts; the same bits); 'general':
   * the general WebAssembly passes also on two-allele data (two-allele-passes.ts). For tests and benchmarks.
   */
  readonly wasm?: boolean | 'general';
}

/** The work description of a dataset, optionally with held-out entries and fixed rows of Q. */
export function admixtureWork(md: PreparedData, heldOut?: Uint8Array, fixed?: Uint8Array): AdmixtureWork {
  const { N, L, P } = md;
  const G = md.genotypeOffsets[L]!;
  const start = new Int32Array(G + 1);
  const row = new Int32Array(G * P);
  const count = new Float64Array(G * P);
  let e = 0;
  for (let l = 0; l < L; l++) {
    const off = md.offsets[l]!;
    for (let g = md.genotypeOffsets[l]!; g < md.genotypeOffsets[l + 1]!; g++) {
      start[g] = e;
      for (let p = 0; p < P; p++) {
        const a = md.genotypeAlleles[g * P + p]!;
        if (a < 0) continue;
        if (e > start[g]! && row[e - 1] === off + a) count[e - 1]!++;
        else {
          row[e] = off + a;
          count[e++] = 1;
        }
      }
    }
  }
  start[G] = e;
  // Observed copies per genotype, then per individual (a lookup per individual and locus).
  const genotypeCopies = new Float64Array(G);
  for (let g = 0; g < G; g++) for (let j = start[g]!; j < start[g + 1]!; j++) genotypeCopies[g]! += count[j]!;
  const copies = new Float64Array(N);
  const scratch = new Int32Array(N);
  const { groups } = md;
  for (let q = 0; q + 1 < groups.first.length; q++) {
    const l0 = groups.first[q]!;
    const l1 = groups.first[q + 1]!;
    if (heldOut || readByLocus(md, q)) {
      for (let l = l0; l < l1; l++) {
        const gOff = md.genotypeOffsets[l]!;
        const codes = locusRow(md, l, scratch);
        if (heldOut) {
          for (let i = 0; i < N; i++) if (!heldOut[i * L + l]) copies[i]! += genotypeCopies[gOff + codes[i]!]!;
        } else for (let i = 0; i < N; i++) copies[i]! += genotypeCopies[gOff + codes[i]!]!;
      }
      continue;
    }
    // A group of several loci stored combined only: the copies of each combined code over its loci
    // (whole numbers, so the sum's order does not matter), then one lookup per individual.
    const table = new Float64Array(groups.size[q]!);
    let stride = 1;
    for (let l = l1 - 1; l >= l0; l--) {
      const gOff = md.genotypeOffsets[l]!;
      const G = md.genotypeOffsets[l + 1]! - gOff;
      for (let c = 0; c < table.length; c++) table[c]! += genotypeCopies[gOff + (Math.floor(c / stride) % G)]!;
      stride *= G;
    }
    const codes = groups.codes.subarray(groups.row[q]! * N, (groups.row[q]! + 1) * N);
    for (let i = 0; i < N; i++) copies[i]! += table[codes[i]!]!;
  }
  return {
    copies,
    start,
    row: row.slice(0, e),
    count: count.slice(0, e),
    ...(heldOut ? { heldOut } : {}),
    ...(fixed ? { fixed } : {}),
  };
}

/**
 * EMA's marker averaging applied to F (`--marker-averaging`): the F update is the MA step of the
 * selective naive Bayes EMA (ma-step.ts) on the expected allele counts: per locus the posterior
 * w_l that the locus's frequencies differ between clusters (Dirichlet(α) marginal likelihoods of
 * cluster-specific against pooled counts, with the learned structure prior), and
 * f_kla = w_l θ̃_kla + (1 − w_l) θ̃_·la with posterior-mean frequencies θ̃ = (α + n)/(rα + n).
 */
export interface MarkerAveraging {
  readonly priors: Priors;
  /** shape (L,): w_l of the previous pass in, this pass's out. */
  readonly informative: Float64Array;
  /** Scratch: shape (Σ r_l, K) and (K,). */
  readonly counts: Float64Array;
  readonly weights: Float64Array;
}

export function markerAveraging(md: PreparedData, K: number, priors: Priors): MarkerAveraging {
  return {
    priors,
    informative: new Float64Array(md.L).fill(1),
    counts: new Float64Array(md.totalAlleles * K),
    weights: new Float64Array(K),
  };
}

/**
 * One EM step (Tang et al. 2005): with w_ilak = q_ik f_kla / d_ila, the posterior of ancestry k
 * for an observed copy of allele a, q_ik ← Σ_{l,copies} w / (copies of i) and
 * f_kla ← Σ_{i,copies of a} w / Σ_{a'} (same). Writes the update into `out` and returns ln L of
 * `cur` (computed in the same pass). Locus by locus, so that the locus's rows of F and of the
 * update stay in cache; equal copies of a genotype (homozygotes) are handled once with their count.
 * With `averaging`, F is updated by marker averaging instead (not an EM step for ln L).
 */
export function emStep(
  md: PreparedData,
  work: AdmixtureWork,
  cur: AdmixtureParams,
  out: AdmixtureParams,
  averaging?: MarkerAveraging,
): number {
  const { N, L } = md;
  const K = cur.K;
  const { Q, F } = cur;
  const Qn = out.Q;
  const Fn = out.F;
  Fn.fill(0);
  Qn.fill(0);
  const { copies, fixed } = work;
  // ln L as a sum of logs of running products (each d ≤ 1), one logarithm per few hundred copies
  // instead of one per copy. The product is flushed below 1e-250 after every copy, so a copy with
  // d ≥ 1e-58 cannot underflow it; a smaller d (possible only for an extrapolated point, now that
  // small positive values are kept) can make ln L −∞, and the accelerator then rejects that point.
  const args: PassArguments = passArguments(passData(md, work, K, Q, F), { Qn, Fn, terms: new Float64Array(K) });
  const wasm = work.wasm === false ? undefined : wasmPassesOf(work, args);
  const ll = wasm ? wasm.em(args) : emPass(args);
  for (let i = 0; i < N; i++) {
    const n = copies[i]!;
    const keep = n === 0 || (fixed !== undefined && fixed[i] === 1);
    for (let k = 0; k < K; k++) Qn[i * K + k] = keep ? Q[i * K + k]! : Qn[i * K + k]! / n;
  }
  if (averaging) {
    averaging.counts.set(Fn);
    const counts = { alleleCluster: averaging.counts, cluster: new Float64Array(K) };
    maStep(md, counts, K, averaging.priors, 'ema', { K, weights: averaging.weights, theta: Fn }, averaging.informative);
    return ll;
  }
  for (let l = 0; l < L; l++) {
    const off = md.offsets[l]!;
    const r = md.alleles[l]!;
    for (let k = 0; k < K; k++) {
      let s = 0;
      for (let a = 0; a < r; a++) s += Fn[(off + a) * K + k]!;
      if (s > 0) for (let a = 0; a < r; a++) Fn[(off + a) * K + k]! /= s;
      else for (let a = 0; a < r; a++) Fn[(off + a) * K + k] = F[(off + a) * K + k]!;
    }
  }
  return ll;
}

/** ln L of the parameters (one pass without an update). */
export function admixtureLogLik(md: PreparedData, work: AdmixtureWork, params: AdmixtureParams): number {
  const { N, L, P } = md;
  const K = params.K;
  const { Q, F } = params;
  const scratch = new Int32Array(N);
  let ll = 0;
  for (let l = 0; l < L; l++) {
    const off = md.offsets[l]!;
    const gOff = md.genotypeOffsets[l]!;
    const codes = locusRow(md, l, scratch);
    for (let i = 0; i < N; i++) {
      if (work.heldOut && work.heldOut[i * L + l]) continue;
      const row = (gOff + codes[i]!) * P;
      for (let p = 0; p < P; p++) {
        const a = md.genotypeAlleles[row + p]!;
        if (a < 0) continue;
        const fr = (off + a) * K;
        let d = 0;
        for (let k = 0; k < K; k++) d += Q[i * K + k]! * F[fr + k]!;
        ll += detLog(d);
      }
    }
  }
  return ll;
}

/**
 * Brings extrapolated parameters back into the simplex: a value above one becomes one, and every
 * block is rescaled to sum to one. A value at or below PARAMETER_FLOOR becomes `fallback`'s value
 * (SQUAREM's plain step θ2; Anderson acceleration passes none, docs/algorithms.md §14) when that
 * is larger: an extrapolation
 * that sends a frequency to ~0 (1e-34 was seen) while its maximum is positive would leave it where
 * EM's multiplicative update needs thousands of steps to lift it, each gaining too little ln L to
 * pass the stopping rule (the fit stalls). Without a fallback, or where it is smaller, small positive values
 * are kept (EM drives the frequencies of alleles absent from a cluster towards zero, and lifting
 * them to a floor would lower ln L) and values at or below zero become PARAMETER_FLOOR.
 */
export function projectToSimplex(
  md: PreparedData,
  params: AdmixtureParams,
  fixed?: Uint8Array,
  fallback?: AdmixtureParams,
): void {
  const { K, Q, F } = params;
  const bound = (x: number, j: number, fb: Float64Array | undefined): number => {
    if (x > PARAMETER_FLOOR) return Math.min(1, x);
    const v = Math.max(x > 0 ? x : 0, fb ? fb[j]! : 0);
    return v > 0 ? v : PARAMETER_FLOOR;
  };
  for (let i = 0; i < md.N; i++) {
    if (fixed && fixed[i]) continue;
    let s = 0;
    for (let k = 0; k < K; k++) {
      const v = bound(Q[i * K + k]!, i * K + k, fallback?.Q);
      Q[i * K + k] = v;
      s += v;
    }
    for (let k = 0; k < K; k++) Q[i * K + k]! /= s;
  }
  for (let l = 0; l < md.L; l++) {
    const off = md.offsets[l]!;
    const r = md.alleles[l]!;
    for (let k = 0; k < K; k++) {
      let s = 0;
      for (let a = 0; a < r; a++) {
        const j = (off + a) * K + k;
        const v = bound(F[j]!, j, fallback?.F);
        F[j] = v;
        s += v;
      }
      for (let a = 0; a < r; a++) F[(off + a) * K + k]! /= s;
    }
  }
}

export function cloneParams(p: AdmixtureParams): AdmixtureParams {
  return { K: p.K, Q: Float64Array.from(p.Q), F: Float64Array.from(p.F) };
}

export function emptyParams(md: PreparedData, K: number): AdmixtureParams {
  return { K, Q: new Float64Array(md.N * K), F: new Float64Array(md.totalAlleles * K) };
}

export interface AdmixtureFitOptions {
  /** Stop when ln L of successive accepted parameters changes by less than this (ADMIXTURE: 1e-4). */
  readonly tolerance: number;
  /** Cap on accepted steps (each is one EM step, or one SQUAREM cycle of three). */
  readonly maxIterations: number;
  readonly acceleration: Acceleration;
  readonly qUpdate: QUpdate;
  readonly fUpdate: FUpdate;
  /**
   * EMA's marker averaging for F (`--marker-averaging`, docs/admixture.md): after the maximum-
   * likelihood fit has converged, F is updated by the MA step under these priors (plain passes,
   * same stopping rule, same cap on steps). Started from random parameters it would judge every
   * locus uninformative before clusters form (the drift of docs/algorithms.md §3).
   */
  readonly averaging?: Priors;
}

export interface AdmixtureStepInfo {
  readonly iteration: number;
  /** ln L of the parameters accepted at this step; never below the previous step's. */
  readonly logLik: number;
  readonly change: number;
  /** The loci this step's ln L is over: the subset stage's (absent: every locus). */
  readonly loci?: number;
}

export interface AdmixtureFitResult {
  readonly params: AdmixtureParams;
  readonly logLik: number;
  /** Accepted steps. */
  readonly iterations: number;
  /** Steps over the data (three per SQUAREM cycle; each an EM pass, and with Newton's Q update two more passes). */
  readonly emSteps: number;
  readonly converged: boolean;
  /** With marker averaging: per locus, the posterior that its frequencies differ between clusters. */
  readonly informative?: Float64Array;
}
