import { CLUSTER_DEFAULTS, type StartAlgorithm } from '../util/choices.ts';
import { admixtureWork, type AdmixtureWork } from './admixture/admixture.ts';
import { admixtureFitSteps } from './admixture/admixture-fit.ts';
import {
  admixtureFitOptions,
  admixtureStart,
  membershipAdmixture,
  resolvedAdmixtureInit,
} from './admixture/admixture-start.ts';
import { subsetStage } from './admixture/subset-stage.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import { logEvidence } from './mixture/evidence.ts';
import { fitSteps, modelFromMemberships, offsetSteps, runToEnd, type FitResult, type StepInfo } from './mixture/fit.ts';
import { type FitOptions } from './fit-options.ts';
import { preparedData, type PreparedData } from './prepared/prepared-data.ts';
import { randomModel, type MixtureModel } from './mixture/mixture-model.ts';
import { createRng, deriveSeed } from '../util/rng.ts';
import { tanData, type TanData, type TanDataOptions } from './tan/tan-data.ts';
import { tanFitSteps, type ParentWeights } from './tan/tan-fit.ts';
import { randomTanModel } from './tan/tan-model.ts';

/** What a start needs: the naive Bayes view of the data and, for EMA-TAN, its TAN variables. */
export interface StartContext {
  /** The dataset, where the context was made from one (bootstrap replicates resample its markers). */
  readonly data?: GenotypeData;
  readonly md: PreparedData;
  tan(o: TanDataOptions): TanData;
  /** The admixture model's per-dataset constants (built on first use). */
  admixtureWork(): AdmixtureWork;
}

/**
 * A start context over a dataset: its preparation `prepared` (made on first use when not given:
 * tasks that read only the genotypes, such as assignment folds, never make it); TAN variables are
 * built on first use and cached per option set.
 */
export function startContext(data: GenotypeData, prepared?: PreparedData): StartContext {
  const cache = new Map<string, TanData>();
  let work: AdmixtureWork | undefined;
  let md = prepared;
  const mdOf = () => (md ??= preparedData(data));
  return {
    data,
    get md() {
      return mdOf();
    },
    admixtureWork: () => (work ??= admixtureWork(mdOf())),
    tan(o) {
      const key = `${o.window}/${o.order}/${o.orderSeed}`;
      let td = cache.get(key);
      if (!td) {
        td = tanData(data, o);
        cache.set(key, td);
      }
      return td;
    },
  };
}

/**
 * A start context over prepared data alone: what mixture and admixture starts read (EMA-TAN and
 * bootstrap replicates need the genotype data, {@link startContext}).
 */
export function preparedContext(md: PreparedData): StartContext {
  return asContext(md);
}

function asContext(x: PreparedData | StartContext): StartContext {
  if ('md' in x) return x;
  let work: AdmixtureWork | undefined;
  return {
    md: x,
    admixtureWork: () => (work ??= admixtureWork(x)),
    tan: () => {
      throw new RangeError('EMA-TAN needs the genotype data: use startContext(data)');
    },
  };
}

/**
 * The allele-level summary of a clustering (cluster weights and allele frequencies per cluster
 * from the memberships), used for .P files, F_ST and marker ranking whatever the algorithm.
 */
export function summaryModel(md: PreparedData, posterior: Float64Array, K: number, opts: FitOptions): MixtureModel {
  return modelFromMemberships(md, posterior, K, { ...opts, algorithm: 'em' });
}

