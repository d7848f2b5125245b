// The admixture model's subset stage: a start on many markers is first fitted on every eighth
// locus (and that fit, where it is large, on every eighth of those), then carried to all loci.
import { locusSubset, type PreparedData } from '../prepared/prepared-data.ts';
import {
  admixtureWork,
  emStep,
  emptyParams,
  projectToSimplex,
  type AdmixtureFitOptions,
  type AdmixtureParams,
  type AdmixtureStepInfo,
  type AdmixtureWork,
} from './admixture.ts';
import { admixtureFitSteps } from './admixture-fit.ts';
import { closePassesOf } from './wasm-passes.ts';

/** The subset is every SUBSET_STRIDE-th locus. */
export const SUBSET_STRIDE = 8;

/** A subset stage runs where the subset holds at least this many loci (data of 8,000 loci or more). */
export const SUBSET_MIN_LOCI = 1000;

/** The subset stage's loci for data of L loci (every SUBSET_STRIDE-th, from the first), or none. */
export function subsetLoci(L: number): number[] | undefined {
  const n = Math.ceil(L / SUBSET_STRIDE);
  return n >= SUBSET_MIN_LOCI ? Array.from({ length: n }, (_, j) => j * SUBSET_STRIDE) : undefined;
}

/** Re-yields a fit's steps marked as over `loci` loci (a nested stage's own, smaller mark is kept). */
function* onLoci<R>(steps: Generator<AdmixtureStepInfo, R>, loci: number): Generator<AdmixtureStepInfo, R> {
  let r = steps.next();
  while (!r.done) {
    yield r.value.loci === undefined ? { ...r.value, loci } : r.value;
    r = steps.next();
  }
  return r.value;
}

/**
 * A start carried through the subset stage (docs/algorithms.md §14): `init` restricted to the subset's
 * loci is fitted there (itself after its own subset stage) to the fit's tolerance, and the fitted Q
 * comes back with F = the allele frequencies of each cluster weighted by Q (EM's F update from equal
 * rows, where each copy's posterior is q). The subset's steps are yielded (their ln L is the
 * subset's). Fixed rows of Q (supervised mode) stay fixed. Data too small for a subset: `init`.
 */
export function* subsetStage(
  md: PreparedData,
  work: AdmixtureWork,
  init: AdmixtureParams,
  o: AdmixtureFitOptions,
): Generator<AdmixtureStepInfo, AdmixtureParams> {
  const loci = subsetLoci(md.L);
  if (!loci) return init;
  const { K } = init;
  const sub = locusSubset(md, loci);
  const subInit = emptyParams(sub, K);
  subInit.Q.set(init.Q);
  loci.forEach((l, j) =>
    subInit.F.set(init.F.subarray(md.offsets[l]! * K, md.offsets[l + 1]! * K), sub.offsets[j]! * K),
  );
  const subWork = admixtureWork(sub, undefined, work.fixed);
  let fitted: AdmixtureParams;
  try {
    const warmed = yield* onLoci(subsetStage(sub, subWork, subInit, o), sub.L);
    // Maximum likelihood only: marker averaging, if asked for, follows the fit on all loci.
    const ml: AdmixtureFitOptions = {
      tolerance: o.tolerance,
      maxIterations: o.maxIterations,
      acceleration: o.acceleration,
      qUpdate: o.qUpdate,
      fUpdate: o.fUpdate,
    };
    fitted = (yield* onLoci(admixtureFitSteps(sub, subWork, warmed, ml), sub.L)).params;
  } finally {
    closePassesOf(subWork);
  }
  const equal = emptyParams(md, K);
  equal.Q.set(fitted.Q);
  for (let l = 0; l < md.L; l++)
    for (let r = md.offsets[l]!; r < md.offsets[l + 1]!; r++) equal.F.fill(1 / md.alleles[l]!, r * K, (r + 1) * K);
  const carried = emptyParams(md, K);
  emStep(md, work, equal, carried);
  carried.Q.set(fitted.Q);
  projectToSimplex(md, carried, work.fixed);
  return carried;
}
