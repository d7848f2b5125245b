// What the engine holds between calls (open datasets, sweeps, filter lists) and reads files with,
// shared by the calls in calls/ (one module per concern) that EngineServer dispatches to.
import type { GenotypeData } from '../data/genotype-data.ts';
import { summarize, type DatasetSummary } from '../data/summary.ts';
import { bytesSource, readHeadBytes, type ByteSource } from '../io/byte-source.ts';
import { isGzip } from '../io/gzip.ts';
import type { DatasetFiles } from '../formats/read-dataset.ts';
import type { SweepOptions, SweepRun } from '../model/sweep.ts';
import { type filterListFiles, openDataset } from '../service/dataset.ts';
import type { StartPool } from './pool.ts';
import type {
  DatasetInfo,
  EngineMethod,
  EngineProgress,
  FileGrant,
  FileInput,
  OpenOptions,
  RunInfo,
  SummaryJson,
} from './engine-protocol.ts';
import { isFileGrant } from './engine-protocol.ts';

/**
 * Reads files the desktop shell granted (engine/node's files where Node runs the engine): the
 * dataset's files for a grant, its companions found beside it. Absent in a browser.
 */
export type GrantedFiles = (grant: FileGrant) => DatasetFiles;

/** What the runtime around the server provides. */
export interface EngineServerOptions {
  /** Reads granted files (Node only). */
  readonly granted?: GrantedFiles;
  /**
   * The machine's cores: more start workers than this only share the same cores, and each holds its
   * own copy of the data (in a browser, its own WebAssembly memory), so a sweep asking for more is refused.
   */
  readonly cores?: number;
}

/** A sweep held by the engine: its runs on its dataset, with the options it ran with (none for runs imported or restored). */
export interface HeldSweep {
  readonly datasetId: number;
  readonly runs: readonly SweepRun[];
  readonly cancelled?: boolean;
  readonly options?: SweepOptions;
}

/** The open datasets, sweeps and filter lists, by id; and how the engine reads files and runs work. */
export class EngineState {
  readonly datasets = new Map<number, GenotypeData>();
  /** What each filtered dataset's filters removed (its lists are made from it when asked), until it is closed. */
  readonly filterLists = new Map<number, Parameters<typeof filterListFiles>[0]>();
  nextDataset = 1;
  readonly sweeps = new Map<number, HeldSweep>();
  nextSweep = 1;

  constructor(
    readonly pool: (threads?: number) => StartPool,
    readonly options: EngineServerOptions = {},
  ) {}

  dataset(id: number): GenotypeData {
    const d = this.datasets.get(id);
    if (!d) throw new RangeError(`no dataset ${id} is open`);
    return d;
  }

  sweep(id: number): HeldSweep & { readonly data: GenotypeData } {
    const sw = this.sweeps.get(id);
    if (!sw) throw new RangeError(`no sweep ${id}`);
    return { ...sw, data: this.dataset(sw.datasetId) };
  }

  info(datasetId: number, data: GenotypeData): DatasetInfo {
    return {
      datasetId,
      summary: summaryJson(summarize(data)),
      individuals: individualsInfo(data),
      loci: data.loci.map((l) => l.name),
    };
  }

  /** The dataset's files: bytes as given, or a granted path streamed from disk with its companions. */
  datasetFiles(files: readonly FileInput[]): DatasetFiles {
    const [first, ...rest] = files;
    if (isFileGrant(first!)) {
      const found = this.grantedFiles(first);
      // Companions granted alongside (a multiple selection) take precedence over those found beside.
      const given = rest.map((f) => this.source(f));
      const names = new Set(given.map((g) => g.name.toLowerCase()));
      return {
        main: found.main,
        companions: [...given, ...(found.companions ?? []).filter((c) => !names.has(c.name.toLowerCase()))],
      };
    }
    return { main: this.source(first!), companions: rest.map((f) => this.source(f)) };
  }

