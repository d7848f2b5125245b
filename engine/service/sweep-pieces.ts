import { withCvErrors, withCvErrorsOn } from './cross-validate.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import { datasetFingerprint } from '../data/fingerprint.ts';
import type { MixtureModel } from '../model/mixture/mixture-model.ts';
import { preparedData } from '../model/prepared/prepared-data.ts';
import type { AlgorithmChoice } from '../model/algorithm-choice.ts';
import { bestPerAlgorithm } from '../model/start-ranking.ts';
import { combineStarts, type Clustering } from '../model/combine-starts.ts';
import { startSummary, type StartResult, type StartSummary } from '../model/start.ts';
import { runModel, startRanking, sweepTasks, validateSweep, type SweepOptions, type SweepRun } from '../model/sweep.ts';
import type { ParentWeights } from '../model/tan/tan-fit.ts';
import { VERSION } from '../util/version.ts';
import type { SweepProgress } from './sweep-progress.ts';
import { runSweepStarts } from './sweep-starts.ts';
import { screens } from '../model/screening.ts';
import { structuredStarts } from './cluster-sweep.ts';
import type { StartRunner } from './start-runner.ts';

/**
 * Use cases "compute one piece of a sweep" and "merge pieces": a sweep's (K, replicate) runs, or
 * a range of one run's starts, computed anywhere (a cluster job) and gathered into the result a
 * single `runSweep` gives, bit for bit: every start's seed derives from (seed, K, replicate,
 * start), and best choice keeps the maximum of a total order over starts, so the best of each
 * range's best is the best of all.
 */

/** Which part of a sweep a piece holds: one (K, replicate) and a range of its starts [from, to). */
export interface PieceSpec {
  readonly K: number;
  /** 0-based. */
  readonly replicate: number;
  readonly from: number;
  readonly to: number;
}

interface ModelJson {
  K: number;
  weights: number[];
  theta: number[];
}

interface StartJson extends StartSummary {
  model: ModelJson;
  posterior: number[];
  informative: number[];
  linkage?: readonly ParentWeights[];
}

interface ClusteringJson {
  K: number;
  policy: Clustering['policy'];
  model: ModelJson;
  Q: number[];
  logLik: number;
  informative: number[];
  independence: number[];
  bestStart: number;
  starts: StartSummary[];
  linkage?: readonly ParentWeights[];
  algorithmChoice?: AlgorithmChoice;
}

/** A piece as written to disk (JSON; numbers round-trip exactly). */
export interface PieceJson {
  readonly kind: 'stratify-sweep-piece';
  readonly version: string;
  readonly dataset: { file?: string; individuals: number; loci: number; fingerprint: string };
  /** The whole sweep's options (kValues may list only this piece's K). */
  readonly options: SweepOptions;
  /** How the dataset was read (front-end flags), so that a merge reads it the same way. */
  readonly readFlags: Record<string, unknown>;
  readonly piece: PieceSpec;
  /** Starts of the piece that completed. */
  readonly completed: number;
  /** Policy best: the piece's best start and every start's summary. */
  readonly best?: StartJson;
  readonly starts?: StartSummary[];
  /** Policy best under 'auto': the best fit of the algorithm `best` did not run. */
  readonly rivals?: StartJson[];
  /** Other policies (a piece of all starts): the combined run. */
  readonly clustering?: ClusteringJson;
}

const modelJson = (m: MixtureModel): ModelJson => ({
  K: m.K,
  weights: Array.from(m.weights),
  theta: Array.from(m.theta),
});
const modelFrom = (j: ModelJson): MixtureModel => ({
  K: j.K,
  weights: Float64Array.from(j.weights),
  theta: Float64Array.from(j.theta),
});
function startJson(s: StartResult): StartJson {
  return {
    ...startSummary(s),
    model: modelJson(s.model),
    posterior: Array.from(s.posterior),
    informative: Array.from(s.informative),
    ...(s.linkage ? { linkage: s.linkage } : {}),
  };
}

function startFrom(j: StartJson): StartResult {
  return {
    ...startSummary(j),
    model: modelFrom(j.model),
    posterior: Float64Array.from(j.posterior),
    informative: Float64Array.from(j.informative),
    ...(j.linkage ? { linkage: j.linkage } : {}),
  };
}

function clusteringJson(c: Clustering): ClusteringJson {
  return {
    K: c.K,
    policy: c.policy,
    model: modelJson(c.model),
    Q: Array.from(c.Q),
    logLik: c.logLik,
    informative: Array.from(c.informative),
    independence: Array.from(c.independence),
    bestStart: c.bestStart,
    starts: c.starts.map(startSummary),
    ...(c.linkage ? { linkage: c.linkage } : {}),
    ...(c.algorithmChoice ? { algorithmChoice: c.algorithmChoice } : {}),
  };
}

