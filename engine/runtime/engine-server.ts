import type { FilterOptions } from '../data/filters.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import { summarize, type DatasetSummary } from '../data/summary.ts';
import { bytesSource, readHeadBytes, type ByteSource } from '../io/byte-source.ts';
import { isGzip } from '../io/gzip.ts';
import type { DatasetFiles } from '../formats/read-dataset.ts';
import { isFormatError, type FormatError } from '../io/format-error.ts';
import { toText } from '../formats/writers.ts';
import { analyzeSweep, fittedRuns } from '../service/analyze-sweep.ts';
import { assignIndividualsOn } from '../service/assign.ts';
import { fitOptions, restoreRuns, runSweep } from '../service/cluster-sweep.ts';
import type { SweepOptions, SweepRun } from '../model/sweep.ts';
import { replicateQFiles, sweepResultFiles, sweepTableFile } from '../service/sweep-files.ts';
import { supervisedFromPopulations, supervisedSweep } from '../service/supervised.ts';
import { importResult } from '../service/import-result.ts';
import { exportDataset, filterDataset, filterListFiles, openDataset, placeDataset } from '../service/dataset.ts';
import { markerPanel } from '../service/select-markers.ts';
import { principalComponents } from '../service/principal-components.ts';
import { checkFitAtK, FIT_CHECK_VIEW_MAX } from '../service/fit-check.ts';
import { bootstrapSweepRun } from '../service/bootstrap.ts';
import { projectOntoSweep } from '../service/project.ts';
import { CLUSTER_DEFAULTS, runSettingProblem, type ExportFormat } from '../util/choices.ts';
import { replicatesForMannWhitney, smallestMannWhitneyP } from '../util/rank-tests.ts';
import type { Port } from './port.ts';
import type { StartPool } from './pool.ts';
import type {
  AssignRequest,
  DatasetInfo,
  EngineApi,
  EngineMethod,
  EngineProgress,
  FileGrant,
  FileInput,
  FromEngine,
  OpenOptions,
  RunInfo,
  SummaryJson,
  SweepRequest,
  ToEngine,
} from './engine-protocol.ts';
import { ENGINE_METHODS, isFileGrant } from './engine-protocol.ts';

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

const PREVIEW_BYTES = 4096;
const PREVIEW_LINES = 8;
const PREVIEW_WIDTH = 160;

/** The first lines of a file, long lines cut, as the Read options panel shows them. */
async function filePreview(source: ByteSource): Promise<string> {
  const head = await readHeadBytes(source, PREVIEW_BYTES);
  if (isGzip(head)) return '(gzip-compressed: decompressed while reading)';
  return new TextDecoder()
    .decode(head)
    .split(/\r?\n/)
    .slice(0, PREVIEW_LINES)
    .map((l) => (l.length > PREVIEW_WIDTH ? `${l.slice(0, PREVIEW_WIDTH)} …` : l))
    .join('\n');
}

function summaryJson(s: DatasetSummary): SummaryJson {
  const { allelesPerLocus: _a, ho: _ho, he: _he, maf: _maf, missingPerLocus, missingPerIndividual, ...rest } = s;
  return {
    ...rest,
    missingPerLocus: Array.from(missingPerLocus),
    missingPerIndividual: Array.from(missingPerIndividual),
  };
}