  source(f: FileInput): ByteSource {
    if (isFileGrant(f)) return this.grantedFiles(f).main;
    if (typeof f?.name !== 'string' || !(f.bytes instanceof Uint8Array))
      throw new TypeError('a file must be { name, bytes } or a file granted by the desktop app');
    return bytesSource(f.name, f.bytes);
  }

  private grantedFiles(f: FileGrant): DatasetFiles {
    const granted = this.options.granted;
    if (!granted) throw new RangeError(`${f.name}: this engine cannot read files from disk; open the file's contents`);
    return granted(f);
  }

  /** Frees every dataset and sweep. */
  clear(): void {
    this.datasets.clear();
    this.filterLists.clear();
    this.sweeps.clear();
  }
}

/** One call in progress: how it reports progress, its cancellation, and how it reads a dataset's files. */
export interface EngineCall {
  readonly progress: (value: EngineProgress) => void;
  readonly signal: AbortSignal;
  /** A dataset's files read (with a population file) as openDataset reads them, parse progress reported. */
  readonly readFiles: (
    method: EngineMethod,
    files: readonly FileInput[],
    options: OpenOptions,
  ) => Promise<{ data: GenotypeData; main: ByteSource }>;
}

/** The EngineCall of one request: its progress reported through `progress`, cancelled by `signal`. */
export function engineCall(s: EngineState, progress: (value: EngineProgress) => void, signal: AbortSignal): EngineCall {
  return {
    progress,
    signal,
    readFiles: async (method, files, options) => {
      if (!Array.isArray(files) || files.length === 0) throw new RangeError(`${method}: no file given`);
      const { main, companions } = s.datasetFiles(files);
      const { populationFile, ...open } = options;
      const populations = populationFile ? s.source(populationFile) : undefined;
      const data = await openDataset({ main, companions, populations }, open, (p) =>
        progress({ kind: 'parse', bytesRead: p.bytesRead, totalBytes: p.totalBytes }),
      );
      return { data, main };
    },
  };
}

const PREVIEW_BYTES = 4096;
const PREVIEW_LINES = 8;
const PREVIEW_WIDTH = 160;

/** The first lines of a file, long lines cut, as the Read options panel shows them. */
export async function filePreview(source: ByteSource): Promise<string> {
  const head = await readHeadBytes(source, PREVIEW_BYTES);
  if (isGzip(head)) return '(gzip-compressed: decompressed while reading)';
  return new TextDecoder()
    .decode(head)
    .split(/\r?\n/)
    .slice(0, PREVIEW_LINES)
    .map((l) => (l.length > PREVIEW_WIDTH ? `${l.slice(0, PREVIEW_WIDTH)} …` : l))
    .join('\n');
}

export function summaryJson(s: DatasetSummary): SummaryJson {
  const { allelesPerLocus: _a, ho: _ho, he: _he, maf: _maf, missingPerLocus, missingPerIndividual, ...rest } = s;
  return {
    ...rest,
    missingPerLocus: Array.from(missingPerLocus),
    missingPerIndividual: Array.from(missingPerIndividual),
  };
}

/** A run as the UI receives it. */
export function runInfo(r: SweepRun): RunInfo {
  const c = r.clustering;
  return {
    K: r.K,
    replicate: r.replicate,
    logLik: c.logLik,
    completedStarts: r.completedStarts,
    Q: c.Q,
    weights: c.model.weights,
    informative: c.informative,
    independence: c.independence,
    theta: c.model.theta,
    model: r.model ?? 'mixture',
    ...(r.cvError !== undefined ? { cvError: r.cvError } : {}),
    ...(c.algorithmChoice ? { algorithmChoice: c.algorithmChoice } : {}),
  };
}

/** The individuals as the UI receives them: plain objects without absent fields. */
export function individualsInfo(data: GenotypeData): DatasetInfo['individuals'] {
  return data.individuals.map((i) => ({
    id: i.id,
    ...(i.population !== undefined ? { population: i.population } : {}),
    ...(i.group !== undefined ? { group: i.group } : {}),
    ...(i.location !== undefined ? { location: i.location } : {}),
  }));
}
