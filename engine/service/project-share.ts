import type { GenotypeData } from '../data/genotype-data.ts';
import { projectionSteps, type ProjectionOptions } from '../model/admixture/projection.ts';

// A share of a projection's individuals as a worker runs it (service/project.ts splits the
// individuals among a runner's workers with projectOntoWith).

/** Individuals first ≤ i < first + count of the data on the reference's markers, onto F. */
export interface ProjectTask {
  readonly K: number;
  /** The reference's frequencies, shape (Σ alleles, K), rows in `offsets` order. */
  readonly F: Float64Array;
  readonly offsets: Int32Array;
  /** The reference's sample (own copies; absent: F as it is). */
  readonly sample?: ProjectionOptions['sample'];
  readonly first: number;
  readonly count: number;
}

/**
 * Use case "a share of a projection" (in a worker): yields after each individual, returns the
 * share packed into one array (Q by individual, then ln L, then copies) for one transfer.
 */
export function* projectWork(
  data: GenotypeData,
  task: ProjectTask,
): Generator<{ iteration: number; logLik: number; change: number }, Float64Array> {
  const { K, count } = task;
  const steps = projectionSteps(
    data,
    task.F,
    K,
    task.offsets,
    task.sample ? { sample: task.sample } : {},
    task.first,
    count,
  );
  for (;;) {
    const r = steps.next();
    if (r.done) {
      const packed = new Float64Array(count * (K + 2));
      packed.set(r.value.Q);
      packed.set(r.value.logLik, count * K);
      packed.set(r.value.copies, count * (K + 1));
      return packed;
    }
    yield { iteration: r.value, logLik: NaN, change: NaN };
  }
}

/** A share's packed result back as its arrays. */
export function unpackProjection(
  packed: Float64Array,
  count: number,
  K: number,
): { Q: Float64Array; logLik: Float64Array; copies: Int32Array } {
  if (packed.length !== count * (K + 2))
    throw new RangeError(`a projection share of ${count} individuals at K = ${K} has ${packed.length} numbers`);
  return {
    Q: packed.subarray(0, count * K),
    logLik: packed.subarray(count * K, count * (K + 1)),
    copies: Int32Array.from(packed.subarray(count * (K + 1))),
  };
}
