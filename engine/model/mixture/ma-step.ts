import { CLUSTER_DEFAULTS as D } from '../../util/choices.ts';
import { logGamma } from '../../util/log-math.ts';
import type { ExpectedCounts } from './e-step.ts';
import type { PreparedData } from '../prepared/prepared-data.ts';
import type { MixtureModel } from './mixture-model.ts';
import { detExp, detLog } from '../../util/det-math.ts';
import { detLogGammaInto } from '../../util/det-math-bulk.ts';

/** Priors of the MA step: Dirichlet hyperparameters and the structure prior. */
export interface Priors {
  /** α_ijk = α_i-k for every allele (default 1). */
  readonly alpha: number;
  /** α_C-j for every cluster (default 1). */
  readonly alphaCluster: number;
  /**
   * p_S(X_i, {C}) relative to p_S(X_i, ∅): the prior probability π that a marker depends on the
   * cluster. A number fixes it (0.5 is the text's uniform prior over the 2^n selective
   * structures). 'auto' (default) starts from 0.5 and learns π by empirical Bayes: each MA step
   * uses π = (Σ w_i + 1)/(n + 2) from the previous iteration's w_i (a Beta(1, 1) hyperprior).
   * With few individuals and few informative markers (the toy example of 8.3: 5 of 50) the
   * uniform prior lets noise markers define clusters; 'auto' does not, and with many informative
   * markers it tends to 1, where the choice hardly matters.
   */
  readonly priorInformative: number | 'auto';
}

export const DEFAULT_PRIORS: Priors = {
  alpha: D.alpha,
  alphaCluster: D.alphaCluster,
  priorInformative: D.priorInformative,
};

/**
 * The learned structure prior: the fraction of informative markers, estimated as the posterior
 * mean of a Beta(1, 1) hyperprior given the previous iteration's w_i, (Σ w_i + 1)/(n + 2).
 */
export function autoPrior(previous: Float64Array): number {
  let s = 0;
  for (const w of previous) s += w;
  return (s + 1) / (previous.length + 2);
}

/** Log marginal-likelihood factors of one locus with and without the arc C → X_i (equation 7.16 without θ̃). */
export interface LocusEvidence {
  readonly logMLDependent: number;
  readonly logMLIndependent: number;
}

/**
 * ln of the Dirichlet-multinomial factor Γ(Σα)/Γ(Σα + Σn) Π Γ(α + n_k)/Γ(α). `logGammas`, when
 * given, holds ln Γ(α + n) for each count at the same index (computed over a whole array at once).
 */
export function logDirichletFactor(
  counts: ArrayLike<number>,
  start: number,
  stride: number,
  r: number,
  alpha: number,
  logGammas?: Float64Array,
): number {
  let n = 0;
  let s = 0;
  const lga = priorLogGamma(alpha);
  for (let a = 0; a < r; a++) {
    const j = start + a * stride;
    const x = counts[j]!;
    n += x;
    s += (logGammas ? logGammas[j]! : logGamma(alpha + x)) - lga;
  }
  return s + priorLogGamma(r * alpha) - logGamma(r * alpha + n);
}

// ln Γ of the prior's α and rα, asked for with the same argument at every cluster and locus of a
// step: the last few answers kept (the same bits; a third of the MA step's ln Γ calls).
const lastGammaArgs = new Float64Array(4).fill(NaN);
const lastGammas = new Float64Array(4);
let nextGammaSlot = 0;

function priorLogGamma(x: number): number {
  for (let k = 0; k < 4; k++) if (lastGammaArgs[k] === x) return lastGammas[k]!;
  const v = logGamma(x);
  lastGammaArgs[nextGammaSlot] = x;
  lastGammas[nextGammaSlot] = v;
  nextGammaSlot = (nextGammaSlot + 1) & 3;
  return v;
}

/** Scratch for {@link locusEvidence}: room for the pooled counts of the locus with most alleles. */
export function locusScratch(data: PreparedData): Float64Array {
  return new Float64Array(data.alleles.reduce((m, r) => Math.max(m, r), 0));
}

/** ln Γ(α + n) of every expected count, shape (Σ r_i, K), and of every pooled count, shape (Σ r_i,). */
export interface CountLogGammas {
  readonly alleleCluster: Float64Array;
  readonly pooled: Float64Array;
  /** scratch, shape (Σ r_i,): the pooled counts Σ_j E(N_ijk). */
  readonly pooledCounts: Float64Array;
}

export function countLogGammas(data: PreparedData, K: number): CountLogGammas {
  return {
    alleleCluster: new Float64Array(data.totalAlleles * K),
    pooled: new Float64Array(data.totalAlleles),
    pooledCounts: new Float64Array(data.totalAlleles),
  };
}

