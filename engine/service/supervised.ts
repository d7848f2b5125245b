import type { GenotypeData } from '../data/genotype-data.ts';
import type { PopulationMap } from '../formats/population-file.ts';
import type { SweepOptions } from '../model/sweep.ts';

/** Reference populations for supervised admixture: each individual's cluster, or −1 to estimate. */
export interface SupervisedLabels {
  /** Per individual, in the data's order: the cluster (index into `populations`) or −1. */
  readonly labels: number[];
  /** The reference populations in cluster order (first appearance in the data's order). */
  readonly populations: string[];
  /** Ids of the file that are not in the data. */
  readonly unknownIds: string[];
}

/** Marks an individual whose proportions are to be estimated (ADMIXTURE's .pop file uses "-"). */
const UNKNOWN = new Set(['-', '', 'NA', '?']);

/**
 * Use case "supervised admixture": which individuals are references of which population, from a
 * population file (id, population; "-" or absent: estimate). Throws when fewer than two
 * populations have references (nothing to separate).
 */
export function supervisedLabels(data: GenotypeData, file: PopulationMap, fileName: string): SupervisedLabels {
  const populations: string[] = [];
  const index = new Map<string, number>();
  const labels = data.individuals.map((ind) => {
    const pop = file.get(ind.id)?.population ?? '';
    if (UNKNOWN.has(pop)) return -1;
    let k = index.get(pop);
    if (k === undefined) {
      k = populations.length;
      index.set(pop, k);
      populations.push(pop);
    }
    return k;
  });
  const ids = new Set(data.individuals.map((i) => i.id));
  const unknownIds = [...file.keys()].filter((id) => !ids.has(id));
  if (populations.length < 2)
    throw new Error(
      `${fileName}: supervised mode needs reference individuals of at least two populations, found ${populations.length} (${populations.join(', ') || 'none'})`,
    );
  return { labels, populations, unknownIds };
}

/**
 * Use case "supervised admixture" from the dataset's own populations (the app): the individuals of
 * the `references` (in that order: cluster k is references[k]) are references, every other
 * individual is estimated. Throws when fewer than two populations are named or one has no
 * individual.
 */
export function supervisedFromPopulations(data: GenotypeData, references: readonly string[]): SupervisedLabels {
  if (new Set(references).size < 2)
    throw new RangeError(
      `supervised mode needs at least two reference populations, given ${references.length} (${references.join(', ') || 'none'})`,
    );
  const index = new Map(references.map((p, k) => [p, k]));
  const labels = data.individuals.map((ind) => (ind.population === undefined ? -1 : (index.get(ind.population) ?? -1)));
  const empty = references.filter((_, k) => !labels.includes(k));
  if (empty.length > 0)
    throw new RangeError(`supervised mode: no individual of the reference population ${empty.join(', ')} in the data`);
  return { labels, populations: [...references], unknownIds: [] };
}

/**
 * The sweep of supervised admixture: the admixture model with the references' labels, at K = the
 * number of reference populations (the CLI's --supervised and the app's reference populations).
 */
export function supervisedSweep(sweep: SweepOptions, s: SupervisedLabels): SweepOptions {
  return {
    ...sweep,
    kValues: [s.populations.length],
    fit: { ...sweep.fit, model: 'admixture', supervised: s.labels },
  };
}
