// Where an admixture fit starts: its options from a start's FitOptions and its starting point
// (random Dirichlet draws, or a mixture model's memberships).
import { CLUSTER_DEFAULTS, type AdmixtureInit } from '../../util/choices.ts';
import { fit as fitMixture } from '../mixture/fit.ts';
import { DEFAULT_FIT, type FitOptions } from '../fit-options.ts';
import { gammaDraw, type Rng } from '../../util/rng.ts';
import type { PreparedData } from '../prepared/prepared-data.ts';
import { randomModel, type MixtureModel } from '../mixture/mixture-model.ts';
import { projectToSimplex, type AdmixtureParams, type AdmixtureFitOptions } from './admixture.ts';

import { resolvedFUpdate, resolvedQUpdate } from './admixture-step.ts';
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
    resolvedQUpdate(
      options.qUpdate ?? CLUSTER_DEFAULTS.qUpdate,
      acceleration,
      options.fUpdate ?? CLUSTER_DEFAULTS.fUpdate,
    ) === 'newton' && resolvedFUpdate(options.fUpdate ?? CLUSTER_DEFAULTS.fUpdate) === 'newton';
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
  return membershipAdmixture(md, mixture.posterior, mixture.model);
}

/**
 * An admixture start from a clustering: Q its memberships (N × K) moved halfway to uniform, F its
 * clusters' frequencies (`model.theta`).
 */
export function membershipAdmixture(md: PreparedData, memberships: Float64Array, model: MixtureModel): AdmixtureParams {
  const K = model.K;
  const Q = new Float64Array(md.N * K);
  for (let j = 0; j < Q.length; j++)
    Q[j] = (1 - MIXTURE_START_SOFTENING) * memberships[j]! + MIXTURE_START_SOFTENING / K;
  const params = { K, Q, F: Float64Array.from(model.theta) };
  projectToSimplex(md, params);
  return params;
}
