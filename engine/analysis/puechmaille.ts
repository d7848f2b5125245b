import { PUECHMAILLE_THRESHOLD } from '../util/choices.ts';

/**
 * Puechmaille's (2016, Mol Ecol Resour 16:608–627) estimators of K for uneven sampling, read from
 * the sampling populations instead of the likelihood: in one run at K, a cluster counts when the
 * individuals of at least one population have a mean (the "Mea" estimators) or a median (the "Med"
 * ones) membership in it above the threshold (0.5 as published). Over a K's replicate runs the
 * count is summarised by its median (MedMeaK, MedMedK) or its maximum (MaxMeaK, MaxMedK); each
 * estimator's K is the largest such summary over the K values run. Populations too small to hold
 * a majority of one cluster still count, as in the publication; individuals without a population
 * are left out.
 */

/** Per K: the four summaries of the counted clusters over its replicates. */
export interface PuechmailleAtK {
  readonly K: number;
  readonly medMea: number;
  readonly maxMea: number;
  readonly medMed: number;
  readonly maxMed: number;
}

export interface PuechmailleEstimates {
  readonly threshold: number;
  readonly perK: readonly PuechmailleAtK[];
  /** The estimates: the largest of each summary over K. */
  readonly medMeaK: number;
  readonly maxMeaK: number;
  readonly medMedK: number;
  readonly maxMedK: number;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * The clusters of one run (Q: N × K memberships) that the mean or median membership of at least one
 * population exceeds `threshold` in (`population`: each individual's population index, −1 none).
 */
export function countedClusters(
  Q: ArrayLike<number>,
  K: number,
  population: ArrayLike<number>,
  statistic: 'mean' | 'median',
  threshold: number,
): number {
  return countedIn(Q, K, populationRows(population), statistic, threshold);
}

/** The individuals (rows of Q) of each population, individuals without one (−1) left out. */
function populationRows(population: ArrayLike<number>): number[][] {
  const members = new Map<number, number[]>();
  for (let i = 0; i < population.length; i++) {
    const p = population[i]!;
    if (p < 0) continue;
    if (!members.has(p)) members.set(p, []);
    members.get(p)!.push(i);
  }
  return [...members.values()];
}

/** countedClusters with the populations' rows grouped once (the same for every run of a sweep). */
function countedIn(
  Q: ArrayLike<number>,
  K: number,
  groups: readonly (readonly number[])[],
  statistic: 'mean' | 'median',
  threshold: number,
): number {
  let counted = 0;
  for (let k = 0; k < K; k++) {
    const above = groups.some((rows) => {
      const q = rows.map((i) => Q[i * K + k]!);
      const centre = statistic === 'mean' ? q.reduce((a, b) => a + b, 0) / q.length : median(q);
      return centre > threshold;
    });
    if (above) counted++;
  }
  return counted;
}

/**
 * The four estimators over a sweep's runs (each K's replicates), or undefined when no individual
 * has a population (they need the sampling design).
 */
export function puechmailleEstimates(
  runs: readonly { readonly K: number; readonly Q: ArrayLike<number> }[],
  population: ArrayLike<number>,
  threshold = PUECHMAILLE_THRESHOLD,
): PuechmailleEstimates | undefined {
  if (!Array.from(population).some((p) => p >= 0) || runs.length === 0) return undefined;
  const groups = populationRows(population);
  const ks = [...new Set(runs.map((r) => r.K))].sort((a, b) => a - b);
  const perK = ks.map((K) => {
    const reps = runs.filter((r) => r.K === K);
    const mea = reps.map((r) => countedIn(r.Q, K, groups, 'mean', threshold));
    const med = reps.map((r) => countedIn(r.Q, K, groups, 'median', threshold));
    return { K, medMea: median(mea), maxMea: Math.max(...mea), medMed: median(med), maxMed: Math.max(...med) };
  });
  const largest = (pick: (k: PuechmailleAtK) => number) => Math.max(...perK.map(pick));
  return {
    threshold,
    perK,
    medMeaK: largest((k) => k.medMea),
    maxMeaK: largest((k) => k.maxMea),
    medMedK: largest((k) => k.medMed),
    maxMedK: largest((k) => k.maxMed),
  };
}
