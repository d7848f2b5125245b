import {
  CLUSTER_DEFAULTS as D,
  type Acceleration,
  type QUpdate,
  type FUpdate,
  type AdmixtureInit,
  type Algorithm,
  type EmaStarts,
  type Model,
} from '../util/choices.ts';
import type { MissingCopies } from './mixture/e-step.ts';
import { DEFAULT_PRIORS, type Priors } from './mixture/ma-step.ts';
import type { InitMethod } from './mixture/mixture-model.ts';
import { DEFAULT_TAN_DATA, type TanDataOptions } from './tan/tan-data.ts';

/** 'ema' and 'em' on the naive Bayes mixture; 'ema-tan' averages over TAN structures (model/tan/). */
export type { Algorithm };

/** Options of one start, whatever the model (the mixture's EM/EMA/EMA-TAN or the admixture model). */
export interface FitOptions {
  /** Which model a start fits (default the mixture model). */
  readonly model?: Model;
  readonly algorithm: Algorithm;
  readonly priors: Priors;
  /** Stop when the L∞ norm of the parameter change (weights and allele frequencies) is below this (default 0.01). */
  readonly epsilon: number;
  readonly maxIterations: number;
  readonly missing: MissingCopies;
  readonly init: InitMethod;
  /**
   * EMA only: during the first `warmup` iterations (default 10), an MA step that would judge
   * every marker uninformative (all w_i < ½) is replaced by an EM step. On large data a random
   * start splits the individuals almost at random, and without this guard the first MA step
   * erases the clusters (every θ_ic becomes the pooled frequency) and the start ends with one
   * effective cluster.
   */
  readonly warmup: number;
  /**
   * EMA and auto: which starts begin their MA steps after EM has converged (default 'mixed': the
   * odd-numbered ones; docs/algorithms.md §3). A single fit (fitSteps) ignores it.
   */
  readonly emaStarts?: EmaStarts;
  /** EMA-TAN: candidate parents and marker order. */
  readonly tan: TanDataOptions;
  /** Admixture: stop when ln L changes by less than this (default 1e-4). */
  readonly tolerance?: number;
  /** Admixture: how EM is accelerated (ACCELERATION). */
  readonly acceleration?: Acceleration;
  /** Admixture: how each step updates Q (Q_UPDATE). */
  readonly qUpdate?: QUpdate;
  /** Admixture: how each step updates F (F_UPDATE). */
  readonly fUpdate?: FUpdate;
  /** Admixture: how starts are drawn (ADMIXTURE_INIT; supervised fits always start at random). */
  readonly admixtureInit?: AdmixtureInit;
  /** Admixture: refine F by EMA's marker averaging under `priors` (docs/admixture.md); default off. */
  readonly markerAveraging?: boolean;
  /**
   * Admixture, supervised (ADMIXTURE's --supervised): per individual the cluster (0-based) of its
   * reference population, whose ancestry stays fixed at 1, or −1 for individuals to estimate.
   */
  readonly supervised?: readonly number[];
}

export const DEFAULT_FIT: FitOptions = {
  algorithm: D.algorithm,
  priors: DEFAULT_PRIORS,
  epsilon: D.epsilon,
  maxIterations: D.maxIterations,
  missing: D.missing,
  init: D.init,
  warmup: D.warmup,
  emaStarts: D.emaStarts,
  tan: DEFAULT_TAN_DATA,
};
