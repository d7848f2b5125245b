import type { PreparedData } from '../prepared/prepared-data.ts';
import type { Priors } from '../mixture/ma-step.ts';
import {
  cloneParams,
  emptyParams,
  emStep,
  markerAveraging,
  projectToSimplex,
  type AdmixtureParams,
  type AdmixtureWork,
  type AdmixtureFitOptions,
  type AdmixtureFitResult,
  type AdmixtureStepInfo,
} from './admixture.ts';
export type { AdmixtureFitOptions, AdmixtureFitResult, AdmixtureStepInfo } from './admixture.ts';
import { andersonFitSteps } from './anderson.ts';
import { offsetSteps } from '../mixture/fit.ts';

import { admixtureStep, resolvedAcceleration, type AdmixtureMap } from './admixture-step.ts';
/** SQUAREM's step-length factor (the R package's mstep). */
const STEP_FACTOR = 4;

/** A rejected extrapolation with a cheap test is retried at α → −√|α| while |α| is above this. */
const BACKTRACK_ABOVE = 1.5;

function norm2(a: Float64Array, b: Float64Array, c?: Float64Array): number {
  let s = 0;
  if (c) for (let j = 0; j < a.length; j++) s += (a[j]! - 2 * b[j]! + c[j]!) ** 2;
  else for (let j = 0; j < a.length; j++) s += (a[j]! - b[j]!) ** 2;
  return s;
}

/**
 * Maximum likelihood of Q and F by steps that never lower ln L (admixtureStep: EM, or EM for F and
 * Newton for Q), accelerated by SQUAREM (the default; Varadhan & Roland 2008, scheme S3) or by
 * Anderson acceleration (anderson.ts), then refined by marker averaging when `o.averaging` is set.
 * SQUAREM: from θ0, two steps give θ1, θ2; with r = θ1 − θ0, v = θ2 − 2θ1 + θ0 and
 * α = −min(stepMax, max(1, ‖r‖/‖v‖)), the extrapolation θ′ = θ0 − 2αr + α²v is projected into
 * the simplex and stabilised by one step (θ″). θ″ is accepted when ln L(θ′) ≥ ln L(θ1), else
 * θ2: a step never lowers ln L, so every accepted step is at least as likely as the one before.
 * Step-length control as in the SQUAREM package: stepMax starts at 1, grows fourfold after an
 * accepted step that used it and shrinks fourfold after a rejected one (unbounded steps near
 * convergence overshoot and are rejected every time, which leaves plain EM). Yields after every
 * accepted step (progress and cancellation between steps).
 */
export function* admixtureFitSteps(
  md: PreparedData,
  work: AdmixtureWork,
  init: AdmixtureParams,
  o: AdmixtureFitOptions,
): Generator<AdmixtureStepInfo, AdmixtureFitResult> {
  const map = admixtureStep(md, work, init.K, o);
  const acceleration = resolvedAcceleration(o.acceleration, md.L, o.qUpdate, o.fUpdate);
  let ml: AdmixtureFitResult;
  if (acceleration !== 'anderson') ml = yield* squaremFitSteps(md, work, init, { ...o, acceleration }, map);
  else if (o.acceleration !== 'auto') ml = yield* andersonFitSteps(md, work, init, o, map);
  else {
    // 'auto': Anderson for its first ANDERSON_STEPS steps, then SQUAREM from where it stands.
    const first = yield* andersonFitSteps(
      md,
      work,
      init,
      { ...o, maxIterations: Math.min(o.maxIterations, ANDERSON_STEPS) },
      map,
    );
    if (first.converged || first.iterations >= o.maxIterations) ml = first;
    else {
      const rest = yield* offsetSteps(
        squaremFitSteps(
          md,
          work,
          first.params,
          { ...o, acceleration: 'squarem', maxIterations: o.maxIterations - first.iterations },
          map,
        ),
        first.iterations,
      );
      ml = { ...rest, iterations: first.iterations + rest.iterations, emSteps: first.emSteps + rest.emSteps };
    }
  }
  return o.averaging ? yield* markerAveragingSteps(md, work, ml, o, o.averaging) : ml;
}

/**
 * Steps Anderson acceleration takes under `--acceleration auto` before a fit that has not converged
 * goes on under SQUAREM. Anderson is the faster where a fit is mostly its linear tail (where the
 * structure is there to find, fits converge in 20–40 steps), SQUAREM where a fit travels far
 * along a flat ridge (K above the structure: on 324 × 14,000 SNPs at K = 4 Anderson had not
 * converged after 500 steps, SQUAREM converged higher in 144 cycles; docs/admixture-acceleration.md).
 */
export const ANDERSON_STEPS = 50;

