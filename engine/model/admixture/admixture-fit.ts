import {
  CLUSTER_DEFAULTS,
  type Acceleration,
  type AdmixtureInit,
  type FUpdate,
  type QUpdate,
} from '../../util/choices.ts';
import { fit as fitMixture } from '../mixture/fit.ts';
import { DEFAULT_FIT, type FitOptions } from '../fit-options.ts';
import { gammaDraw, type Rng } from '../../util/rng.ts';
import type { PreparedData } from '../prepared/prepared-data.ts';
import { randomModel } from '../mixture/mixture-model.ts';
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
import { qNewtonStep, qNewtonWork } from './q-newton.ts';
import { fNewtonStep, fNewtonWork, fStepLogLik } from './f-newton.ts';

/**
 * The map the accelerators extrapolate: writes the update of `cur` into `out` (every row of Q and
 * every block of F on its simplex, ln L(out) ≥ ln L(cur)) and returns ln L(cur).
 */
export type AdmixtureStep = (cur: AdmixtureParams, out: AdmixtureParams) => number;

/**
 * The map and, where it is cheaper than the map, ln L(cur) alone with the same bits as the
 * map returns it (SQUAREM tests an extrapolated point with it before it maps from there).
 */
export interface AdmixtureMap {
  readonly step: AdmixtureStep;
  readonly logLik?: (cur: AdmixtureParams) => number;
}

/**
 * 'auto' resolved: Newton, except under Anderson acceleration, whose extrapolations can leave a
 * frequency so small that the fit stalls with Newton's Q update (0.007 below the optimum in
 * tests/model/admixture.test.ts's case). Chosen on docs/admixture-q-update.md: on SNP data Newton
 * was 1.1–13 × faster to the same or a higher ln L; on eHGDP (microsatellites, K = 2..8 × 3 seeds)
 * 1.5 × faster in all, with a higher best ln L over the seeds at K = 7 and 8 and a lower one at
 * K = 5 and 6 (by 9 and 15).
 */
export function resolvedQUpdate(qUpdate: QUpdate, acceleration: Acceleration = 'squarem'): 'newton' | 'em' {
  if (qUpdate !== 'auto') return qUpdate;
  return acceleration === 'anderson' ? 'em' : 'newton';
}

/**
 * 'auto' resolved: Newton, except under Anderson acceleration (as for Q). Chosen on
 * docs/admixture-f-update.md: with F by EM, EM's F update crawls when individuals are admixed
 * between similar clusters (on eHGDP every start at K = 8 was still climbing after 500 SQUAREM
 * cycles); with F by Newton the same sweep ends sooner and no lower.
 */
export function resolvedFUpdate(fUpdate: FUpdate, acceleration: Acceleration = 'squarem'): 'newton' | 'em' {
  if (fUpdate !== 'auto') return fUpdate;
  return acceleration === 'anderson' ? 'em' : 'newton';
}

/**
 * The step of `qUpdate` and `fUpdate`. All EM: one EM step (emStep). Otherwise block relaxation
 * (ADMIXTURE's; Alexander, Novembre & Lange 2009): F first — by the EM step, or by one safeguarded
 * Newton step per locus with Q fixed (f-newton.ts) — then Q at the new F, by the EM step's update
 * or by one safeguarded Newton step per individual (q-newton.ts). Every one never lowers ln L: the
 * EM update of F with Q held fixed maximises the same minorizer in F, and no locus's or individual's
 * Newton step is kept unless its likelihood rises. A Newton step costs a few EM passes; how many
 * fewer steps it needs depends on the data (docs/admixture-q-update.md, docs/admixture-f-update.md).
 * With a Newton step, the map also gives ln L alone (an EM pass with F by EM, else F's ln L pass:
 * fStepLogLik), the bits the step returns, for SQUAREM's test of an extrapolated point.
 */
export function admixtureStep(
  md: PreparedData,
  work: AdmixtureWork,
  K: number,
  options: Pick<AdmixtureFitOptions, 'qUpdate' | 'fUpdate' | 'acceleration'>,
): AdmixtureMap {
  const q = resolvedQUpdate(options.qUpdate, options.acceleration);
  const f = resolvedFUpdate(options.fUpdate, options.acceleration);
  if (K < 2 || (q === 'em' && f === 'em')) return { step: (cur, out) => emStep(md, work, cur, out) };
  const qScratch = qNewtonWork(md.N, K);
  if (f === 'em') {
    const scratch = emptyParams(md, K);
    return {
      step: (cur, out) => {
        const ll = emStep(md, work, cur, out);
        out.Q.set(cur.Q);
        qNewtonStep(md, work, K, out.Q, out.F, qScratch);
        return ll;
      },
      // The EM pass alone (its update unused), without Q's Newton step.
      logLik: (cur) => emStep(md, work, cur, scratch),
    };
  }
  const fScratch = fNewtonWork(md, K);
  const emOut = q === 'em' ? emptyParams(md, K) : undefined;
  return {
    step: (cur, out) => {
      out.Q.set(cur.Q);
      out.F.set(cur.F);
      const ll = fNewtonStep(md, work, K, out.Q, out.F, fScratch);
      if (emOut) {
        // Q by the EM update at the new F (its F half is not used).
        emStep(md, work, out, emOut);
        out.Q.set(emOut.Q);
      } else qNewtonStep(md, work, K, out.Q, out.F, qScratch);
      return ll;
    },
    logLik: (cur) => fStepLogLik(md, work, K, cur.Q, cur.F),
  };
}

