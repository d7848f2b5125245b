import type { Model } from '../util/choices.ts';
import type { FilterOptions, FilterStep, Removed } from '../data/filters.ts';
import type { Location } from '../data/genotype-data.ts';
import type { DatasetSummary } from '../data/summary.ts';
import type { AlgorithmChoice } from '../model/algorithm-choice.ts';
import type { FitOptions } from '../model/fit-options.ts';
import type { SweepOptions } from '../model/sweep.ts';
import type { KAnalysis, SweepAnalysis as AnalyzedSweep } from '../service/analyze-sweep.ts';
import type { PanelCurvePoint } from '../service/assign.ts';
import type { SweepProgress } from '../service/cluster-sweep.ts';
import type { OpenOptions as ReadChoices } from '../service/dataset.ts';
import type { MarkerSelection } from '../service/select-markers.ts';
import type { ResultFile } from '../service/sweep-files.ts';
import type { MarkerMatchCounts } from '../data/marker-match.ts';
import type { AssignBy, ExportFormat, Learning, Score, StructureKind, Variables } from '../util/choices.ts';

export type { FilterOptions, FilterStep, Removed } from '../data/filters.ts';
export type { Location } from '../data/genotype-data.ts';
export type { MarkerRow } from '../service/select-markers.ts';

/** A file handed to the engine: its name and bytes (the browser build, examples, small side files). */
export interface FileBytes {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * A file the desktop shell let the engine read where it lives: the main process granted the path
 * the user chose (dialog, Open Recent, file association, drop, a project opened in main's dialog)
 * to one window under an unguessable token, so the page names the file without ever holding its
 * bytes; the engine reads the token's path, never the `path` written here.
 */
export interface FileGrant {
  readonly name: string;
  /** The absolute path on disk (shown, and saved in projects to reopen the file). */
  readonly path: string;
  readonly size: number;
  /** The token the engine host resolves to the path. */
  readonly grant: string;
}

/**
 * A dataset's files in the order openDataset takes them: main files first, PLINK companions
 * (.bim, .fam, .map) after, the order kept otherwise.
 */
export function mainFileFirst<T>(files: readonly T[], name: (f: T) => string): T[] {
  const companion = (f: T) => (/\.(bim|fam|map)$/i.test(name(f)) ? 1 : 0);
  return [...files].sort((a, b) => companion(a) - companion(b));
}

/** What a front end hands the engine as a file. */
export type FileInput = FileBytes | FileGrant;

export function isFileGrant(f: FileInput): f is FileGrant {
  return typeof (f as FileGrant).grant === 'string';
}

/** The read options a UI sets, with a population file (id, population[, group]) to apply. */
export type OpenOptions = ReadChoices & { readonly populationFile?: FileInput };

/** A dataset summary in plain JSON: the per-locus statistics the UI does not draw are left out. */
export type SummaryJson = Omit<
  DatasetSummary,
  'allelesPerLocus' | 'ho' | 'he' | 'maf' | 'missingPerLocus' | 'missingPerIndividual'
> & {
  readonly missingPerLocus: readonly number[];
  readonly missingPerIndividual: readonly number[];
};

export interface DatasetInfo {
  readonly datasetId: number;
  readonly summary: SummaryJson;
  readonly individuals: readonly { id: string; population?: string; group?: string; location?: Location }[];
  readonly loci: readonly string[];
}

export interface FilterResultInfo extends DatasetInfo {
  readonly removedIndividuals: readonly Removed[];
  readonly removedLoci: readonly Removed[];
  /** Each filter that ran, in order, with the individuals and loci it removed. */
  readonly steps: readonly FilterStep[];
}

/** A sweep on an open dataset (the options of engine/runtime/sweep.ts). */
export type SweepRequest = Omit<SweepOptions, 'fit'> & {
  /** Fit settings that differ from the defaults (engine/model/mixture/fit.ts DEFAULT_FIT). */
  readonly fit?: Partial<FitOptions>;
  readonly datasetId: number;
  /** Workers for the starts (default: the engine's choice, all cores). */
  readonly threads?: number;
  /**
   * Supervised admixture (ADMIXTURE's --supervised): the populations whose individuals are
   * references, cluster k = references[k]; K is their number and the model the admixture model.
   */
  readonly references?: readonly string[];
};

/** One combined run as the UI receives it. */
export interface RunInfo {
  readonly K: number;
  readonly replicate: number;
  readonly logLik: number;
  readonly completedStarts: number;
  readonly Q: Float64Array;
  readonly weights: Float64Array;
  readonly informative: Float64Array;
  readonly independence: Float64Array;
  /** shape (Σ r_i, K). */
  readonly theta: Float64Array;
  /** What Q is: memberships (mixture) or ancestry proportions (admixture). */
  readonly model: Model;
  /** Admixture sweeps with cross-validation: the CV error of this run. */
  readonly cvError?: number;
  /** `--algorithm auto`: which algorithm this run kept, and why. */
  readonly algorithmChoice?: AlgorithmChoice;
}

/** Progress of a call: parsing, then the sweep's own progress with runs in their UI form. */
export type EngineProgress =
  | { readonly kind: 'parse'; readonly bytesRead: number; readonly totalBytes?: number }
  | Omit<Extract<SweepProgress, { kind: 'start' }>, 'start' | 'logLik'>
  | Extract<SweepProgress, { kind: 'iteration' }>
  | Extract<SweepProgress, { kind: 'cv' }>
  | Extract<SweepProgress, { kind: 'estimate' }>
  | { readonly kind: 'run'; readonly run: RunInfo }
  /** The fit check's share of work done (0..1). */
  | { readonly kind: 'fit-check'; readonly fraction: number }
  /** Bootstrap replicates finished. */
  | { readonly kind: 'bootstrap'; readonly completed: number; readonly total: number }
  /** New individuals projected onto a fit. */
  | { readonly kind: 'projection'; readonly done: number; readonly total: number }
  /**
   * Assignment's structure searches (BCkG, kDB by score): features searched of all the searches'
   * features, and the local scores one search evaluates at most (the estimate said before).
   */
  | { readonly kind: 'structure-search'; readonly done: number; readonly total: number; readonly work: number };

/** Per-K statistics for choosing K (service/analyze-sweep.ts), with the Mann–Whitney p-value alone. */
export type KInfo = Omit<KAnalysis, 'versusPrevious'> & { readonly mannWhitneyP?: number };

export interface SweepAnalysis {
  readonly sweepId: number;
  readonly perK: readonly KInfo[];
  /** The K with the highest mean F_ST, where the Markers view starts. */
  readonly recommendedK: number;
  /**
   * What the Mann–Whitney test between neighbouring K can show with these replicates: the fewest
   * replicates of any K, the smallest p-value the test can give with them, and the replicates per
   * K it needs to reach p < 0.05.
   */
  readonly mannWhitneyPower: {
    readonly replicates: number;
    readonly smallestP: number;
    readonly replicatesFor05: number;
  };
  /** Puechmaille's estimators of K for uneven sampling, where the individuals have populations. */
  readonly puechmaille?: AnalyzedSweep['puechmaille'];
}

export type MarkerSelectionInfo = MarkerSelection;

export interface AssignRequest {
  readonly datasetId: number;
  readonly by: AssignBy;
  readonly classifier: StructureKind;
  readonly learning: Learning;
  readonly folds: number;
  readonly seed: number;
  /** Panel sizes for the accuracy curve (empty: no curve). */
  readonly curveSizes: readonly number[];
  /** The classifier's variables (absent: 'auto'). */
  readonly variables?: Variables;
  /** Structure score of BCkG and kDB (absent: BIC for BCkG, conditional mutual information for kDB). */
  readonly score?: Score;
  /** The most local scores one structure search may evaluate (absent: LIMITS.structureSearch). */
  readonly maxSearch?: number;
}

export interface AssignInfo {
  readonly classes: readonly string[];
  readonly accuracy: number;
  readonly logLoss: number;
  /** confusion[true * K + predicted]. */
  readonly confusion: Int32Array;
  /** Out-of-fold posteriors of labelled individuals and posteriors of unlabelled ones, shape (N, K). */
  readonly posterior: Float64Array;
  readonly labels: Int32Array;
  readonly curve: readonly PanelCurvePoint[];
  /** The variables used and why ('auto' resolved). */
  readonly variables: 'alleles' | 'genotypes';
  readonly variablesReason: string;
  /** Mean posterior of the own class over labelled individuals (GeneClass2's quality index, 0..1). */
  readonly qualityIndex: number;
  /** Rows of the unlabelled individuals. */
  readonly unlabelled: readonly number[];
  /** Exclusion probabilities of the unlabelled individuals, shape (unlabelled, K) (Paetkau et al. 2004). */
  readonly exclusion?: Float64Array;
}

/** A dataset given the sites of a coordinates file (engine/formats/sites-file.ts). */
export interface SitesInfo {
  readonly individuals: DatasetInfo['individuals'];
  /** What the file's keys named. */
  readonly by: 'individual' | 'population';
  readonly located: number;
  readonly unlocated: number;
  /** Keys of the file that name nothing in the data. */
  readonly unknown: readonly string[];
}

/** New individuals projected onto a run of a sweep (engine/service/project.ts). */
export interface ProjectionInfo {
  readonly K: number;
  /** Ancestry proportions (admixture) or cluster memberships (mixture). */
  readonly model: Model;
  readonly file: string;
  readonly individuals: readonly { id: string; population?: string; group?: string }[];
  /** shape (N, K), columns in the order of the memberships shown (when given). */
  readonly Q: Float64Array;
  /** Allele copies on the reference's markers per individual (0: none; Q uniform). */
  readonly copies: Int32Array;
  readonly markers: MarkerMatchCounts;
  /** Which run, in words. */
  readonly run: string;
  /** The Dirichlet prior the ancestry was scored with (0: the fitted frequencies; absent: mixture). */
  readonly frequencyPrior?: number;
}

/** A run's model-fit check (engine/service/fit-check.ts), as the Structure view draws it. */
export interface FitCheckInfo {
  readonly K: number;
  /** The run checked (0-based replicate: the likeliest at K). */
  readonly replicate: number;
  readonly model: Model;
  readonly N: number;
  /**
   * shape (N, N), the individuals in the dataset's order; NaN on the diagonal. Absent beyond
   * FIT_CHECK_VIEW_MAX individuals (the view then draws the population means).
   */
  readonly matrix?: Float32Array;
  readonly populations: readonly string[];
  /** shape (G, G), G populations: mean correlation over pairs of different individuals. */
  readonly means: Float64Array;
  readonly loci: number;
  readonly lociTotal: number;
  readonly iterations: number;
  readonly note?: string;
}

/** Bootstrap intervals of a run's ancestry (engine/service/bootstrap.ts), as the Structure view draws them. */
export interface BootstrapInfo {
  readonly K: number;
  /** The run resampled (0-based replicate: the likeliest at K). */
  readonly replicate: number;
  readonly B: number;
  /** Genome windows resampled, or undefined: single markers. */
  readonly blocks?: number;
  /** shape (N, K) each, columns in the order of the memberships shown (when given). */
  readonly se: Float64Array;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
}

/** A PCA of an open dataset (engine/analysis/pca.ts), as the PCA view draws it. */
export interface PcaInfo {
  readonly pcs: number;
  /** Eigenvalues of X Xᵀ / M (PLINK 2's scale) and each one's fraction of the variance. */
  readonly eigenvalues: readonly number[];
  readonly varianceFraction: readonly number[];
  /** shape (N, pcs), the individuals in the dataset's order. */
  readonly vectors: readonly number[];
  readonly columns: number;
  readonly loci: number;
  readonly method: 'exact' | 'randomized';
  readonly iterations: number;
  readonly converged: boolean;
}

/** The engine's API: what the one typed client may call. */
export interface EngineApi {
  /** Reads a dataset: the main file first (PLINK companions after it, or found beside a granted path). */
  openDataset(files: readonly FileInput[], options: OpenOptions): Promise<DatasetInfo>;
  /** The first lines of a file as the parser sees them (a note instead for gzip-compressed files). */
  previewFile(file: FileInput): Promise<string>;
  filterDataset(datasetId: number, options: FilterOptions): Promise<FilterResultInfo>;
  /** A filtered dataset's lists as `stratify filter` writes them: prune.in/prune.out (with pruning) and removed.tsv. */
  filterFiles(datasetId: number): Promise<readonly ResultFile[]>;
  runSweep(request: SweepRequest): Promise<{ sweepId: number; runs: RunInfo[]; cancelled: boolean }>;
  /** Choose K's analysis; Puechmaille's estimators at `membershipThreshold` (default PUECHMAILLE_THRESHOLD). */
  analyzeSweep(sweepId: number, membershipThreshold?: number): Promise<SweepAnalysis>;
  /** The sweep's result as the files `stratify sweep` writes (Q, P, colours, fst-by-k.tsv, stratify.json). */
  sweepFiles(sweepId: number, membershipThreshold?: number): Promise<readonly ResultFile[]>;
  /** Every run's Q file, clusters as the run left them (`K{K}.r{replicate}.Q`): CLUMPAK's and pong's input. */
  replicateQFiles(sweepId: number): Promise<readonly ResultFile[]>;
  /** The sweep's fst-by-k.tsv alone, the file `stratify sweep` writes (the Choose K view's table). */
  sweepTable(sweepId: number, membershipThreshold?: number): Promise<ResultFile>;
  /** Restores the runs of a saved project as a sweep on an open dataset. */
  importSweep(datasetId: number, runs: readonly RunInfo[]): Promise<{ sweepId: number }>;
  /** Opens a result file (stratify.json of run, sweep or merge) as a sweep on the open dataset. */
  importResult(datasetId: number, name: string, text: string): Promise<{ sweepId: number; runs: RunInfo[] }>;
  selectMarkers(sweepId: number, K: number, pRel: number, pRed: number): Promise<MarkerSelectionInfo>;
  assign(request: AssignRequest): Promise<AssignInfo>;
  /**
   * Reads the genotypes of new individuals and projects them onto the sweep's run at K (highest
   * ln L), without refitting it; `shown` (N, K) orders the clusters as a view draws them;
   * `frequencyPrior` as `stratify project --frequency-prior` (default FREQUENCY_PRIOR).
   */
  projectSamples(
    sweepId: number,
    K: number,
    files: readonly FileInput[],
    options: OpenOptions,
    shown?: Float64Array,
    frequencyPrior?: number,
  ): Promise<ProjectionInfo>;
  /**
   * The model-fit check of the sweep's run at K with the highest ln L (evalAdmix's residual
   * correlations, Garcia-Erill & Albrechtsen 2020), with per-population means.
   */
  checkFit(sweepId: number, K: number): Promise<FitCheckInfo>;
  /**
   * Bootstrap standard errors and 95 % intervals of the ancestry of the sweep's run at K with the
   * highest ln L (admixture model; ADMIXTURE's -B): B refits on resampled markers, on the workers.
   * `shown` (N, K) orders the clusters as a view draws them.
   */
  bootstrapAncestry(sweepId: number, K: number, B: number, shown?: Float64Array): Promise<BootstrapInfo>;
  /** Principal components of an open dataset's genotypes. */
  principalComponents(datasetId: number, pcs: number): Promise<PcaInfo>;
  /**
   * Gives an open dataset's individuals the sampling sites of a coordinates file (a site per
   * individual or per population); the file replaces any sites the population file gave.
   */
  applySites(datasetId: number, file: FileInput): Promise<SitesInfo>;
  exportDataset(
    datasetId: number,
    format: ExportFormat,
    loci?: readonly number[],
  ): Promise<{ text: string; notes: readonly string[] }>;
  /** Frees a dataset and every sweep on it. */
  closeDataset(datasetId: number): Promise<void>;
  /** What the engine holds (datasets, sweeps), for memory checks. */
  held(): Promise<{ datasets: number; sweeps: number }>;
}

export type EngineMethod = keyof EngineApi;

export type ToEngine =
  | { readonly id: number; readonly op: 'call'; readonly method: EngineMethod; readonly args: readonly unknown[] }
  | { readonly id: number; readonly op: 'cancel' };

export type FromEngine =
  | { readonly id: number; readonly op: 'ok'; readonly value: unknown }
  | { readonly id: number; readonly op: 'progress'; readonly value: EngineProgress }
  | {
      readonly id: number;
      readonly op: 'err';
      readonly name: string;
      readonly message: string;
      readonly file?: string;
      readonly line?: number;
      readonly column?: number;
    };

export type { ResultFile };

export const ENGINE_METHODS: readonly EngineMethod[] = [
  'openDataset',
  'previewFile',
  'filterDataset',
  'filterFiles',
  'runSweep',
  'analyzeSweep',
  'sweepFiles',
  'sweepTable',
  'replicateQFiles',
  'importSweep',
  'importResult',
  'selectMarkers',
  'assign',
  'principalComponents',
  'projectSamples',
  'checkFit',
  'bootstrapAncestry',
  'applySites',
  'exportDataset',
  'closeDataset',
  'held',
];