function clusteringFrom(j: ClusteringJson): Clustering {
  return {
    K: j.K,
    policy: j.policy,
    model: modelFrom(j.model),
    Q: Float64Array.from(j.Q),
    logLik: j.logLik,
    informative: Float64Array.from(j.informative),
    independence: Float64Array.from(j.independence),
    bestStart: j.bestStart,
    starts: j.starts,
    ...(j.linkage ? { linkage: j.linkage } : {}),
    ...(j.algorithmChoice ? { algorithmChoice: j.algorithmChoice } : {}),
  };
}

/** Computes one piece of a sweep. A piece of fewer than all starts needs policy best. */
export async function runSweepPiece(
  data: GenotypeData,
  o: SweepOptions,
  spec: PieceSpec,
  readFlags: Record<string, unknown>,
  runner: StartRunner,
  onProgress?: (p: SweepProgress) => void,
  signal?: AbortSignal,
): Promise<PieceJson> {
  const atK = { ...o, kValues: [spec.K] };
  validateSweep(atK, data.individuals.length);
  if (!(spec.replicate >= 0 && spec.replicate < o.replicates))
    throw new RangeError(`replicate must be from 1 to ${o.replicates}`);
  if (!(spec.from >= 0 && spec.from < spec.to && spec.to <= o.starts))
    throw new RangeError(`the start range must lie within 1..${o.starts}`);
  const partial = spec.from > 0 || spec.to < o.starts;
  if (partial && o.policy !== 'best')
    throw new RangeError(`a range of starts needs policy best (averaging needs every start), got ${o.policy}`);
  if (partial && o.adaptive)
    throw new RangeError(
      "a range of starts cannot stop adaptively (the rule needs all of a run's starts in order): add --starts-rule all",
    );
  if (partial && screens(o))
    throw new RangeError(
      `a range of starts cannot be screened (screening ranks all of a run's starts together): add ${o.fit.model === 'admixture' ? '--screen-tolerance 0' : '--screen 0'}`,
    );
  // After the refusals above: the structured start's PCA is not cheap.
  const tasks = sweepTasks(atK, structuredStarts(preparedData(data), atK)).filter(
    (t) => t.replicate === spec.replicate && t.index >= spec.from && t.index < spec.to,
  );
  const res = await runSweepStarts(runner, data, tasks, o, onProgress, undefined, signal);
  const done = res.results.filter((x): x is StartResult => x !== undefined);
  if (res.cancelled || done.length < res.tasks.length)
    throw new Error('the piece was cancelled before all its starts completed; nothing was written');
  const md = preparedData(data);
  const base = {
    kind: 'stratify-sweep-piece' as const,
    version: VERSION,
    dataset: {
      file: data.source?.file,
      individuals: data.individuals.length,
      loci: data.loci.length,
      fingerprint: datasetFingerprint(data),
    },
    options: o,
    readFlags,
    piece: spec,
    completed: done.length,
  };
  if (o.policy === 'best') {
    // The merge ranks the pieces' best fits again (and under 'auto' cross-validates between the
    // algorithms once, for the whole replicate), so a piece only keeps the best fit of each algorithm.
    const [best, ...rivals] = bestPerAlgorithm(md, done, startRanking(o));
    return {
      ...base,
      best: startJson(best!),
      ...(rivals.length ? { rivals: rivals.map(startJson) } : {}),
      starts: done.map(startSummary),
    };
  }
  return { ...base, clustering: clusteringJson(combineStarts(md, done, o.policy, startRanking(o), o.fit)) };
}

/** Options that must agree between pieces (everything but the K list). */
function planKey(o: SweepOptions): string {
  const { kValues: _k, ...rest } = o;
  return JSON.stringify(rest);
}

/** The first option (dotted path) in which two plans differ. */
function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(a)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        path ? `${path}.${k}` : k,
      );
      if (d) return d;
    }
  }
  return `${path || 'value'} (${JSON.stringify(a)} against ${JSON.stringify(b)})`;
}

export interface NamedPiece {
  /** Where the piece came from (a file name), for messages. */
  readonly name: string;
  readonly piece: PieceJson;
}

