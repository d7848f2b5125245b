import type { FitOptions } from '../fit-options.ts';
import { eStep, eStepBuffers, expectedCounts, type EStepBuffers, type ExpectedCounts } from './e-step.ts';
import { countLogGammas, maStep, type CountLogGammas } from './ma-step.ts';
import type { PreparedData } from '../prepared/prepared-data.ts';
import { maxParameterChange, type MixtureModel } from './mixture-model.ts';

/**
 * What each iteration reports. `logLik` is that of the parameters the iteration started from.
 * On convergence the run returns those parameters (whose E step it has), so no extra E step is
 * spent; the update they would have received moves no parameter by more than ε.
 */
export interface StepInfo {
  readonly iteration: number;
  readonly logLik: number;
  readonly change: number;
  /** The loci this step's ln L is over, when a stage fits a subset of them (absent: every locus). */
  readonly loci?: number;
}

export interface FitResult {
  readonly model: MixtureModel;
  /** ln p(D | final model), observed copies only. */
  readonly logLik: number;
  /** shape (N, K): p(c | x_d) under the final model. */
  readonly posterior: Float64Array;
  /** shape (L,): w_i, posterior probability that locus i is informative (all 1 for EM). */
  readonly informative: Float64Array;
  readonly iterations: number;
  readonly converged: boolean;
  /** Expected counts from the final E step's posterior (absent when the iteration cap stopped the fit). */
  readonly counts?: ExpectedCounts;
}

function maxOf(xs: Float64Array): number {
  let m = -Infinity;
  for (const x of xs) if (x > m) m = x;
  return m;
}

/**
 * The arrays a fit works in (ln θ, rows, counts, the two parameter sets it alternates), about
 * 8 · Σ r_i · K bytes each: fits run one after another on the same data and K (the held-out
 * refits) can share one, so that each does not leave its own for the collector. A fit's
 * result (model, posterior, informative, counts) lives in it until the next fit with it.
 */
export interface FitScratch {
  readonly K: number;
  readonly buffers: EStepBuffers;
  readonly counts: ExpectedCounts;
  readonly models: readonly [MixtureModel, MixtureModel];
  readonly informative: Float64Array;
  logGammas?: CountLogGammas;
  rowLogLiks?: Float64Array;
}

export function fitScratch(data: PreparedData, K: number): FitScratch {
  const buffers = eStepBuffers(data, K);
  const model = (): MixtureModel => ({
    K,
    weights: new Float64Array(K),
    theta: new Float64Array(data.totalAlleles * K),
  });
  return {
    K,
    buffers,
    // Summed where the WebAssembly loops sum them, when they do (no copy out).
    counts: {
      alleleCluster: buffers.wasm?.copies?.counts ?? new Float64Array(data.totalAlleles * K),
      cluster: new Float64Array(K),
    },
    models: [model(), model()],
    informative: new Float64Array(data.L),
  };
}

/**
 * Runs EM or EMA from `init`, yielding after every iteration (so callers can report progress
 * and cancel between iterations) and returning the final model. `leftOut` (shape (N,), 1 = left
 * out) fits the other individuals only, without a copy of their codes: a left-out individual's
 * posterior row is zeroed before the counts (adding zeros leaves every sum as the fit of the
 * others alone gives it, bit for bit) and its ln p is not in logLik; its posterior row is 0.
 */
