import { applyFilters, type FilterOptions } from '../data/filters.ts';
import { range, subsetData, type GenotypeData } from '../data/genotype-data.ts';
import { summarize, type DatasetSummary } from '../data/summary.ts';
import { bytesSource } from '../io/byte-source.ts';
import { FormatError, isFormatError } from '../formats/errors.ts';
import { readDataset } from '../formats/read-dataset.ts';
import { toText, writeGenepop, writeStructure, writeVcf } from '../formats/writers.ts';
import type { Port } from './port.ts';
import type { StartPool } from './pool.ts';
import { runSweep, type SweepRun } from './sweep.ts';
import { mixtureData } from '../model/mixture-data.ts';
import { summarizeSweep } from '../analysis/k-choice.ts';
import { fstFromModel } from '../analysis/fst.ts';
import { selectMarkers } from '../analysis/marker-selection.ts';
import { independenceMeasure } from '../model/independence.ts';
import { categoricalFromGenotypes } from '../classify/categorical.ts';
import { predict } from '../classify/classifier.ts';
import { crossValidate, train } from '../classify/evaluate.ts';
import { panelCurve } from '../classify/panel-curve.ts';
import type { AssignRequest, DatasetInfo, EngineApi, EngineProgress, FileBytes, FromEngine, OpenOptions, RunInfo, SummaryJson, SweepRequest, ToEngine } from './engine-protocol.ts';
import { ENGINE_METHODS } from './engine-protocol.ts';

function summaryJson(s: DatasetSummary): SummaryJson {
  const { allelesPerLocus: _a, ho: _ho, he: _he, maf: _maf, missingPerLocus, missingPerIndividual, ...rest } = s;
  return { ...rest, missingPerLocus: Array.from(missingPerLocus), missingPerIndividual: Array.from(missingPerIndividual) };
}

function runInfo(r: SweepRun): RunInfo {
  const c = r.clustering;
  return { K: r.K, replicate: r.replicate, logLik: c.logLik, completedStarts: r.completedStarts, Q: c.Q, weights: c.model.weights, informative: c.informative, independence: c.independence, theta: c.model.theta };
}

/**
 * The engine behind the typed client: holds datasets, runs calls, streams progress and honours
 * cancellation. The same code serves a Web Worker, an Electron utility process and tests.
 */
export class EngineServer {
  private readonly datasets = new Map<number, GenotypeData>();
  private nextDataset = 1;
  private readonly aborts = new Map<number, AbortController>();
  private readonly sweeps = new Map<number, { datasetId: number; runs: readonly SweepRun[] }>();
  private nextSweep = 1;

  constructor(
    private readonly port: Port,
    private readonly pool: (threads?: number) => StartPool,
  ) {
    port.onMessage((m) => void this.handle(m as ToEngine));
  }

  private send(m: FromEngine): void {
    this.port.postMessage(m);
  }

  private info(datasetId: number, data: GenotypeData): DatasetInfo {
    return {
      datasetId,
      summary: summaryJson(summarize(data)),
      individuals: data.individuals.map((i) => ({ id: i.id, ...(i.population !== undefined ? { population: i.population } : {}), ...(i.group !== undefined ? { group: i.group } : {}) })),
      loci: data.loci.map((l) => l.name),
    };
  }

  private sweep(id: number): { data: GenotypeData; runs: readonly SweepRun[] } {
    const sw = this.sweeps.get(id);
    if (!sw) throw new RangeError(`no sweep ${id}`);
    return { data: this.dataset(sw.datasetId), runs: sw.runs };
  }

  private dataset(id: number): GenotypeData {
    const d = this.datasets.get(id);
    if (!d) throw new RangeError(`no dataset ${id} is open`);
    return d;
  }