/** The outcome of one start. */
export interface StartResult {
  readonly index: number;
  readonly seed: number;
  readonly logLik: number;
  /**
   * What best choice ranks starts by (see {@link RankBy}): for EM and EMA the Cheeseman–Stutz
   * approximation of ln p(D) ({@link logEvidence}); for EMA-TAN ln p(D | θ̂).
   */
  readonly score: number;
  readonly iterations: number;
  readonly converged: boolean;
  readonly model: MixtureModel;
  /** shape (N, K). */
  readonly posterior: Float64Array;
  /** shape (L,). */
  readonly informative: Float64Array;
  /** EMA-TAN only: posterior weight of each marker's parent sets (a linkage map). */
  readonly linkage?: readonly ParentWeights[];
  /** The naive Bayes mixture: the algorithm of this fit (EMA or EM). */
  readonly algorithm?: StartAlgorithm;
}

/** The seed of start `index` of replicate `replicate` at K (independent of threads and order). */
export function startSeed(runSeed: number, K: number, replicate: number, index: number): number {
  return deriveSeed(runSeed, K, replicate, index);
}

/**
 * One start, as a generator of iterations: from random parameters drawn with `seed`, or — a
 * structured start — from `memberships` (each individual's cluster, 0..K − 1: a clustering of the
 * data's own structure, analysis/structured-start.ts). EMA-TAN starts at random either way.
 */
export function* startSteps(
  context: PreparedData | StartContext,
  K: number,
  opts: FitOptions,
  index: number,
  seed: number,
  memberships?: Int32Array,
): Generator<StepInfo, StartResult> {
  const ctx = asContext(context);
  if (opts.algorithm === 'ema-tan') {
    const td = ctx.tan(opts.tan);
    const init = randomTanModel(td, K, createRng(seed));
    const r = yield* tanFitSteps(td, init, {
      alpha: opts.priors.alpha,
      alphaCluster: opts.priors.alphaCluster,
      epsilon: opts.epsilon,
      maxIterations: opts.maxIterations,
      warmup: opts.warmup,
      onlyC: false,
    });
    const informative = new Float64Array(ctx.md.L);
    for (const p of r.parentWeights) informative[p.locus] = p.cluster;
    const posterior = Float64Array.from(r.posterior);
    return {
      index,
      seed,
      logLik: r.logLik,
      score: r.logLik,
      iterations: r.iterations,
      converged: r.converged,
      model: summaryModel(ctx.md, posterior, K, opts),
      posterior,
      informative,
      linkage: r.parentWeights,
    };
  }
  if (opts.model === 'admixture') return yield* admixtureStartSteps(ctx, K, opts, index, seed, memberships);
  if (memberships)
    return yield* mixtureStartFrom(
      ctx.md,
      membershipModel(ctx.md, oneHot(ctx.md, memberships, K), K, opts),
      opts,
      index,
      seed,
    );
  return yield* mixtureStartSteps(ctx.md, K, opts, index, seed);
}

/** One-hot memberships (N × K) of a clustering given as each individual's cluster. */
function oneHot(md: PreparedData, memberships: Int32Array, K: number): Float64Array {
  if (memberships.length !== md.N)
    throw new RangeError(`start: memberships for ${memberships.length} individuals, but the data has ${md.N}`);
  const Q = new Float64Array(memberships.length * K);
  memberships.forEach((k, i) => {
    if (!(k >= 0 && k < K)) throw new RangeError(`start: individual ${i + 1}'s cluster ${k} is not in 0..${K - 1}`);
    Q[i * K + k] = 1;
  });
  return Q;
}

/** The mixture model of a clustering (one-hot, N × K): its clusters' allele frequencies (with the priors) and sizes. */
function membershipModel(md: PreparedData, Q: Float64Array, K: number, opts: FitOptions): MixtureModel {
  return modelFromMemberships(md, Q, K, { ...opts, algorithm: 'em' });
}

/**
 * Whether EMA start `index` begins its MA steps only after EM has converged (docs/algorithms.md
 * §3): under 'mixed' (default) the odd-numbered starts do.
 */
export function startsAfterEm(opts: FitOptions, index: number): boolean {
  if (opts.algorithm === 'em') return false;
  const when = opts.emaStarts ?? CLUSTER_DEFAULTS.emaStarts;
  return when === 'after-em' || (when === 'mixed' && index % 2 === 1);
}