/**
 * 'auto' resolved: random when both blocks take Newton steps, else the mixture-model start. Chosen
 * on docs/admixture-starts.md (Newton updates; eHGDP, nancycats, simulated SNPs and
 * microsatellites, 24 cases of 10 starts): random starts reached the best ln L of the two on 18
 * cases, mixture starts on 11; random's worst shortfall was 11 (simulated SNPs, K = 5), the mixture
 * start's 1,266 (eHGDP, K = 8, where every mixture start ended in a poorer optimum); random took
 * 8 % more time in the report's run (14 % in an earlier one). With EM updates the mixture start is
 * the faster (2–3.5 × fewer passes, docs/admixture.md): from random Q the EM map first sits on the
 * saddle where all clusters look alike.
 */
export function resolvedAdmixtureInit(
  init: AdmixtureInit,
  options: Pick<FitOptions, 'qUpdate' | 'fUpdate' | 'acceleration'>,
): 'mixture' | 'random' {
  if (init !== 'auto') return init;
  const acceleration = options.acceleration ?? CLUSTER_DEFAULTS.acceleration;
  const newton =
    resolvedQUpdate(options.qUpdate ?? CLUSTER_DEFAULTS.qUpdate, acceleration) === 'newton' &&
    resolvedFUpdate(options.fUpdate ?? CLUSTER_DEFAULTS.fUpdate, acceleration) === 'newton';
  return newton ? 'random' : 'mixture';
}

/** The admixture fit's options from a multi-start's: defaults filled in, marker averaging under its priors. */
export function admixtureFitOptions(fit: FitOptions): AdmixtureFitOptions {
  return {
    tolerance: fit.tolerance ?? CLUSTER_DEFAULTS.tolerance,
    maxIterations: fit.maxIterations,
    acceleration: fit.acceleration ?? CLUSTER_DEFAULTS.acceleration,
    qUpdate: fit.qUpdate ?? CLUSTER_DEFAULTS.qUpdate,
    fUpdate: fit.fUpdate ?? CLUSTER_DEFAULTS.fUpdate,
    ...(fit.markerAveraging ? { averaging: fit.priors } : {}),
  };
}

/** Random start: Q rows from a flat Dirichlet, F around the pooled frequencies (as the mixture's 'data' start). */
export function randomAdmixture(
  md: PreparedData,
  K: number,
  rng: Rng,
  fixedQ?: { rows: Uint8Array; Q: Float64Array },
): AdmixtureParams {
  const F = randomModel(md, K, rng, 'data').theta;
  const Q = new Float64Array(md.N * K);
  for (let i = 0; i < md.N; i++) {
    if (fixedQ?.rows[i]) {
      for (let k = 0; k < K; k++) Q[i * K + k] = fixedQ.Q[i * K + k]!;
      continue;
    }
    let s = 0;
    for (let k = 0; k < K; k++) {
      const x = gammaDraw(1, rng) + 1e-12;
      Q[i * K + k] = x;
      s += x;
    }
    for (let k = 0; k < K; k++) Q[i * K + k]! /= s;
  }
  const params = { K, Q, F };
  projectToSimplex(md, params, fixedQ?.rows);
  return params;
}

/** Share of the uniform distribution in a mixture start's ancestry (the rest: the memberships). */
const MIXTURE_START_SOFTENING = 0.5;

/**
 * A start of the admixture model as `fit.admixtureInit` says (resolvedAdmixtureInit). 'mixture':
 * EM of the mixture model (every marker informative) from the random parameters this rng draws, to
 * convergence; Q is its memberships moved halfway to uniform (hard memberships would pin ancestry
 * at the simplex's corners, where EM moves slowly), F its clusters' frequencies. Supervised fits
 * (`fixedQ`) start at random: their clusters are pinned by the reference individuals, not by a
 * clustering.
 */
export function admixtureStart(
  md: PreparedData,
  K: number,
  rng: Rng,
  fit: FitOptions,
  fixedQ?: { rows: Uint8Array; Q: Float64Array },
): AdmixtureParams {
  if (resolvedAdmixtureInit(fit.admixtureInit ?? CLUSTER_DEFAULTS.admixtureInit, fit) === 'random' || fixedQ)
    return randomAdmixture(md, K, rng, fixedQ);
  const mixture = fitMixture(md, randomModel(md, K, rng, fit.init), {
    ...DEFAULT_FIT,
    model: 'mixture',
    algorithm: 'em',
    missing: fit.missing,
    epsilon: fit.epsilon,
    maxIterations: fit.maxIterations,
  });
  const Q = new Float64Array(md.N * K);
  for (let j = 0; j < Q.length; j++)
    Q[j] = (1 - MIXTURE_START_SOFTENING) * mixture.posterior[j]! + MIXTURE_START_SOFTENING / K;
  const params = { K, Q, F: Float64Array.from(mixture.model.theta) };
  projectToSimplex(md, params);
  return params;
}

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
  const ml =
    o.acceleration === 'anderson'
      ? yield* andersonFitSteps(md, work, init, o, map.step)
      : yield* squaremFitSteps(md, work, init, o, map);
  return o.averaging ? yield* markerAveragingSteps(md, work, ml, o, o.averaging) : ml;
}

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