export function* fitSteps(
  data: PreparedData,
  init: MixtureModel,
  opts: FitOptions,
  leftOut?: Uint8Array,
  scratch?: FitScratch,
): Generator<StepInfo, FitResult> {
  if (opts.algorithm === 'ema-tan')
    throw new RangeError('fitSteps: EMA-TAN runs through tanFitSteps (model/tan/tan-fit.ts)');
  // 'auto' chooses between EMA and EM over the starts of a multi-start (startSteps); one fit is EMA.
  const algorithm = opts.algorithm === 'em' ? 'em' : 'ema';
  const K = init.K;
  const s = scratch ?? fitScratch(data, K);
  if (s.K !== K) throw new RangeError(`fitSteps: scratch for K = ${s.K}, model with K = ${K}`);
  let [cur, next] = s.models;
  for (const m of s.models) {
    m.weights.set(init.weights);
    m.theta.set(init.theta);
  }
  const { buffers: buf, counts } = s;
  const informative = s.informative.fill(algorithm === 'em' ? 1 : 0.5);
  const logGammas = algorithm === 'ema' ? (s.logGammas ??= countLogGammas(data, K)) : undefined;
  const rowLogLiks = leftOut ? (s.rowLogLiks ??= new Float64Array(data.N)) : undefined;
  let iterations = 0;
  let converged = false;
  let logLik = -Infinity;
  for (;;) {
    // E step of the current parameters: its posterior and likelihood belong to `cur`.
    logLik = eStep(data, cur, buf, rowLogLiks);
    if (leftOut) logLik = leaveOut(buf.posterior, rowLogLiks!, leftOut, K);
    if (iterations >= opts.maxIterations) break;
    expectedCounts(data, cur, buf.posterior, opts.missing, counts, buf);
    maStep(data, counts, K, opts.priors, algorithm, next, informative, logGammas);
    if (algorithm === 'ema' && iterations < opts.warmup && maxOf(informative) < 0.5) {
      // The split does not follow the data yet (every marker judged uninformative): an EM
      // step instead, so that the clusters are not erased before they can form.
      maStep(data, counts, K, opts.priors, 'em', next, informative);
      informative.fill(0.5);
    }
    const change = maxParameterChange(cur, next);
    iterations++;
    yield { iteration: iterations, logLik, change };
    if (change < opts.epsilon) {
      // Converged: keep `cur`, whose E step is fresh (the update moved no parameter by ε).
      converged = true;
      break;
    }
    [cur, next] = [next, cur];
  }
  return {
    model: cur,
    logLik,
    posterior: buf.posterior,
    informative,
    iterations,
    converged,
    ...(converged ? { counts } : {}),
  };
}

/** Zeroes the posterior rows of the left-out individuals; returns Σ ln p(x_d) over the others. */
function leaveOut(posterior: Float64Array, rowLogLiks: Float64Array, leftOut: Uint8Array, K: number): number {
  let ll = 0;
  for (let d = 0; d < leftOut.length; d++) {
    if (leftOut[d]) posterior.fill(0, d * K, (d + 1) * K);
    else ll += rowLogLiks[d]!;
  }
  return ll;
}

/** Runs a step generator (fitSteps, startSteps) to the end and returns its result. */
export function runToEnd<R>(steps: Generator<unknown, R>): R {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Re-yields a step generator's steps with their iterations numbered after `offset` earlier ones. */
export function* offsetSteps<S extends { readonly iteration: number }, R>(
  steps: Generator<S, R>,
  offset: number,
): Generator<S, R> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    yield { ...r.value, iteration: r.value.iteration + offset };
  }
}

/** Runs {@link fitSteps} to the end. */
export function fit(
  data: PreparedData,
  init: MixtureModel,
  opts: FitOptions,
  leftOut?: Uint8Array,
  scratch?: FitScratch,
): FitResult {
  return runToEnd(fitSteps(data, init, opts, leftOut, scratch));
}

/**
 * A model from a membership matrix Q (shape (N, K), rows summing to 1): one M/MA step on the
 * counts Q implies. Used to continue a previous result or to start from population labels.
 */
export function modelFromMemberships(data: PreparedData, Q: Float64Array, K: number, opts: FitOptions): MixtureModel {
  if (Q.length !== data.N * K)
    throw new RangeError(`modelFromMemberships: Q has ${Q.length} values, expected N × K = ${data.N * K}`);
  const placeholder: MixtureModel = {
    K,
    weights: new Float64Array(K).fill(1 / K),
    theta: new Float64Array(data.totalAlleles * K).fill(1),
  };
  const counts = expectedCounts(data, placeholder, Q, 'skip');
  const out: MixtureModel = { K, weights: new Float64Array(K), theta: new Float64Array(data.totalAlleles * K) };
  maStep(data, counts, K, opts.priors, opts.algorithm === 'em' ? 'em' : 'ema', out, new Float64Array(data.L).fill(0.5));
  return out;
}
