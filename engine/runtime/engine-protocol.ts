import type { FilterOptions, Removed } from '../data/filters.ts';
import type { FormatName } from '../data/genotype-data.ts';
import type { StructureOptions } from '../formats/structure.ts';
import type { DatasetSummary } from '../data/summary.ts';
import type { KSummary } from '../analysis/k-choice.ts';
import type { SweepOptions } from './sweep.ts';

/** A file handed to the engine: its name and bytes. */
export interface FileBytes {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** The part of the read options a UI sets (functions and streams stay in the engine). */
export interface OpenOptions {
  readonly format?: FormatName;
  readonly structure?: Omit<StructureOptions, 'onProgress'>;
  readonly vcfSkipMixedPloidy?: boolean;
  readonly plinkPopulation?: 'fid' | 'none';
  /** A population file (id, population[, group]) to apply. */
  readonly populationFile?: FileBytes;
}

/** A dataset summary in plain JSON: the per-locus statistics the UI does not draw are left out. */
export type SummaryJson = Omit<DatasetSummary, 'allelesPerLocus' | 'ho' | 'he' | 'maf' | 'missingPerLocus' | 'missingPerIndividual'> & {
  readonly missingPerLocus: readonly number[];
  readonly missingPerIndividual: readonly number[];
};

export interface DatasetInfo {
  readonly datasetId: number;
  readonly summary: SummaryJson;
  readonly individuals: readonly { id: string; population?: string; group?: string }[];
  readonly loci: readonly string[];
}

export interface FilterResultInfo extends DatasetInfo {
  readonly removedIndividuals: readonly Removed[];
  readonly removedLoci: readonly Removed[];
}

/** A sweep on an open dataset (the options of engine/runtime/sweep.ts). */
export type SweepRequest = SweepOptions & {
  readonly datasetId: number;
  /** Workers for the starts (default: the engine's choice, all cores). */
  readonly threads?: number;
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
}

export type EngineProgress =
  | { readonly kind: 'parse'; readonly bytesRead: number; readonly totalBytes?: number }
  | { readonly kind: 'start'; readonly K: number; readonly replicate: number; readonly completed: number; readonly total: number }
  | { readonly kind: 'iteration'; readonly K: number; readonly replicate: number; readonly start: number; readonly iteration: number; readonly logLik: number }
  | { readonly kind: 'run'; readonly run: RunInfo };

/** Per-K statistics for choosing K (engine/analysis/k-choice.ts), with what the plot needs. */
export type KInfo = Omit<KSummary, 'versusPrevious' | 'logLikSd'> & {
  readonly mannWhitneyP?: number;
  /** The representative membership (major mode, aligned), shape (N, K). */
  readonly Q: Float64Array;
  /** Palette index of each column of Q, consistent across K. */
  readonly colours: readonly number[];
  /** Replicate whose model represents this K (best F_ST). */
  readonly bestReplicate: number;
};

export interface SweepAnalysis {
  readonly sweepId: number;
  readonly perK: readonly KInfo[];
}

export interface MarkerRow {
  readonly locus: number;
  readonly name: string;
  readonly mi: number;
  readonly p: number;
  readonly informative: number;
  readonly fst: number;
  readonly relevant: boolean;
  readonly selected: boolean;
}

export interface MarkerSelectionInfo {
  readonly K: number;
  readonly replicate: number;
  readonly rows: readonly MarkerRow[];
  readonly panel: readonly number[];
}

export interface AssignRequest {
  readonly datasetId: number;
  readonly by: 'population' | 'group';
  readonly classifier: 'nb' | 'tan' | 'kdb' | 'bckg';
  readonly learning: 'generative' | 'gradient' | 'tm' | 'acll';
  readonly folds: number;
  readonly seed: number;
  /** Panel sizes for the accuracy curve (empty: no curve). */
  readonly curveSizes: readonly number[];
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
  readonly curve: readonly { method: string; size: number; accuracy: number; logLoss: number; p?: number }[];
}

/** The engine's API: what the one typed client may call. */
export interface EngineApi {
  openDataset(files: readonly FileBytes[], options: OpenOptions): Promise<DatasetInfo>;
  filterDataset(datasetId: number, options: FilterOptions): Promise<FilterResultInfo>;
  runSweep(request: SweepRequest): Promise<{ sweepId: number; runs: RunInfo[]; cancelled: boolean }>;
  analyzeSweep(sweepId: number): Promise<SweepAnalysis>;
  /** Restores the runs of a saved project as a sweep on an open dataset. */
  importSweep(datasetId: number, runs: readonly RunInfo[]): Promise<{ sweepId: number }>;
  selectMarkers(sweepId: number, K: number, pRel: number, pRed: number): Promise<MarkerSelectionInfo>;
  assign(request: AssignRequest): Promise<AssignInfo>;
  exportDataset(datasetId: number, format: 'structure' | 'genepop' | 'vcf', loci?: readonly number[]): Promise<{ text: string; notes: readonly string[] }>;
  closeDataset(datasetId: number): Promise<void>;
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

export const ENGINE_METHODS: readonly EngineMethod[] = ['openDataset', 'filterDataset', 'runSweep', 'analyzeSweep', 'importSweep', 'selectMarkers', 'assign', 'exportDataset', 'closeDataset'];