  private api(id: number, signal: AbortSignal): EngineApi {
    const progress = (value: EngineProgress) => this.send({ id, op: 'progress', value });
    return {
      openDataset: async (files: readonly FileBytes[], options: OpenOptions) => {
        if (!Array.isArray(files) || files.length === 0) throw new RangeError('openDataset: no file given');
        const [main, ...companions] = files.map((f) => bytesSource(f.name, f.bytes));
        const data = await readDataset(
          { main: main!, companions },
          {
            format: options.format,
            structure: options.structure,
            vcf: { ploidyMismatch: options.vcfSkipMixedPloidy ? 'skip' : 'error' },
            plink: { population: options.plinkPopulation ?? 'fid' },
            populations: options.populationFile ? bytesSource(options.populationFile.name, options.populationFile.bytes) : undefined,
            onProgress: (p) => progress({ kind: 'parse', bytesRead: p.bytesRead, totalBytes: p.totalBytes }),
          },
        );
        const datasetId = this.nextDataset++;
        this.datasets.set(datasetId, data);
        return this.info(datasetId, data);
      },
      filterDataset: async (datasetId: number, options: FilterOptions) => {
        const r = applyFilters(this.dataset(datasetId), options);
        const id2 = this.nextDataset++;
        this.datasets.set(id2, r.data);
        return { ...this.info(id2, r.data), removedIndividuals: r.removedIndividuals, removedLoci: r.removedLoci };
      },
      runSweep: async (req: SweepRequest) => {
        const data = this.dataset(req.datasetId);
        if (req.threads !== undefined && !(Number.isInteger(req.threads) && req.threads >= 1 && req.threads <= 64)) throw new RangeError(`threads must be a whole number from 1 to 64, got ${req.threads}`);
        const res = await runSweep(data, req, this.pool(req.threads), (p) => {
          if (p.kind === 'start') progress({ kind: 'start', K: p.K, replicate: p.replicate, completed: p.completed, total: p.total });
          else if (p.kind === 'iteration') progress(p);
          else progress({ kind: 'run', run: runInfo(p.run) });
        }, signal);
        const sweepId = this.nextSweep++;
        this.sweeps.set(sweepId, { datasetId: req.datasetId, runs: res.runs });
        return { sweepId, runs: res.runs.map(runInfo), cancelled: res.cancelled };
      },
      importSweep: async (datasetId: number, runs: readonly RunInfo[]) => {
        const data = this.dataset(datasetId);
        const md = mixtureData(data);
        const restored: SweepRun[] = runs.map((r) => {
          const K = r.K;
          if (r.Q.length !== md.N * K || r.theta.length !== md.totalAlleles * K || r.weights.length !== K) {
            throw new RangeError(`importSweep: run K=${K} does not fit this dataset (${md.N} individuals, ${md.totalAlleles} alleles)`);
          }
          const model = { K, weights: Float64Array.from(r.weights), theta: Float64Array.from(r.theta) };
          const starts = [{ index: 0, seed: 0, logLik: r.logLik, score: r.logLik, iterations: 0, converged: true }]; // one start: nothing to rank
          const clustering = { K, policy: 'best' as const, model, Q: Float64Array.from(r.Q), logLik: r.logLik, informative: Float64Array.from(r.informative), independence: independenceMeasure(md, model), bestStart: 0, starts };
          return { K, replicate: r.replicate, clustering, completedStarts: r.completedStarts };
        });
        const sweepId = this.nextSweep++;
        this.sweeps.set(sweepId, { datasetId, runs: restored });
        return { sweepId };
      },
      analyzeSweep: async (sweepId: number) => {
        const { data, runs } = this.sweep(sweepId);
        const md = mixtureData(data);
        const summary = summarizeSweep(md, runs);
        const perK = summary.perK.map((k, idx) => {
          const fsts = k.fst;
          const reps = runs.filter((r) => r.K === k.K).sort((a, b) => a.replicate - b.replicate);
          const best = fsts.indexOf(Math.max(...fsts));
          const { versusPrevious, logLikSd: _sd, ...rest } = k;
          return {
            ...rest,
            ...(versusPrevious ? { mannWhitneyP: versusPrevious.p } : {}),
            Q: summary.alignment[idx]!.modes[0]!.meanQ,
            colours: Array.from(summary.colours[idx]!),
            bestReplicate: reps[best]?.replicate ?? 0,
          };
        });
        return { sweepId, perK };
      },
      selectMarkers: async (sweepId: number, K: number, pRel: number, pRed: number) => {
        const { data, runs } = this.sweep(sweepId);
        const md = mixtureData(data);
        const reps = runs.filter((r) => r.K === K);
        if (reps.length === 0) throw new RangeError(`no run with K = ${K}`);
        const scored = reps.map((r) => ({ r, f: fstFromModel(md, r.clustering.model) })).sort((a, b) => b.f.fst - a.f.fst)[0]!;
        const sel = selectMarkers(md, scored.r.clustering.model, pRel, pRed);
        return {
          K,
          replicate: scored.r.replicate,
          rows: sel.ranking.map((x) => ({ locus: x.locus, name: data.loci[x.locus]!.name, mi: x.mi, p: x.p, informative: scored.r.clustering.informative[x.locus]!, fst: scored.f.perLocus[x.locus]!, relevant: x.relevant, selected: x.selected })),
          panel: sel.panel,
        };
      },
      assign: async (req: AssignRequest) => {
        const data = this.dataset(req.datasetId);
        const cat = categoricalFromGenotypes(data, req.by);
        if (cat.classes.length < 2) throw new RangeError(`assignment needs at least two ${req.by === 'group' ? 'groups' : 'populations'}`);
        const o = { structure: req.classifier, k: 2, learning: req.learning, alpha: 'auto' } as const;
        const ev = crossValidate(cat, o, req.folds, req.seed);
        const posterior = ev.posterior;
        const unlabelled = Array.from(cat.labels).some((y) => y < 0);
        if (unlabelled) {
          const post = predict(cat, train(cat, o));
          cat.labels.forEach((y, r) => {
            if (y < 0) posterior.set(post.subarray(r * cat.classes.length, (r + 1) * cat.classes.length), r * cat.classes.length);
          });
        }
        const curve = req.curveSizes.length > 0 ? panelCurve(cat, data, req.curveSizes, ['mi', 'fst', 'random'], o, req.folds, req.seed) : undefined;
        return {
          classes: cat.classes,
          accuracy: ev.accuracy,
          logLoss: ev.logLoss,
          confusion: ev.confusion,
          posterior,
          labels: cat.labels,
          curve: curve ? curve.points.map((p) => ({ method: p.method, size: p.size, accuracy: p.accuracy, logLoss: p.logLoss, p: curve.tests.find((t) => t.method === p.method && t.size === p.size)?.p })) : [],
        };
      },
      exportDataset: async (datasetId: number, format: 'structure' | 'genepop' | 'vcf', loci?: readonly number[]) => {
        const data = this.dataset(datasetId);
        const sub = loci ? subsetData(data, loci, range(data.individuals.length)) : data;
        const w = format === 'structure' ? writeStructure(sub) : format === 'genepop' ? writeGenepop(sub) : writeVcf(sub);
        return { text: toText(w), notes: w.notes };
      },
      closeDataset: async (datasetId: number) => {
        this.datasets.delete(datasetId);
      },
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
        this.send({ id: msg.id, op: 'err', name: 'FormatError', message: fe.message, file: fe.file, line: fe.line, column: fe.column });
      } else {
        const err = e instanceof Error ? e : new Error(String(e));
        this.send({ id: msg.id, op: 'err', name: err.name, message: err.message });
      }
    } finally {
      this.aborts.delete(msg.id);
    }
  }
}
