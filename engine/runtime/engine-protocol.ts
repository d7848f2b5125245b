import type { FilterOptions, Removed } from '../data/filters.ts';
import type { FormatName } from '../data/genotype-data.ts';
import type { StructureOptions } from '../formats/structure.ts';
import type { Policy } from '../model/multi-start.ts';
import type { FitOptions } from '../model/fit.ts';

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

/** A dataset summary in plain JSON (typed arrays as number arrays). */
export interface SummaryJson {
  readonly format?: string;
  readonly file?: string;
  readonly individuals: number;
  readonly loci: number;
  readonly ploidy: number;
  readonly phased: boolean;
  readonly populations: readonly { name: string; count: number }[];
  readonly groups: readonly { name: string; count: number }[];
  readonly allelesMin: number;
  readonly allelesMedian: number;
  readonly allelesMax: number;
  readonly allelesTotal: number;
  readonly missingRate: number;
  readonly missingGenotypeRate: number;
  readonly missingPerLocus: readonly number[];
  readonly missingPerIndividual: readonly number[];
  readonly meanHo: number;
  readonly meanHe: number;
  readonly biallelic: number;
  readonly monomorphic: number;
  readonly assumptions: readonly string[];
  readonly warnings: readonly string[];
}

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

export interface SweepRequest {
  readonly datasetId: number;
  readonly kValues: readonly number[];
  readonly replicates: number;
  readonly starts: number;
  readonly policy: Policy;
  readonly seed: number;
  readonly fit: FitOptions;
}

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

/** Per-K statistics for choosing K (see engine/analysis/k-choice.ts). */
export interface KInfo {
  readonly K: number;
  readonly replicates: number;
  readonly fst: readonly number[];
  readonly fstMean: number;
  readonly fstSd: number;
  readonly logLikMean: number;
  readonly bicMean: number;
  readonly negligibleMean: number;
  readonly effectiveMean: number;
  readonly mannWhitneyP?: number;
  readonly similarity: number;
  readonly modes: number;
  /** The representative membership (major mode, aligned), shape (N, K). */
  readonly Q: Float64Array;
  /** Palette index of each column of Q, consistent across K. */
  readonly colours: readonly number[];
  /** Replicate whose model represents this K (best F_ST). */
  readonly bestReplicate: number;
}

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

/** The engine's API: what the one typed client may call. */
export interface EngineApi {
  openDataset(files: readonly FileBytes[], options: OpenOptions): Promise<DatasetInfo>;
  filterDataset(datasetId: number, options: FilterOptions): Promise<FilterResultInfo>;
  runSweep(request: SweepRequest): Promise<{ sweepId: number; runs: RunInfo[]; cancelled: boolean }>;
  analyzeSweep(sweepId: number): Promise<SweepAnalysis>;
  /** Restores the runs of a saved project as a sweep on an open dataset. */
  importSweep(datasetId: number, runs: readonly RunInfo[]): Promise<{ sweepId: number }>;
  selectMarkers(sweepId: number, K: number, pRel: number, pRed: number): Promise<MarkerSelectionInfo>;
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

export const ENGINE_METHODS: readonly EngineMethod[] = ['openDataset', 'filterDataset', 'runSweep', 'analyzeSweep', 'importSweep', 'selectMarkers', 'exportDataset', 'closeDataset'];