/**
 * One start of the naive Bayes mixture: EM, or EMA from random parameters, or — for the starts
 * {@link startsAfterEm} picks — EM to convergence and then EMA from EM's clusters. Under 'auto'
 * a start is an EM start: EMA runs once per multi-start, from the best of them, when the starts
 * are combined ({@link emaFromBestEm}).
 */
function* mixtureStartSteps(
  md: PreparedData,
  K: number,
  opts: FitOptions,
  index: number,
  seed: number,
): Generator<StepInfo, StartResult> {
  return yield* mixtureStartFrom(md, randomModel(md, K, createRng(seed), opts.init), opts, index, seed);
}

/**
 * A mixture start from given parameters, as a start from random ones runs (the same algorithms):
 * `--init-q` continues a clustering through it.
 */
export function continueStart(md: PreparedData, init: MixtureModel, opts: FitOptions): StartResult {
  return runToEnd(mixtureStartFrom(md, init, opts, 0, 0));
}

/** A mixture fit as a start's result, scored by its evidence. */
function finishStart(
  md: PreparedData,
  opts: FitOptions,
  r: FitResult,
  algorithm: StartAlgorithm,
  iterations: number,
  index: number,
  seed: number,
): StartResult {
  return {
    index,
    seed,
    logLik: r.logLik,
    score: logEvidence(
      md,
      r.model,
      r.posterior,
      r.logLik,
      r.informative,
      algorithm,
      opts.priors,
      opts.missing,
      r.counts,
    ),
    iterations,
    converged: r.converged,
    model: r.model,
    posterior: Float64Array.from(r.posterior),
    informative: r.informative,
    algorithm,
  };
}

function* mixtureStartFrom(
  md: PreparedData,
  init: MixtureModel,
  opts: FitOptions,
  index: number,
  seed: number,
): Generator<StepInfo, StartResult> {
  if (opts.algorithm === 'em' || opts.algorithm === 'auto') {
    const r = yield* fitSteps(md, init, { ...opts, algorithm: 'em' });
    return finishStart(md, opts, r, 'em', r.iterations, index, seed);
  }
  const ema = { ...opts, algorithm: 'ema' } as const;
  if (!startsAfterEm(opts, index)) {
    const a = yield* fitSteps(md, init, ema);
    return finishStart(md, opts, a, 'ema', a.iterations, index, seed);
  }
  const em = yield* fitSteps(md, init, { ...opts, algorithm: 'em' });
  return yield* emaAfterEm(md, em, em.iterations, opts, index, seed);
}

/**
 * EMA continued from an EM fit's clusters, sharing the iteration cap with the EM phase (as the
 * starts of a mixed EMA multi-start that begin their MA steps after EM do).
 */
function* emaAfterEm(
  md: PreparedData,
  em: { readonly model: MixtureModel },
  done: number,
  opts: FitOptions,
  index: number,
  seed: number,
): Generator<StepInfo, StartResult> {
  const a = yield* offsetSteps(
    fitSteps(md, em.model, { ...opts, algorithm: 'ema', maxIterations: Math.max(0, opts.maxIterations - done) }),
    done,
  );
  return finishStart(md, opts, a, 'ema', done + a.iterations, index, seed);
}

/** EMA continued from an EM start (auto's EMA candidate); its index and seed are the EM start's. */
export function emaFromEmStart(md: PreparedData, em: StartResult, opts: FitOptions): StartResult {
  return runToEnd(emaAfterEm(md, em, em.iterations, opts, em.index, em.seed));
}

/**
 * Supervised mode: the rows of Q that stay fixed, one-hot on each reference individual's cluster
 * (`supervised[i]`, −1 for individuals whose proportions are estimated).
 */