function runInfo(r: SweepRun): RunInfo {
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

/**
 * The engine behind the typed client: holds datasets, runs calls, streams progress and honours
 * cancellation. The same code serves a Web Worker, an Electron utility process and tests.
 */
export class EngineServer {
  private readonly datasets = new Map<number, GenotypeData>();
  /** What each filtered dataset's filters removed (its lists are made from it when asked), until it is closed. */
  private readonly filterLists = new Map<number, Parameters<typeof filterListFiles>[0]>();
  private nextDataset = 1;
  private readonly aborts = new Map<number, AbortController>();
  /** Each sweep's runs on its dataset, with the options it ran with (none for runs imported or restored). */
  private readonly sweeps = new Map<
    number,
    { datasetId: number; runs: readonly SweepRun[]; cancelled?: boolean; options?: SweepOptions }
  >();
  private nextSweep = 1;

  private readonly unsubscribe: () => void;

  constructor(
    private readonly port: Port,
    private readonly pool: (threads?: number) => StartPool,
    private readonly options: EngineServerOptions = {},
  ) {
    this.unsubscribe = port.onMessage((m) => void this.handle(m as ToEngine));
  }

  /** Ends this server: running calls are cancelled, datasets and sweeps freed, the port closed. */
  dispose(): void {
    for (const a of this.aborts.values()) a.abort();
    this.aborts.clear();
    this.datasets.clear();
    this.sweeps.clear();
    this.unsubscribe();
    this.port.close();
  }

  private send(m: FromEngine): void {
    this.port.postMessage(m);
  }

  private info(datasetId: number, data: GenotypeData): DatasetInfo {
    return {
      datasetId,
      summary: summaryJson(summarize(data)),
      individuals: individualsInfo(data),
      loci: data.loci.map((l) => l.name),
    };
  }

  /** The dataset's files: bytes as given, or a granted path streamed from disk with its companions. */
  private datasetFiles(files: readonly FileInput[]): DatasetFiles {
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

  private grantedFiles(f: FileGrant): DatasetFiles {
    const granted = this.options.granted;
    if (!granted) throw new RangeError(`${f.name}: this engine cannot read files from disk; open the file's contents`);
    return granted(f);
  }

  private source(f: FileInput): ByteSource {
    if (isFileGrant(f)) return this.grantedFiles(f).main;
    if (typeof f?.name !== 'string' || !(f.bytes instanceof Uint8Array))
      throw new TypeError('a file must be { name, bytes } or a file granted by the desktop app');
    return bytesSource(f.name, f.bytes);
  }

  private sweep(id: number): {
    data: GenotypeData;
    runs: readonly SweepRun[];
    cancelled?: boolean;
    options?: SweepOptions;
  } {
    const sw = this.sweeps.get(id);
    if (!sw) throw new RangeError(`no sweep ${id}`);
    return { ...sw, data: this.dataset(sw.datasetId) };
  }

  private dataset(id: number): GenotypeData {
    const d = this.datasets.get(id);
    if (!d) throw new RangeError(`no dataset ${id} is open`);
    return d;
  }

  private api(id: number, signal: AbortSignal): EngineApi {
    const progress = (value: EngineProgress) => this.send({ id, op: 'progress', value });
    /** A dataset's files read (with a population file) as openDataset reads them, parse progress reported. */
    const readFiles = async (method: EngineMethod, files: readonly FileInput[], options: OpenOptions) => {
      if (!Array.isArray(files) || files.length === 0) throw new RangeError(`${method}: no file given`);
      const { main, companions } = this.datasetFiles(files);
      const { populationFile, ...open } = options;
      const populations = populationFile ? this.source(populationFile) : undefined;
      const data = await openDataset({ main, companions, populations }, open, (p) =>
        progress({ kind: 'parse', bytesRead: p.bytesRead, totalBytes: p.totalBytes }),
      );
      return { data, main };
    };
    return {
      openDataset: async (files: readonly FileInput[], options: OpenOptions) => {
        const { data } = await readFiles('openDataset', files, options);
        const datasetId = this.nextDataset++;
        this.datasets.set(datasetId, data);
        return this.info(datasetId, data);
      },
      previewFile: async (file: FileInput) => filePreview(this.source(file)),
      filterDataset: async (datasetId: number, options: FilterOptions) => {
        const r = filterDataset(this.dataset(datasetId), options);
        const id2 = this.nextDataset++;
        this.datasets.set(id2, r.data);
        this.filterLists.set(id2, {
          removedIndividuals: r.removedIndividuals,
          removedLoci: r.removedLoci,
          pruned: r.pruned,
        });
        return {
          ...this.info(id2, r.data),
          removedIndividuals: r.removedIndividuals,
          removedLoci: r.removedLoci,
          steps: r.steps,
        };
      },
      runSweep: async (req: SweepRequest) => {
        const data = this.dataset(req.datasetId);
        if (req.threads !== undefined) {
          const cores = this.options.cores;
          const problem = runSettingProblem('threads', req.threads, cores, cores ? "this machine's cores" : undefined);
          if (problem) throw new RangeError(problem);
        }
        const { references, datasetId: _datasetId, threads: _threads, ...request } = req;
        const asked = { ...request, fit: fitOptions(req.fit) };
        const options = references ? supervisedSweep(asked, supervisedFromPopulations(data, references)) : asked;
        const res = await runSweep(
          data,
          options,
          this.pool(req.threads),
          (p) => {
            if (p.kind === 'start') {
              // The UI's start event: everything but which start it was and its ln L.
              const { start: _start, logLik: _logLik, ...event } = p;
              progress(event);
            } else if (p.kind === 'iteration' || p.kind === 'cv' || p.kind === 'estimate') progress(p);
            else progress({ kind: 'run', run: runInfo(p.run) });
          },
          signal,
        );
        const sweepId = this.nextSweep++;
        this.sweeps.set(sweepId, { datasetId: req.datasetId, runs: res.runs, cancelled: res.cancelled, options });
        return { sweepId, runs: res.runs.map(runInfo), cancelled: res.cancelled };
      },
      importSweep: async (datasetId: number, runs: readonly RunInfo[]) => {
        const restored = restoreRuns(this.dataset(datasetId), runs);
        const sweepId = this.nextSweep++;
        this.sweeps.set(sweepId, { datasetId, runs: restored });
        return { sweepId };
      },
      importResult: async (datasetId: number, name: string, text: string) => {
        const runs = importResult(this.dataset(datasetId), name, text);
        const sweepId = this.nextSweep++;
        this.sweeps.set(sweepId, { datasetId, runs });
        return { sweepId, runs: runs.map(runInfo) };
      },
      sweepFiles: async (sweepId: number) => {
        const { data, runs, options, cancelled } = this.sweep(sweepId);
        return sweepResultFiles(data, options, runs, cancelled ?? false, {}).files;
      },
      replicateQFiles: async (sweepId: number) => {
        const { data, runs } = this.sweep(sweepId);
        return replicateQFiles(runs, data.individuals.length);
      },
      sweepTable: async (sweepId: number) => {
        const { data, runs } = this.sweep(sweepId);
        return sweepTableFile(data, runs);
      },
      analyzeSweep: async (sweepId: number) => {
        const { data, runs } = this.sweep(sweepId);
        const analysis = analyzeSweep(data, runs);
        const perK = analysis.perK.map((k) => {
          const { versusPrevious, ...rest } = k;
          return { ...rest, ...(versusPrevious ? { mannWhitneyP: versusPrevious.p } : {}) };
        });
        const fewest = Math.min(...perK.map((k) => k.replicates));
        const mannWhitneyPower = {
          replicates: fewest,
          smallestP: smallestMannWhitneyP(fewest, fewest),
          replicatesFor05: replicatesForMannWhitney(0.05),
        };
        const puechmaille = analysis.puechmaille;
        return {
          sweepId,
          perK,
          recommendedK: analysis.recommendedK,
          mannWhitneyPower,
          ...(puechmaille ? { puechmaille } : {}),
        };
      },
      selectMarkers: async (sweepId: number, K: number, pRel: number, pRed: number) => {
        const { data, runs } = this.sweep(sweepId);
        return markerPanel(data, fittedRuns(runs), K, pRel, pRed).selection;
      },
      principalComponents: async (datasetId: number, pcs: number) => {
        if (!Number.isInteger(pcs) || pcs < 1 || pcs > 50)
          throw new Error(`PCs: a whole number from 1 to 50, got ${pcs}`);
        const pc = principalComponents(this.dataset(datasetId), { pcs });
        return {
          pcs: pc.pcs,
          eigenvalues: Array.from(pc.eigenvalues),
          varianceFraction: Array.from(pc.varianceFraction),
          vectors: Array.from(pc.vectors),
          columns: pc.columns,
          loci: pc.loci,
          method: pc.method,
          iterations: pc.iterations,
          converged: pc.converged,
        };
      },
      projectSamples: async (
        sweepId: number,
        K: number,
        files: readonly FileInput[],
        options: OpenOptions,
        shown?: Float64Array,
        frequencyPrior?: number,
      ) => {
        const { data, runs } = this.sweep(sweepId);
        const { data: samples, main } = await readFiles('projectSamples', files, options);
        const p = await projectOntoSweep(
          this.pool(),
          data,
          runs,
          K,
          samples,
          shown,
          frequencyPrior,
          signal,
          (done, total) => progress({ kind: 'projection', done, total }),
        );
        return {
          K,
          model: p.reference.model,
          file: main.name,
          individuals: individualsInfo(samples).map(({ location: _l, ...rest }) => rest),
          Q: p.Q,
          copies: p.copies,
          markers: p.counts,
          run: p.reference.run,
          ...(p.frequencyPrior !== undefined ? { frequencyPrior: p.frequencyPrior } : {}),
        };
      },
      checkFit: async (sweepId: number, K: number) => {
        const { data, runs } = this.sweep(sweepId);
        let last = -1;
        const c = checkFitAtK(data, runs, K, {
          onProgress: (fraction) => {
            // A message per percent at most.
            if (fraction - last < 0.01 && fraction < 1) return;
            last = fraction;
            progress({ kind: 'fit-check', fraction });
          },
        });
        return {
          K,
          replicate: c.replicate,
          model: c.model,
          N: c.N,
          ...(c.N <= FIT_CHECK_VIEW_MAX ? { matrix: c.matrix } : {}),
          populations: c.populations,
          means: c.means,
          loci: c.loci,
          lociTotal: c.lociTotal,
          iterations: c.iterations,
          ...(c.note ? { note: c.note } : {}),
        };
      },
      bootstrapAncestry: async (sweepId: number, K: number, B: number, shown?: Float64Array) => {
        const { data, runs, options } = this.sweep(sweepId);
        const b = await bootstrapSweepRun(
          this.pool(),
          data,
          runs,
          K,
          B,
          options?.seed ?? CLUSTER_DEFAULTS.seed,
          options?.fit ?? fitOptions({ model: 'admixture' }),
          shown,
          signal,
          (completed) => progress({ kind: 'bootstrap', completed, total: B }),
        );
        if (!b) throw new DOMException('the bootstrap was cancelled', 'AbortError');
        return {
          K,
          replicate: b.replicate,
          B: b.B,
          ...(b.blocks !== undefined ? { blocks: b.blocks } : {}),
          se: b.se,
          lower: b.lower,
          upper: b.upper,
        };
      },
      applySites: async (datasetId: number, file: FileInput) => {
        const placed = await placeDataset(this.dataset(datasetId), this.source(file));
        this.datasets.set(datasetId, placed.data);
        return {
          individuals: individualsInfo(placed.data),
          by: placed.by,
          located: placed.located,
          unlocated: placed.unlocated,
          unknown: placed.unknown,
        };
      },
      assign: async (req: AssignRequest) => {
        const classifier = {
          structure: req.classifier,
          k: 2,
          learning: req.learning,
          alpha: 'auto',
          ...(req.score ? { score: req.score } : {}),
        } as const;
        const data = this.dataset(req.datasetId);
        let shown = -1;
        const a = await assignIndividualsOn(
          this.pool(),
          data,
          {
            by: req.by,
            classifier,
            folds: req.folds,
            seed: req.seed,
            curveSizes: req.curveSizes,
            variables: req.variables ?? 'auto',
            ...(req.maxSearch !== undefined ? { maxSearch: req.maxSearch } : {}),
          },
          (p) => {
            // A message per percent at most.
            const percent = Math.floor((100 * p.done) / p.total);
            if (percent === shown) return;
            shown = percent;
            progress({ kind: 'structure-search', done: p.done, total: p.total, work: p.work });
          },
          signal,
        );
        const ev = a.evaluation;
        return {
          classes: a.data.classes,
          accuracy: ev.accuracy,
          logLoss: ev.logLoss,
          confusion: ev.confusion,
          posterior: a.posterior,
          labels: a.data.labels,
          curve: a.curve,
          variables: a.variables,
          variablesReason: a.variablesReason,
          qualityIndex: a.qualityIndex,
          unlabelled: a.unlabelled,
          ...(a.exclusion ? { exclusion: a.exclusion } : {}),
        };
      },
      exportDataset: async (datasetId: number, format: ExportFormat, loci?: readonly number[]) => {
        const w = exportDataset(this.dataset(datasetId), format, loci);
        return { text: toText(w), notes: w.notes };
      },
      filterFiles: async (datasetId: number) => {
        const removed = this.filterLists.get(datasetId);
        if (!removed) throw new RangeError(`dataset ${datasetId} is not a filtered dataset`);
        return filterListFiles(removed);
      },
      closeDataset: async (datasetId: number) => {
        this.datasets.delete(datasetId);
        this.filterLists.delete(datasetId);
        for (const [id, sw] of this.sweeps) if (sw.datasetId === datasetId) this.sweeps.delete(id);
      },
      held: async () => ({ datasets: this.datasets.size, sweeps: this.sweeps.size }),
    };
  }

  private async handle(msg: ToEngine): Promise<void> {
    if (msg.op === 'cancel') {
      this.aborts.get(msg.id)?.abort();
      return;
    }
    const controller = new AbortController();
    this.aborts.set(msg.id, controller);
    try {
      if (!ENGINE_METHODS.includes(msg.method)) throw new TypeError(`unknown engine method "${String(msg.method)}"`);
      const api = this.api(msg.id, controller.signal);
      const fn = api[msg.method] as (...a: unknown[]) => Promise<unknown>;
      const value = await fn(...msg.args);
      this.send({ id: msg.id, op: 'ok', value });
    } catch (e) {
      if (isFormatError(e)) {
        const fe = e as FormatError;
        this.send({
          id: msg.id,
          op: 'err',
          name: 'FormatError',
          message: fe.message,
          file: fe.file,
          line: fe.line,
          column: fe.column,
        });
      } else {
        const err = e instanceof Error ? e : new Error(String(e));
        this.send({ id: msg.id, op: 'err', name: err.name, message: err.message });
      }
    } finally {
      this.aborts.delete(msg.id);
    }
  }
}

/** The individuals as the UI receives them: plain objects without absent fields. */
function individualsInfo(data: GenotypeData): DatasetInfo['individuals'] {
  return data.individuals.map((i) => ({
    id: i.id,
    ...(i.population !== undefined ? { population: i.population } : {}),
    ...(i.group !== undefined ? { group: i.group } : {}),
    ...(i.location !== undefined ? { location: i.location } : {}),
  }));
}