/** Fills `out` with ln Γ(α + n) of the counts, each array at once (det-math-bulk.ts). */
export function fillCountLogGammas(counts: ExpectedCounts, K: number, alpha: number, out: CountLogGammas): void {
  const cnt = counts.alleleCluster;
  const pooled = out.pooledCounts;
  for (let t = 0; t < pooled.length; t++) {
    let s = 0;
    for (let c = 0; c < K; c++) s += cnt[t * K + c]!;
    pooled[t] = s;
  }
  detLogGammaInto(cnt, alpha, out.alleleCluster);
  detLogGammaInto(pooled, alpha, out.pooled);
}

/**
 * The marginal-likelihood factors of locus i given expected counts (equation 7.13, per locus).
 * `logGammas` (from {@link fillCountLogGammas} on the same counts) saves computing ln Γ here.
 */
export function locusEvidence(
  data: PreparedData,
  counts: ExpectedCounts,
  K: number,
  i: number,
  alpha: number,
  indep: Float64Array,
  logGammas?: CountLogGammas,
): LocusEvidence {
  const off = data.offsets[i]!;
  const r = data.alleles[i]!;
  let dep = 0;
  for (let c = 0; c < K; c++)
    dep += logDirichletFactor(counts.alleleCluster, off * K + c, K, r, alpha, logGammas?.alleleCluster);
  for (let a = 0; a < r; a++) {
    let s = 0;
    for (let c = 0; c < K; c++) s += counts.alleleCluster[(off + a) * K + c]!;
    indep[a] = s;
  }
  const pooled = logGammas ? logDirichletFactor(logGammas.pooledCounts, off, 1, r, alpha, logGammas.pooled) : undefined;
  return { logMLDependent: dep, logMLIndependent: pooled ?? logDirichletFactor(indep, 0, 1, r, alpha) };
}

/**
 * MA step (7.22, in the closed form of docs/algorithms.md §2): for every locus
 *   θ̌_ijk = w_i · θ̃_ijk + (1 − w_i) · θ̃_i−k,
 *   w_i = p_S(dep)·ML_i,dep / (p_S(dep)·ML_i,dep + p_S(indep)·ML_i,indep),
 * with θ̃ = (α + N)/(rα + N) from the expected counts; θ̌_C−j = (α_C + N_C−j)/(Kα_C + N).
 * With `algorithm` 'em' every w_i is 1 and this is the M step of EM with the same priors.
 * Writes the new parameters into `out` and w_i into `informative` (shape (L,)).
 */
export function maStep(
  data: PreparedData,
  counts: ExpectedCounts,
  K: number,
  priors: Priors,
  algorithm: 'ema' | 'em',
  out: MixtureModel,
  informative: Float64Array,
  scratch?: CountLogGammas,
): void {
  const { alpha, alphaCluster } = priors;
  const pi = priors.priorInformative === 'auto' ? autoPrior(informative) : priors.priorInformative;
  const logPriorOdds = detLog(pi) - detLog(1 - pi);
  let total = 0;
  for (let c = 0; c < K; c++) total += counts.cluster[c]!;
  for (let c = 0; c < K; c++) out.weights[c] = (alphaCluster + counts.cluster[c]!) / (K * alphaCluster + total);
  const indep = locusScratch(data);
  const nj = new Float64Array(K);
  const logGammas = algorithm === 'ema' ? (scratch ?? countLogGammas(data, K)) : undefined;
  if (logGammas) fillCountLogGammas(counts, K, alpha, logGammas);
  for (let i = 0; i < data.L; i++) {
    const off = data.offsets[i]!;
    const r = data.alleles[i]!;
    let w = 1;
    if (algorithm === 'ema') {
      const ev = locusEvidence(data, counts, K, i, alpha, indep, logGammas);
      const x = logPriorOdds + ev.logMLDependent - ev.logMLIndependent;
      w = x >= 0 ? 1 / (1 + detExp(-x)) : detExp(x) / (1 + detExp(x));
    } else {
      for (let a = 0; a < r; a++) {
        let s = 0;
        for (let c = 0; c < K; c++) s += counts.alleleCluster[(off + a) * K + c]!;
        indep[a] = s;
      }
    }
    informative[i] = w;
    nj.fill(0);
    let ni = 0;
    for (let a = 0; a < r; a++) {
      ni += indep[a]!;
      for (let c = 0; c < K; c++) nj[c]! += counts.alleleCluster[(off + a) * K + c]!;
    }
    for (let a = 0; a < r; a++) {
      const t = (off + a) * K;
      const thetaIndep = (alpha + indep[a]!) / (r * alpha + ni);
      for (let c = 0; c < K; c++) {
        const thetaDep = (alpha + counts.alleleCluster[t + c]!) / (r * alpha + nj[c]!);
        out.theta[t + c] = w * thetaDep + (1 - w) * thetaIndep;
      }
    }
  }
}
