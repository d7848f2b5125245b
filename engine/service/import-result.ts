import type { GenotypeData } from '../data/genotype-data.ts';
import type { SweepRun } from '../model/sweep.ts';
import { CLUSTER_DEFAULTS, isAlgorithmChoice } from '../util/choices.ts';
import { DEFAULT_FIT, type FitOptions } from '../model/fit-options.ts';
import { restoreRuns, type SavedRun } from './cluster-sweep.ts';

interface ResultRunJson {
  K: number;
  replicate: number;
  logLik: number;
  completedStarts?: number;
  weights: number[];
  Q: number[][];
  frequencies: number[][];
  informative: number[];
  model?: string;
  cvError?: number;
  algorithmChoice?: unknown;
}

interface ResultJson {
  program?: string;
  options?: { seed?: number; fit?: Partial<FitOptions> } | null;
  dataset?: { individuals?: { id: string }[]; loci?: { name: string }[] };
  runs?: ResultRunJson[];
}

/**
 * Use case "import results": the runs of a `stratify.json` written by `stratify run`, `sweep` or
 * `merge` (a cluster's workflow), as runs of the open dataset. Refuses, naming the file, a result
 * of other individuals or loci, or one that is not a Stratify result.
 */
export function importResult(data: GenotypeData, name: string, text: string): SweepRun[] {
  return importResultFile(data, name, text).runs;
}

/**
 * {@link importResult} with the seed and fit options the result ran with (its `options`; defaults
 * where it has none), for what refits its runs (a bootstrap).
 */
export function importResultFile(
  data: GenotypeData,
  name: string,
  text: string,
): { runs: SweepRun[]; seed: number; fit: FitOptions } {
  let json: ResultJson;
  try {
    json = JSON.parse(text) as ResultJson;
  } catch {
    throw new RangeError(`${name}: not JSON`);
  }
  if (json.program !== 'stratify' || !Array.isArray(json.runs) || json.runs.length === 0) {
    throw new RangeError(`${name}: not a Stratify result with runs (stratify.json from run, sweep or merge)`);
  }
  const ids = json.dataset?.individuals?.map((i) => i.id) ?? [];
  if (ids.length !== data.individuals.length) {
    throw new RangeError(
      `${name}: computed on ${ids.length} individuals; the open dataset has ${data.individuals.length}`,
    );
  }
  const differs = data.individuals.findIndex((ind, i) => ind.id !== ids[i]);
  if (differs >= 0)
    throw new RangeError(
      `${name}: individual ${differs + 1} is "${ids[differs]}" there but "${data.individuals[differs]!.id}" here`,
    );
  const loci = json.dataset?.loci?.map((l) => l.name) ?? [];
  if (loci.length !== data.loci.length || data.loci.some((l, k) => l.name !== loci[k])) {
    throw new RangeError(
      `${name}: computed on other loci (${loci.length}) than the open dataset's (${data.loci.length})`,
    );
  }
  const saved: SavedRun[] = json.runs.map((r) => ({
    K: r.K,
    replicate: r.replicate,
    logLik: r.logLik,
    completedStarts: r.completedStarts ?? 1,
    Q: r.Q.flat(),
    weights: r.weights,
    theta: r.frequencies.flat(),
    informative: r.informative,
    ...(r.model === 'admixture' ? { model: 'admixture' as const } : {}),
    ...(typeof r.cvError === 'number' ? { cvError: r.cvError } : {}),
    ...(isAlgorithmChoice(r.algorithmChoice) ? { algorithmChoice: r.algorithmChoice } : {}),
  }));
  return {
    runs: restoreRuns(data, saved),
    seed: json.options?.seed ?? CLUSTER_DEFAULTS.seed,
    fit: { ...DEFAULT_FIT, ...(json.options?.fit ?? {}) },
  };
}
