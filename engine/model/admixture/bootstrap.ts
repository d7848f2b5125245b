import { alleleOffsets, subsetData, type GenotypeData } from '../../data/genotype-data.ts';
import type { Rng } from '../../util/rng.ts';
import type { FitOptions } from '../fit-options.ts';
import { genomeWindows } from '../prepared/genome-windows.ts';
import { buildPreparedData } from '../prepared/prepared-data.ts';
import { runToEnd } from '../mixture/fit.ts';
import { admixtureWork, type AdmixtureParams } from './admixture.ts';
import { admixtureFitSteps, type AdmixtureStepInfo } from './admixture-fit.ts';
import { admixtureFitOptions } from './admixture-start.ts';
import { createRng } from '../../util/rng.ts';

/**
 * One bootstrap sample of the markers, as indices (with repeats): markers drawn with replacement
 * (ADMIXTURE's -B) or, where every marker has a position, windows of consecutive markers along
 * the genome (genomeWindows: ⌈L^(1/3)⌉ markers, within a chromosome) drawn with replacement until
 * L markers are taken, so that linked markers are resampled together and not counted as
 * independent evidence. `blocks` says which was done.
 */
export function resampleMarkers(data: GenotypeData, rng: Rng): { loci: Int32Array; blocks: number | undefined } {
  const L = data.loci.length;
  const windows = resamplingWindows(data);
  const loci = new Int32Array(L);
  if (!windows) {
    for (let l = 0; l < L; l++) loci[l] = Math.floor(rng.uniform() * L);
    return { loci, blocks: undefined };
  }
  const members: number[][] = Array.from({ length: windows.count }, () => []);
  for (let l = 0; l < L; l++) members[windows.of[l]!]!.push(l);
  let n = 0;
  while (n < L) {
    const w = members[Math.floor(rng.uniform() * windows.count)]!;
    for (const l of w) {
      if (n === L) break;
      loci[n++] = l;
    }
  }
  return { loci, blocks: windows.count };
}

/** The genome windows a bootstrap resamples: at least two (markers with positions), else undefined. */
function resamplingWindows(data: GenotypeData) {
  const windows = genomeWindows(data.loci);
  return windows && windows.count >= 2 ? windows : undefined;
}

/** How many genome windows a bootstrap resamples, or undefined: single markers. */
export function resampledBlocks(data: GenotypeData): number | undefined {
  return resamplingWindows(data)?.count;
}

/** One bootstrap replicate as a task (for a worker): the estimate to start from and the replicate's seed. */
export interface BootstrapTask {
  readonly K: number;
  readonly Q: Float64Array;
  readonly F: Float64Array;
  /** Seeds the resampling of markers (resampleMarkers). */
  readonly seed: number;
}

/**
 * The admixture fit refitted on resampled markers, started from the estimate (so its clusters
 * keep their labels and no alignment is needed): its iterations, returning the replicate's Q.
 */
export function* bootstrapSteps(
  data: GenotypeData,
  task: BootstrapTask,
  fit: FitOptions,
): Generator<AdmixtureStepInfo, Float64Array> {
  const { loci } = resampleMarkers(data, createRng(task.seed));
  const N = data.individuals.length;
  const sample = subsetData(
    data,
    Array.from(loci),
    Array.from({ length: N }, (_, i) => i),
  );
  const md = buildPreparedData(sample);
  const offsets = alleleOffsets(data);
  const K = task.K;
  const F = new Float64Array(md.offsets[md.L]! * K);
  loci.forEach((l, j) => {
    const from = offsets[l]! * K;
    F.set(task.F.subarray(from, offsets[l + 1]! * K), md.offsets[j]! * K);
  });
  const init: AdmixtureParams = { K, Q: Float64Array.from(task.Q), F };
  const result = yield* admixtureFitSteps(md, admixtureWork(md), init, admixtureFitOptions(fit));
  return result.params.Q;
}

/** {@link bootstrapSteps} to the end, in this thread. */
export function bootstrapReplicate(data: GenotypeData, task: BootstrapTask, fit: FitOptions): Float64Array {
  return runToEnd(bootstrapSteps(data, task, fit));
}
