// The saved session's shape: what a session file holds (checked by session-check.ts, written and
// read by session-codec.ts, kept between visits by session-store.ts).
import type { Algorithm, Model, RankBy, StartsRule } from '../../../engine/util/choices.ts';
import type {
  AssignInfo,
  BootstrapInfo,
  FilterOptions,
  FitCheckInfo,
  OpenOptions,
  PcaInfo,
  ProjectionInfo,
  RunInfo,
} from '../../../engine/runtime/engine-protocol.ts';
import type { AssignSettings } from './assign.svelte.ts';
import type { PcaSettings } from './pca.svelte.ts';
import type { View } from './app.svelte.ts';

/**
 * A file in a session: embedded (opened in the browser build, or a small side file), or, for a
 * file the desktop app read where it lives, its path (sessions do not copy large datasets).
 */
export type SavedFile =
  { readonly name: string; readonly base64: string } | { readonly name: string; readonly path: string };

/** A saved analysis: the data (embedded or by path), every setting and every result, as plain JSON. */
export interface SessionDoc {
  readonly version: 1;
  readonly app: 'stratify';
  readonly savedAt: string;
  readonly files: readonly SavedFile[];
  readonly populationFile?: SavedFile;
  /** A coordinates file of sampling sites applied after reading (the Map view). */
  readonly sitesFile?: SavedFile;
  readonly view: View;
  readonly openOptions?: Omit<OpenOptions, 'populationFile'>;
  readonly filters?: FilterOptions;
  readonly run: {
    algorithm: Algorithm;
    kFrom: number;
    kTo: number;
    starts: number;
    replicates: number;
    epsilon: number;
    seed: number;
    rankBy?: RankBy;
    /** Absent in sessions saved before the admixture model: the mixture model. */
    model?: Model;
    tolerance?: number;
    cvFolds?: number;
    /** Absent in sessions saved before adaptive starts: every start ran. */
    startsRule?: StartsRule;
    /** Supervised admixture's reference populations (absent: none). */
    references?: string[];
    /**
     * Saved while a sweep ran: its K values and replicates (`runs` then holds the runs it had
     * finished), so that a session closed mid-sweep can continue it.
     */
    interrupted?: { kValues: number[]; replicates: number };
  };
  readonly plot: {
    palette: string[];
    populationOrder: string[];
    shownK: number[];
    groupByRegion: boolean;
    /** Absent in sessions saved before per-row sorting: one order for all rows. */
    sortEachRow?: boolean;
    barHeight: number;
    /** Absent in sessions saved before the Map view. */
    mapK?: number;
  };
  readonly runs: readonly {
    K: number;
    replicate: number;
    logLik: number;
    completedStarts: number;
    Q: number[];
    weights: number[];
    informative: number[];
    independence: number[];
    theta: number[];
    /** Absent in sessions saved before the admixture model: the mixture model. */
    model?: Model;
    cvError?: number;
    /** Sweeps with --algorithm auto (absent in sessions saved before it). */
    algorithmChoice?: RunInfo['algorithmChoice'];
  }[];
  /** Absent in sessions saved before the PCA view. */
  readonly pca?: {
    settings: PcaSettings;
    result?: PcaInfo;
  };
  /**
   * The Structure view's bootstrap intervals and model-fit check, of the runs saved here (absent
   * in sessions saved before they were saved, or when none was computed).
   */
  readonly trust?: {
    readonly bootstrap?: EncodedBootstrap;
    readonly fitCheck?: EncodedFitCheck;
    readonly projection?: EncodedProjection;
  };
  /** Absent in sessions saved before the Assign view was saved. */
  readonly assign?: {
    settings: AssignSettings;
    result?: EncodedAssign;
    resultFolds?: number;
    resultBy?: AssignSettings['by'];
  };
}

/**
 * Bootstrap intervals as plain JSON; `shown`: the memberships of the bar-plot row whose columns
 * they follow, when whiskers were drawn (on reopening they are drawn on the row that shows them).
 */
export type EncodedBootstrap = Omit<BootstrapInfo, 'se' | 'lower' | 'upper'> & {
  se: number[];
  lower: number[];
  upper: number[];
  shown?: number[];
};

/**
 * A fit check as plain JSON: the population means (null where a population has no pair), and the
 * matrix of every pair as base64 of its float32 bytes up to FIT_MATRIX_SAVED individuals (beyond,
 * a reopened session shows the population means; a new check draws the pairs again).
 */
export type EncodedFitCheck = Omit<FitCheckInfo, 'matrix' | 'means'> & { means: (number | null)[]; matrix?: string };

/** New samples projected onto the saved runs, as plain JSON (the samples are not the dataset's). */
export type EncodedProjection = Omit<ProjectionInfo, 'Q' | 'copies'> & { Q: number[]; copies: number[] };

/** An assignment result as plain JSON (typed arrays as number arrays). */
export type EncodedAssign = Omit<AssignInfo, 'confusion' | 'posterior' | 'labels' | 'exclusion'> & {
  confusion: number[];
  posterior: number[];
  labels: number[];
  exclusion?: number[];
};