/** Marker-averaging passes from a converged maximum-likelihood fit (ln L is reported, not maximised). */
function* markerAveragingSteps(
  md: PreparedData,
  work: AdmixtureWork,
  ml: AdmixtureFitResult,
  o: AdmixtureFitOptions,
  priors: Priors,
): Generator<AdmixtureStepInfo, AdmixtureFitResult> {
  const K = ml.params.K;
  const averaging = markerAveraging(md, K, priors);
  let cur = cloneParams(ml.params);
  let next = emptyParams(md, K);
  let { iterations, emSteps } = ml;
  let previous = ml.logLik;
  for (let step = 0; ; step++) {
    const ll = emStep(md, work, cur, next, averaging);
    emSteps++;
    const change = ll - previous;
    const informative = averaging.informative;
    if (step > 0 && Math.abs(change) < o.tolerance)
      return { params: cur, logLik: ll, iterations, emSteps, converged: true, informative };
    if (step >= o.maxIterations) return { params: cur, logLik: ll, iterations, emSteps, converged: false, informative };
    iterations++;
    previous = ll;
    yield { iteration: iterations, logLik: ll, change };
    [cur, next] = [next, cur];
  }
}

/**
 * SQUAREM over `map.step` (or, with acceleration 'none', the plain steps); see admixtureFitSteps.
 * Where the map has a cheaper ln L (`map.logLik`: the Newton steps, docs/algorithms.md §14), the
 * extrapolated point is tested with it before a step is taken from there, and a rejected one is
 * retried nearer θ2 (α → −√|α| while |α| > BACKTRACK_ABOVE; the step-length control still follows
 * the first α): a rejection then costs an ln L pass (about an eighth of a step at K = 8 on eHGDP)
 * instead of a step, and a cycle whose first extrapolation overshoots can still extrapolate.
 */
export function* squaremFitSteps(
  md: PreparedData,
  work: AdmixtureWork,
  init: AdmixtureParams,
  o: AdmixtureFitOptions,
  map: AdmixtureMap,
): Generator<AdmixtureStepInfo, AdmixtureFitResult> {
  const { step, logLik } = map;
  const K = init.K;
  let t0 = cloneParams(init);
  let t1 = emptyParams(md, K);
  let t2 = emptyParams(md, K);
  const tp = emptyParams(md, K);
  let tpp = emptyParams(md, K);
  let previous = -Infinity;
  let emSteps = 0;
  let iterations = 0;
  let stepMax = 1;
  for (;;) {
    const ll0 = step(t0, t1);
    emSteps++;
    const change = ll0 - previous;
    if (iterations > 0 && Math.abs(change) < o.tolerance) {
      return { params: t0, logLik: ll0, iterations, emSteps, converged: true };
    }
    if (iterations >= o.maxIterations) return { params: t0, logLik: ll0, iterations, emSteps, converged: false };
    iterations++;
    previous = ll0;
    yield { iteration: iterations, logLik: ll0, change };
    if (o.acceleration === 'none') {
      [t0, t1] = [t1, t0];
      continue;
    }
    const ll1 = step(t1, t2);
    emSteps++;
    const rr = norm2(t1.Q, t0.Q) + norm2(t1.F, t0.F);
    const vv = norm2(t2.Q, t1.Q, t0.Q) + norm2(t2.F, t1.F, t0.F);
    if (!(vv > 0)) {
      [t0, t2] = [t2, t0];
      continue;
    }
    const alpha = -Math.min(stepMax, Math.max(1, Math.sqrt(rr / vv)));
    const extrapolate = (a: number, x0: Float64Array, x1: Float64Array, x2: Float64Array, out: Float64Array) => {
      for (let j = 0; j < out.length; j++) {
        const r = x1[j]! - x0[j]!;
        const v = x2[j]! - 2 * x1[j]! + x0[j]!;
        out[j] = x0[j]! - 2 * a * r + a * a * v;
      }
    };
    const passes = (ll: number) => Number.isFinite(ll) && ll >= ll1;
    // With a cheap test, a rejected extrapolation is retried nearer θ2 (α → −√|α|); without one,
    // each try would cost a whole step.
    let accepted = false;
    let firstPassed = false;
    for (let a = alpha; ; a = -Math.sqrt(-a)) {
      extrapolate(a, t0.Q, t1.Q, t2.Q, tp.Q);
      extrapolate(a, t0.F, t1.F, t2.F, tp.F);
      if (work.fixed)
        for (let i = 0; i < md.N; i++) if (work.fixed[i]) tp.Q.set(t0.Q.subarray(i * K, (i + 1) * K), i * K);
      projectToSimplex(md, tp, work.fixed, t2);
      // At α = −1 the point is θ2 itself, which passes (EM never lowers ln L): no test.
      const tested = a === -1 || !logLik ? undefined : logLik(tp);
      accepted = tested === undefined || passes(tested);
      if (accepted) {
        accepted = passes(step(tp, tpp));
        emSteps++;
      }
      if (a === alpha) firstPassed = accepted;
      if (accepted || !logLik || -a <= BACKTRACK_ABOVE) break;
    }
    if (accepted) [t0, tpp] = [tpp, t0];
    else [t0, t2] = [t2, t0];
    if (-alpha === stepMax) stepMax = firstPassed ? stepMax * STEP_FACTOR : Math.max(1, stepMax / STEP_FACTOR);
  }
}