export function supervisedRows(supervised: ArrayLike<number>, K: number): { rows: Uint8Array; Q: Float64Array } {
  const N = supervised.length;
  const rows = new Uint8Array(N);
  const Q = new Float64Array(N * K);
  for (let i = 0; i < N; i++) {
    const k = supervised[i]!;
    if (k < 0) continue;
    if (!Number.isInteger(k) || k >= K)
      throw new RangeError(`supervised: individual ${i + 1} is in cluster ${k + 1}, but K = ${K}`);
    rows[i] = 1;
    Q[i * K + k] = 1;
  }
  return { rows, Q };
}

/**
 * One start of the admixture model: Q is the ancestry proportions (the "posterior" of the
 * mixture's results), the summary model's weights are the clusters' mean ancestry (what F_ST per K
 * weights them by) and its frequencies F. Ranked by ln L.
 */
function* admixtureStartSteps(
  ctx: StartContext,
  K: number,
  opts: FitOptions,
  index: number,
  seed: number,
  memberships?: Int32Array,
): Generator<StepInfo, StartResult> {
  const md = ctx.md;
  const known = opts.supervised ? supervisedRows(opts.supervised, K) : undefined;
  const work = known ? admixtureWork(md, undefined, known.rows) : ctx.admixtureWork();
  const structured = memberships && !known ? oneHot(md, memberships, K) : undefined;
  const drawn = structured
    ? membershipAdmixture(md, structured, membershipModel(md, structured, K, opts))
    : admixtureStart(md, K, createRng(seed), opts, known);
  const fitOptions = admixtureFitOptions(opts);
  // Random and structured starts on many loci are first fitted on a subset of them
  // (subset-stage.ts; a structured start so takes 32 steps on all loci instead of 42 at K = 2 on
  // 324 × 14,000 SNPs, the same optimum); starts from a mixture fit are near enough already.
  const onSubsetFirst =
    structured !== undefined ||
    known !== undefined ||
    resolvedAdmixtureInit(opts.admixtureInit ?? CLUSTER_DEFAULTS.admixtureInit, opts) === 'random';
  let subsetSteps = 0;
  let init = drawn;
  if (onSubsetFirst) {
    const stage = subsetStage(md, work, drawn, fitOptions);
    for (let s = stage.next(); ; s = stage.next()) {
      if (s.done) {
        init = s.value;
        break;
      }
      subsetSteps++;
      yield { ...s.value, iteration: subsetSteps };
    }
  }
  // Iterations on all loci are numbered after the subset's.
  const r = yield* offsetSteps(admixtureFitSteps(md, work, init, fitOptions), subsetSteps);
  const weights = new Float64Array(K);
  for (let i = 0; i < md.N; i++) for (let k = 0; k < K; k++) weights[k]! += r.params.Q[i * K + k]! / md.N;
  const model = { K, weights, theta: r.params.F };
  const informative = r.informative ?? new Float64Array(md.L).fill(1);
  return {
    index,
    seed,
    logLik: r.logLik,
    score: r.logLik,
    iterations: r.iterations,
    converged: r.converged,
    model,
    posterior: r.params.Q,
    informative,
  };
}

/** Runs one start to the end (a structured start with `memberships`: startSteps). */
export function runStart(
  data: PreparedData | StartContext,
  K: number,
  opts: FitOptions,
  index: number,
  seed: number,
  memberships?: Int32Array,
): StartResult {
  return runToEnd(startSteps(data, K, opts, index, seed, memberships));
}

/** Summary of a start kept in results. */
export type StartSummary = Pick<
  StartResult,
  'index' | 'seed' | 'logLik' | 'score' | 'iterations' | 'converged' | 'algorithm'
>;

/** What results keep of a start (no parameters). */
export function startSummary(s: StartSummary): StartSummary {
  const { index, seed, logLik, score, iterations, converged, algorithm } = s;
  return { index, seed, logLik, score, iterations, converged, ...(algorithm ? { algorithm } : {}) };
}
