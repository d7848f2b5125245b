import { eStep, eStepBuffers, type EStepBuffers } from './e-step.ts';
import { fit, fitScratch, type FitScratch } from './fit.ts';
import { type FitOptions } from '../fit-options.ts';
import { individualSubset, type PreparedData } from '../prepared/prepared-data.ts';
import type { MixtureModel } from './mixture-model.ts';
import type { StartAlgorithm } from '../../util/choices.ts';
import { blockDeletion } from './block-deletion.ts';
import type { LocusBlocks } from '../prepared/genome-windows.ts';

/** Folds of the held-out log-likelihood that `--algorithm auto` chooses by. */
export const HELD_OUT_FOLDS = 5;

/** A fitted clustering to cross-validate, with the algorithm that refits it. */
export interface HeldOutCandidate {
  readonly model: MixtureModel;
  readonly algorithm: StartAlgorithm;
}

/**
 * The cross-validated log-likelihood of fitted clusterings (docs/algorithms.md §4): the
 * individuals are split into `folds` folds (individual d in fold d mod folds); for each fold each
 * candidate's algorithm is run again on the other individuals, starting from its model (so the
 * refit stays on the same clusters), and the held-out individuals are scored by
 * ln p(x_d) = ln Σ_c θ_C(c) Π θ_ic(x_di). Returns, per candidate, the sum over every individual
 * (NaN with fewer individuals than folds); the candidates share the folds. A model that calls
 * noise markers informative predicts new individuals worse; one that discards markers carrying
 * structure does too. `perIndividual[c]`, when given (length N), receives each individual's
 * held-out ln p(x_d) under candidate c. `deleted.perBlock[c]`, when given (length
 * `deleted.blocks.count`), receives for each block b the held-out total without b's loci (the
 * same refits; a delete-one-block jackknife over markers, block-deletion.ts). `enough(f)`, when
 * given, is asked after each fold but the last with the folds scored so far (individuals d with
 * d mod folds < f): true ends the comparison there (`scored` then counts those folds).
 */
export function heldOutLogLiks(
  md: PreparedData,
  candidates: readonly HeldOutCandidate[],
  opts: FitOptions,
  folds = HELD_OUT_FOLDS,
  perIndividual?: readonly Float64Array[],
  deleted?: { readonly blocks: LocusBlocks; readonly perBlock: readonly Float64Array[] },
  enough?: (scored: number) => boolean,
): { totals: number[]; scored: number } {
  if (md.N < folds) return { totals: candidates.map(() => NaN), scored: 0 };
  const totals = candidates.map(() => 0);
  // The refits leave the fold out of the whole data (no copy of the others' codes, fit.ts), one
  // after another in the same arrays; the fold's own individuals, a fifth, are taken out to be
  // scored, with one set of scoring buffers per K for every candidate.
  const leftOut = new Uint8Array(md.N);
  const refits = new Map<number, FitScratch>();
  for (let f = 0; f < folds; f++) {
    if (f > 0 && enough?.(f)) return { totals, scored: f };
    const test: number[] = [];
    for (let d = 0; d < md.N; d++) {
      leftOut[d] = d % folds === f ? 1 : 0;
      if (leftOut[d]) test.push(d);
    }
    const held = individualSubset(md, test);
    const scoring = new Map<number, { buffers: EStepBuffers; without?: ReturnType<typeof blockDeletion> }>();
    const rows = perIndividual ? new Float64Array(test.length) : undefined;
    candidates.forEach(({ model, algorithm }, c) => {
      const K = model.K;
      const scratch = kept(refits, K, () => fitScratch(md, K));
      const refit = fit(md, model, { ...opts, algorithm, warmup: 0 }, leftOut, scratch);
      const at = kept(scoring, K, () => ({
        buffers: eStepBuffers(held, K, { resident: false }),
        ...(deleted ? { without: blockDeletion(held, K, deleted.blocks) } : {}),
      }));
      totals[c]! += eStep(held, refit.model, at.buffers, rows);
      at.without?.(refit.model, deleted!.perBlock[c]!);
      if (rows) test.forEach((d, j) => (perIndividual![c]![d] = rows[j]!));
    });
  }
  return { totals, scored: folds };
}

/** The value `m` keeps under K, made by `make` the first time it is asked for. */
function kept<V>(m: Map<number, V>, K: number, make: () => V): V {
  let v = m.get(K);
  if (v === undefined) m.set(K, (v = make()));
  return v;
}
