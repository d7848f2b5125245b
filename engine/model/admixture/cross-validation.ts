import { createRng } from '../../util/rng.ts';
import { locusRow, type PreparedData } from '../prepared/prepared-data.ts';
import { admixtureWork, cloneParams, projectToSimplex, type AdmixtureParams } from './admixture.ts';
import { admixtureFitSteps, type AdmixtureFitOptions, type AdmixtureStepInfo } from './admixture-fit.ts';
import { runToEnd } from '../mixture/fit.ts';
import { detLog } from '../../util/det-math.ts';

/**
 * Deviance of held-out genotype entries under fitted parameters (Alexander & Lange 2011): for an
 * entry with n observed copies, x_a of them allele a, and predicted frequencies
 * p_a = Σ_k q_ik f_kla, Σ_a x_a ln(x_a / (n p_a)) — for a diploid SNP, ADMIXTURE's
 * n ln(n/μ) + (2 − n) ln((2 − n)/(2 − μ)) with μ = 2p. Returns the sum and the number of entries.
 */
export function heldOutDeviance(
  md: PreparedData,
  heldOut: Uint8Array,
  params: AdmixtureParams,
): { sum: number; entries: number } {
  const { N, L, P } = md;
  const K = params.K;
  const scratch = new Int32Array(N);
  let sum = 0;
  let entries = 0;
  for (let l = 0; l < L; l++) {
    const off = md.offsets[l]!;
    const gOff = md.genotypeOffsets[l]!;
    const codes = locusRow(md, l, scratch);
    for (let i = 0; i < N; i++) {
      if (heldOut[i * L + l] !== 1) continue;
      const row = (gOff + codes[i]!) * P;
      let n = 0;
      for (let p = 0; p < P; p++) if (md.genotypeAlleles[row + p]! >= 0) n++;
      if (n === 0) continue;
      entries++;
      for (let p = 0; p < P; p++) {
        const a = md.genotypeAlleles[row + p]!;
        if (a < 0) continue;
        let x = 1;
        while (p + 1 < P && md.genotypeAlleles[row + p + 1] === a) {
          x++;
          p++;
        }
        let pa = 0;
        for (let k = 0; k < K; k++) pa += params.Q[i * K + k]! * params.F[(off + a) * K + k]!;
        sum += x * detLog(x / (n * pa));
      }
    }
  }
  return { sum, entries };
}

/**
 * The observed (individual, locus) entries, as i·L + l, in the seeded random order the folds take
 * them from: fold f holds positions f, f + folds, f + 2·folds, …
 */
export function cvEntryOrder(md: PreparedData, seed: number): Uint32Array {
  const { N, L, P } = md;
  // Which genotypes have an observed copy, then the entries counted and written into a typed array
  // (4 bytes each, not a growing list of numbers: 2,000 × 100,000 SNPs have 2·10⁸ entries).
  const observed = new Uint8Array(md.genotypeOffsets[L]!);
  for (let g = 0; g < observed.length; g++)
    for (let p = 0; p < P; p++) if (md.genotypeAlleles[g * P + p]! >= 0) observed[g] = 1;
  const scratch = new Int32Array(N);
  let count = 0;
  for (let l = 0; l < L; l++) {
    const gOff = md.genotypeOffsets[l]!;
    const codes = locusRow(md, l, scratch);
    for (let i = 0; i < N; i++) count += observed[gOff + codes[i]!]!;
  }
  const entries = new Uint32Array(count);
  let e = 0;
  for (let l = 0; l < L; l++) {
    const gOff = md.genotypeOffsets[l]!;
    const codes = locusRow(md, l, scratch);
    for (let i = 0; i < N; i++) if (observed[gOff + codes[i]!]) entries[e++] = i * L + l;
  }
  const rng = createRng(seed);
  for (let j = entries.length - 1; j > 0; j--) {
    const k = Math.floor(rng.uniform() * (j + 1));
    const x = entries[j]!;
    entries[j] = entries[k]!;
    entries[k] = x;
  }
  return entries;
}

