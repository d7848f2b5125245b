import type { FitOptions } from '../fit-options.ts';
import { eStep, eStepBuffers, expectedCounts, type ExpectedCounts } from './e-step.ts';
import { countLogGammas, maStep } from './ma-step.ts';
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

function cloneModel(m: MixtureModel): MixtureModel {
  return { K: m.K, weights: Float64Array.from(m.weights), theta: Float64Array.from(m.theta) };
}

/**
 * Runs EM or EMA from `init`, yielding after every iteration (so callers can report progress
 * and cancel between iterations) and returning the final model.
 */
export function* fitSteps(data: PreparedData, init: MixtureModel, opts: FitOptions): Generator<StepInfo, FitResult> {
  if (opts.algorithm === 'ema-tan')
    throw new RangeError('fitSteps: EMA-TAN runs through tanFitSteps (model/tan/tan-fit.ts)');
  // 'auto' chooses between EMA and EM over the starts of a multi-start (startSteps); one fit is EMA.
  const algorithm = opts.algorithm === 'em' ? 'em' : 'ema';
  const K = init.K;
  let cur = cloneModel(init);
  let next = cloneModel(init);
  const buf = eStepBuffers(data, K);
  const counts = { alleleCluster: new Float64Array(data.totalAlleles * K), cluster: new Float64Array(K) };
  const informative = new Float64Array(data.L).fill(algorithm === 'em' ? 1 : 0.5);
  const logGammas = algorithm === 'ema' ? countLogGammas(data, K) : undefined;
  let iterations = 0;
  let converged = false;
  let logLik = -Infinity;
  for (;;) {
    // E step of the current parameters: its posterior and likelihood belong to `cur`.
    logLik = eStep(data, cur, buf);
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

/** Runs a step generator (fitSteps, startSteps) to the end and returns its result. */
export function runToEnd<R>(steps: Generator<unknown, R>): R {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs {@link fitSteps} to the end. */
export function fit(data: PreparedData, init: MixtureModel, opts: FitOptions): FitResult {
  return runToEnd(fitSteps(data, init, opts));
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