/** Checks that pieces come from one dataset, one program version and one plan; names the first piece that does not. */
export function checkPieces(pieces: readonly NamedPiece[], data?: GenotypeData): void {
  if (pieces.length === 0) throw new RangeError('no pieces given');
  const first = pieces[0]!;
  for (const { name, piece } of pieces) {
    if (piece.kind !== 'stratify-sweep-piece') throw new RangeError(`${name}: not a Stratify sweep piece`);
    if (piece.version !== first.piece.version)
      throw new RangeError(`${name}: written by Stratify ${piece.version}, ${first.name} by ${first.piece.version}`);
    if (piece.dataset.fingerprint !== first.piece.dataset.fingerprint) {
      throw new RangeError(
        `${name}: another dataset than ${first.name} (${piece.dataset.file ?? '?'}: ${piece.dataset.individuals} individuals, ${piece.dataset.loci} loci, fingerprint ${piece.dataset.fingerprint} against ${first.piece.dataset.fingerprint})`,
      );
    }
    if (planKey(piece.options) !== planKey(first.piece.options)) {
      const { kValues: _a, ...a } = piece.options;
      const { kValues: _b, ...b } = first.piece.options;
      throw new RangeError(`${name}: other options than ${first.name}: ${firstDifference(a, b)}`);
    }
  }
  if (data && datasetFingerprint(data) !== first.piece.dataset.fingerprint) {
    throw new RangeError(`${first.name}: the dataset read for the merge is not the one the pieces were computed on`);
  }
}

/**
 * Gathers pieces into the runs of a sweep (sorted by K and replicate) and its options. Refuses
 * overlapping or missing starts and missing replicates (and missing K when `expectK` is given),
 * naming the pieces concerned.
 */
export async function mergePieces(
  data: GenotypeData,
  pieces: readonly NamedPiece[],
  expectK?: readonly number[],
  runner?: StartRunner,
  signal?: AbortSignal,
): Promise<{ options: SweepOptions; runs: SweepRun[] }> {
  checkPieces(pieces, data);
  const plan = pieces[0]!.piece.options;
  const groups = new Map<string, NamedPiece[]>();
  for (const p of pieces) {
    const key = `${p.piece.piece.K}/${p.piece.piece.replicate}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const ks = [...new Set(pieces.map((p) => p.piece.piece.K))].sort((a, b) => a - b);
  for (const K of expectK ?? []) if (!ks.includes(K)) throw new RangeError(`no piece for K = ${K}`);
  const md = preparedData(data);
  const runs: SweepRun[] = [];
  for (const K of ks) {
    for (let r = 0; r < plan.replicates; r++) {
      const group = (groups.get(`${K}/${r}`) ?? []).sort((a, b) => a.piece.piece.from - b.piece.piece.from);
      if (group.length === 0) throw new RangeError(`K = ${K}, replicate ${r + 1}: no piece`);
      let next = 0;
      let previous = group[0]!;
      for (const g of group) {
        const { from, to } = g.piece.piece;
        if (from < next)
          throw new RangeError(
            `K = ${K}, replicate ${r + 1}: starts ${from + 1}–${Math.min(to, next)} are in both ${previous.name} and ${g.name}`,
          );
        previous = g;
        if (from > next) throw new RangeError(`K = ${K}, replicate ${r + 1}: starts ${next + 1}–${from} are missing`);
        next = to;
      }
      if (next < plan.starts)
        throw new RangeError(`K = ${K}, replicate ${r + 1}: starts ${next + 1}–${plan.starts} are missing`);
      if (group.length === 1 && group[0]!.piece.clustering) {
        runs.push({
          K,
          replicate: r,
          clustering: clusteringFrom(group[0]!.piece.clustering),
          completedStarts: group[0]!.piece.completed,
          ...runModel(plan.fit),
        });
        continue;
      }
      const bests = group.flatMap((g) => {
        if (!g.piece.best || !g.piece.starts) throw new RangeError(`${g.name}: holds no best start`);
        return [g.piece.best, ...(g.piece.rivals ?? [])].map(startFrom);
      });
      const combined = combineStarts(md, bests, 'best', startRanking(plan), plan.fit);
      const fromPieces = group.flatMap((g) => g.piece.starts!).sort((a, b) => a.index - b.index);
      // Fits made in the combination itself (auto's EMA from the best EM start) follow the
      // pieces' starts, as they follow the starts in a sweep run whole.
      const key = (s: { index: number; algorithm?: string }) => `${s.index}/${s.algorithm ?? ''}`;
      const known = new Set(fromPieces.map(key));
      const starts = [...fromPieces, ...combined.starts.filter((s) => !known.has(key(s)))];
      runs.push({
        K,
        replicate: r,
        clustering: { ...combined, starts },
        completedStarts: new Set(starts.map((s) => s.index)).size,
        ...runModel(plan.fit),
      });
    }
  }
  const options = { ...plan, kValues: ks };
  // The CV errors of the likeliest run per K, known only now: on the runner's workers where there are some.
  const withCv = runner
    ? await withCvErrorsOn(runner, data, md, runs, options, signal)
    : withCvErrors(md, runs, options);
  if (!withCv) throw new Error('cancelled');
  return { options, runs: withCv };
}
