import type { GenotypeData } from '../data/genotype-data.ts';
import type { PuechmailleEstimates } from '../analysis/puechmaille.ts';
import { writeP, writeQ } from '../formats/q-files.ts';
import { toText } from '../formats/writers.ts';
import { preparedData } from '../model/prepared/prepared-data.ts';
import { likeliestRunAtK, type SweepOptions, type SweepRun } from '../model/sweep.ts';
import { analyzeSweep } from './analyze-sweep.ts';
import type { SweepSummary } from '../analysis/k-choice.ts';
import { sweepJson } from './result-json.ts';

// Use case "a sweep's result as files": what `stratify sweep` and `stratify merge` write into
// their output folder and what the app's "Download all" bundles, made once here so both give
// the same files.

/** One file of a result: its name in the output folder and its text. */
export interface ResultFile {
  readonly name: string;
  readonly text: string;
}

/** The F_ST-per-K table as TSV (Puechmaille's per-K summaries where the individuals have populations). */
export function kTable(summary: SweepSummary, puechmaille?: PuechmailleEstimates): string {
  const head = [
    'K',
    'replicates',
    'fst_mean',
    'fst_sd',
    'mann_whitney_p_vs_previous',
    'loglik_mean',
    'loglik_sd',
    'evanno_delta_k',
    'bic_mean',
    'cv_error',
    'negligible_clusters',
    'effective_clusters',
    'replicate_similarity_H',
    'modes',
    'fst_per_replicate',
    'algorithm',
    'puechmaille_med_mea',
    'puechmaille_max_mea',
    'puechmaille_med_med',
    'puechmaille_max_med',
  ];
  const rows = summary.perK.map((k) =>
    [
      k.K,
      k.replicates,
      k.fstMean.toFixed(5),
      k.fstSd.toFixed(5),
      k.versusPrevious ? k.versusPrevious.p.toPrecision(4) : '',
      k.logLikMean.toFixed(2),
      k.logLikSd.toFixed(2),
      k.deltaK !== undefined ? k.deltaK.toPrecision(5) : '',
      k.bicMean.toFixed(2),
      k.cvError !== undefined ? k.cvError.toFixed(5) : '',
      k.negligibleMean.toFixed(2),
      k.effectiveMean.toFixed(2),
      k.similarity.toFixed(4),
      k.modes,
      k.fst.map((f) => f.toFixed(5)).join(','),
      k.algorithmChoice?.algorithm ?? '',
      ...puechmailleCells(puechmaille, k.K),
    ].join('\t'),
  );
  return [head.join('\t'), ...rows].join('\n') + '\n';
}

function puechmailleCells(p: PuechmailleEstimates | undefined, K: number): (number | string)[] {
  const atK = p?.perK.find((x) => x.K === K);
  return atK ? [atK.medMea, atK.maxMea, atK.medMed, atK.maxMed] : ['', '', '', ''];
}

/** The terminal's line of Puechmaille's estimators. */
export function puechmailleLine(p: PuechmailleEstimates): string {
  return `K for uneven sampling (Puechmaille 2016; clusters with a population's mean or median membership above ${p.threshold}): MedMeaK = ${p.medMeaK}, MaxMeaK = ${p.maxMeaK}, MedMedK = ${p.medMedK}, MaxMedK = ${p.maxMedK}\n`;
}

/** The admixture model's CV error of each K (its likeliest run's), in K order; empty without CV. */
export function cvErrors(runs: readonly SweepRun[]): { K: number; cvError: number; logLik: number }[] {
  const ks = [...new Set(runs.map((r) => r.K))].sort((a, b) => a - b);
  return ks.flatMap((K) => {
    const run = likeliestRunAtK(runs, K);
    return run.cvError === undefined ? [] : [{ K, cvError: run.cvError, logLik: run.clustering.logLik }];
  });
}

/** The K of lowest CV error among `cv` (cvErrors; what ADMIXTURE's manual reads as the K the data support), or undefined. */
export function lowestCvK(cv: readonly { K: number; cvError: number }[]): number | undefined {
  return cv.length === 0 ? undefined : cv.reduce((a, b) => (b.cvError < a.cvError ? b : a)).K;
}