/** One fold of one K's cross-validation, as a task for a worker. */
export interface CvFoldTask {
  readonly K: number;
  /** The full-data estimate the refit starts from. */
  readonly Q: Float64Array;
  readonly F: Float64Array;
  readonly folds: number;
  readonly fold: number;
  /** Seed of the entries' order ({@link cvEntryOrder}). */
  readonly seed: number;
}

/** What one fold of the cross-validation contributes: its held-out deviance and entries. */
export interface CvFold {
  readonly sum: number;
  readonly entries: number;
}

/**
 * One fold of ADMIXTURE's cross-validation: the model refitted from the full-data estimate with
 * the fold's entries held out, then those entries predicted (as a generator of the refit's steps,
 * so a worker can report progress and stop it).
 */
export function* cvFoldSteps(
  md: PreparedData,
  full: AdmixtureParams,
  folds: number,
  fold: number,
  order: Uint32Array,
  o: AdmixtureFitOptions,
): Generator<AdmixtureStepInfo, CvFold> {
  const heldOut = new Uint8Array(md.N * md.L);
  for (let j = fold; j < order.length; j += folds) heldOut[order[j]!] = 1;
  const r = yield* admixtureFitSteps(md, admixtureWork(md, heldOut), cloneParams(full), o);
  // Predictions use parameters bounded to [1e-5, 1 − 1e-5] (fastmixture clips its estimates so;
  // without it a maximum-likelihood frequency of zero for an allele that the fold's training entries
  // lack in one cluster would otherwise make one held-out copy cost unbounded deviance, and the
  // error would measure those few copies rather than the fit.
  boundParams(md, r.params, PREDICTION_BOUND);
  return heldOutDeviance(md, heldOut, r.params);
}

/** The CV error from the folds' contributions (in fold order): the mean deviance per held-out entry. */
export function cvErrorOf(perFold: readonly CvFold[]): { error: number; perFold: number[] } {
  let sum = 0;
  let count = 0;
  for (const d of perFold) {
    sum += d.sum;
    count += d.entries;
  }
  return {
    error: count > 0 ? sum / count : NaN,
    perFold: perFold.map((d) => (d.entries > 0 ? d.sum / d.entries : NaN)),
  };
}

/**
 * ADMIXTURE's cross-validation error: the observed (individual, locus) entries are split at random
 * (seeded) into `folds` folds; for each fold the model is refitted from the full-data estimate with
 * the fold held out, and the held-out entries are predicted. The error is the mean deviance per
 * held-out entry over all folds; the K with the lowest error is ADMIXTURE's suggestion. (The folds
 * of a sweep run on its workers: service/cross-validate.ts.)
 */
export function admixtureCvError(
  md: PreparedData,
  full: AdmixtureParams,
  folds: number,
  seed: number,
  o: AdmixtureFitOptions,
): { error: number; perFold: number[] } {
  const order = cvEntryOrder(md, seed);
  const perFold: CvFold[] = [];
  for (let f = 0; f < folds; f++) perFold.push(runToEnd(cvFoldSteps(md, full, folds, f, order, o)));
  return cvErrorOf(perFold);
}

/** Smallest (and 1 − largest) parameter value a cross-validation prediction uses. */
export const PREDICTION_BOUND = 1e-5;

/** Clamps every parameter to [bound, 1 − bound] and rescales each simplex block to sum to one. */
export function boundParams(md: PreparedData, params: AdmixtureParams, bound: number): void {
  const { Q, F } = params;
  const clamp = (x: number) => Math.min(1 - bound, Math.max(bound, x));
  for (let j = 0; j < Q.length; j++) Q[j] = clamp(Q[j]!);
  for (let j = 0; j < F.length; j++) F[j] = clamp(F[j]!);
  projectToSimplex(md, params);
}