/** cv-by-k.tsv: K, CV error, ln L of the run it was computed on, and the lowest marked; undefined without CV. */
export function cvTable(runs: readonly SweepRun[]): string | undefined {
  const cv = cvErrors(runs);
  if (cv.length === 0) return undefined;
  const lowest = lowestCvK(cv);
  const rows = cv.map((c) =>
    [c.K, c.cvError.toFixed(5), c.logLik.toFixed(2), c.K === lowest ? 'lowest' : ''].join('\t'),
  );
  return ['K\tcv_error\tloglik\tnote', ...rows].join('\n') + '\n';
}

/**
 * Every run's Q file with its clusters as the run left them (not aligned across replicates): what
 * CLUMPAK and pong take to align replicates themselves. Named `K{K}.r{replicate}.Q` (1-based
 * replicate), for a caller to put its stem before.
 */
export function replicateQFiles(runs: readonly SweepRun[], N: number): ResultFile[] {
  return runs.map((run) => ({
    name: `K${run.K}.r${run.replicate + 1}.Q`,
    text: toText(writeQ(run.clustering.Q, N, run.K)),
  }));
}

/** A sweep's fst-by-k.tsv alone, as sweepResultFiles writes it (the app's Choose K table). */
export function sweepTableFile(
  data: GenotypeData,
  runs: readonly SweepRun[],
  membershipThreshold?: number,
): ResultFile {
  const analysis = analyzeSweep(data, runs, membershipThreshold);
  return { name: 'fst-by-k.tsv', text: kTable(analysis.summary, analysis.puechmaille) };
}

/**
 * A sweep's result as files: per run its Q file (aligned within its K) and .P file, per K the
 * colours (consistent across K), fst-by-k.tsv (the table above) and stratify.json (everything,
 * with the summary and the alignment). `options`: the sweep's, when known (a result imported
 * from a file has none); `membershipThreshold`: Puechmaille's estimators' (analyzeSweep). Returns
 * the files, the table and the estimators.
 */
export function sweepResultFiles(
  data: GenotypeData,
  options: SweepOptions | undefined,
  runs: readonly SweepRun[],
  cancelled: boolean,
  readFlags: Record<string, unknown>,
  membershipThreshold?: number,
): { files: ResultFile[]; table: string; puechmaille?: PuechmailleEstimates } {
  const md = preparedData(data);
  const analysis = analyzeSweep(data, runs, membershipThreshold);
  const summary = analysis.summary;
  const files: ResultFile[] = [];
  summary.alignment.forEach((a, idx) => {
    const ofK = runs.filter((r) => r.K === a.K).sort((x, y) => x.replicate - y.replicate);
    ofK.forEach((run, r) => {
      const base = `stratify.K${a.K}.r${run.replicate + 1}`;
      files.push({ name: `${base}.Q`, text: toText(writeQ(a.aligned[r]!, md.N, a.K)) });
      files.push({ name: `${base}.P`, text: toText(writeP(data, run.clustering.model)) });
    });
    files.push({ name: `stratify.K${a.K}.colours`, text: Array.from(summary.colours[idx]!).join(' ') + '\n' });
  });
  const puechmaille = analysis.puechmaille;
  const table = kTable(summary, puechmaille);
  files.push({ name: 'fst-by-k.tsv', text: table });
  const cv = cvTable(runs);
  if (cv) files.push({ name: 'cv-by-k.tsv', text: cv });
  const json = {
    ...sweepJson(data, options, runs, cancelled),
    readFlags,
    summary: summary.perK.map((k) => ({ ...k })),
    ...(puechmaille ? { puechmaille } : {}),
    alignment: summary.alignment.map((a, idx) => ({
      K: a.K,
      reference: a.reference,
      permutations: a.perms.map((p) => Array.from(p)),
      meanSimilarity: a.meanSimilarity,
      modes: a.modes.map((m) => m.members),
      colours: Array.from(summary.colours[idx]!),
    })),
  };
  files.push({ name: 'stratify.json', text: JSON.stringify(json) });
  return { files, table, ...(puechmaille ? { puechmaille } : {}) };
}
