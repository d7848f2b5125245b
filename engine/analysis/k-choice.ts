import type { PreparedData } from '../model/prepared/prepared-data.ts';
import { likeliestRun, type SweepRun } from '../model/sweep.ts';
import { runFst } from './fst.ts';
import { mannWhitney, type MannWhitney } from '../util/rank-tests.ts';
import { EVANNO_MIN_SD } from '../util/choices.ts';
import { alignReplicates, coloursAcrossK, type AlignedK } from './replicates.ts';
import { clusterMass, isNegligible } from '../model/cluster-use.ts';
import type { AlgorithmChoice } from '../model/algorithm-choice.ts';
import { detLog } from '../util/det-math.ts';

/** What users weigh to choose K, over the replicates at one K. */
export interface KSummary {
  readonly K: number;
  readonly replicates: number;
  /** F_ST of each replicate (model-based, equation 8.2 corrected), in replicate order. */
  readonly fst: readonly number[];
  readonly fstMean: number;
  readonly fstSd: number;
  readonly logLikMean: number;
  readonly logLikSd: number;
  /** Log-likelihood of each replicate, in replicate order. */
  readonly logLiks: readonly number[];
  /**
   * Evanno's ΔK = |L(K + 1) − 2 L(K) + L(K − 1)| / sd L(K) (Evanno, Regnaut & Goudet 2005), L the
   * mean log-likelihood over replicates; absent at the ends of the K range, with fewer than two
   * replicates or when the replicates agree exactly (sd 0).
   */
  readonly deltaK?: number;
  /**
   * BIC = −2 ln L + k ln N, mean over replicates; k = (K − 1) + K Σ_i (r_i − 1) for the mixture
   * model and N (K − 1) + K Σ_i (r_i − 1) for the admixture model (every individual's proportions).
   */
  readonly bicMean: number;
  /** Clusters with less than 1% of the individuals (or less than one), mean over replicates. */
  readonly negligibleMean: number;
  /** Distinct, non-negligible clusters (duplicated allele frequencies count once), mean over replicates. */
  readonly effectiveMean: number;
  /** Mann–Whitney test of this K's F_ST values against those of the previous K. */
  readonly versusPrevious?: MannWhitney;
  /** Replicate agreement (mean pairwise H') and number of modes. */
  readonly similarity: number;
  readonly modes: number;
  /** Admixture model with cross-validation: the CV error (of the most likely replicate). */
  readonly cvError?: number;
  /** `--algorithm auto`: the algorithm the most likely replicate kept (EMA or EM), and why. */
  readonly algorithmChoice?: AlgorithmChoice;
}

function meanSd(xs: readonly number[]): [number, number] {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const v = xs.length > 1 ? xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1) : 0;
  return [m, Math.sqrt(v)];
}

/** Negligible and effective cluster counts of one run. */
export function clusterCounts(run: SweepRun, N: number): { negligible: number; effective: number } {
  const K = run.K;
  const c = run.clustering;
  const mass = clusterMass(c.Q, N, K);
  const alive = Array.from({ length: K }, (_, k) => k).filter((k) => !isNegligible(mass[k]!, N));
  const distinct: number[] = [];
  for (const k of alive) {
    const dup = distinct.some((j) => {
      let diff = 0;
      for (let row = 0; row < c.model.theta.length / K; row++)
        diff = Math.max(diff, Math.abs(c.model.theta[row * K + k]! - c.model.theta[row * K + j]!));
      return diff < 0.01;
    });
    if (!dup) distinct.push(k);
  }
  return { negligible: K - alive.length, effective: distinct.length };
}

export interface SweepSummary {
  readonly perK: readonly KSummary[];
  readonly alignment: readonly AlignedK[];
  /** Per K (same order as perK): palette index of each aligned cluster, consistent across K. */
  readonly colours: readonly Int32Array[];
}

/** F_ST per K with replicate statistics, alignment within K and colours across K. */
export function summarizeSweep(data: PreparedData, runs: readonly SweepRun[]): SweepSummary {
  const ks = [...new Set(runs.map((r) => r.K))].sort((a, b) => a - b);
  const perK: KSummary[] = [];
  const alignment: AlignedK[] = [];
  let params = 0;
  for (let i = 0; i < data.L; i++) params += data.alleles[i]! - 1;
  let previousFst: number[] | undefined;
  for (const K of ks) {
    const reps = runs.filter((r) => r.K === K).sort((a, b) => a.replicate - b.replicate);
    const fst = reps.map(
      (r) =>
        runFst(data, { K, Q: r.clustering.Q, model: r.clustering.model, ...(r.model ? { kind: r.model } : {}) }).fst,
    );
    const lls = reps.map((r) => r.clustering.logLik);
    const admixture = reps.some((r) => r.model === 'admixture');
    const k = (admixture ? data.N * (K - 1) : K - 1) + K * params;
    const cv = reps.find((r) => r.cvError !== undefined)?.cvError;
    const counts = reps.map((r) => clusterCounts(r, data.N));
    const choice = likeliestRun(reps).clustering.algorithmChoice;
    const [fstMean, fstSd] = meanSd(fst);
    const [logLikMean, logLikSd] = meanSd(lls);
    const aligned = alignReplicates(
      reps.map((r) => ({ Q: r.clustering.Q, logLik: r.clustering.logLik })),
      data.N,
      K,
    );
    alignment.push(aligned);
    perK.push({
      K,
      replicates: reps.length,
      fst,
      fstMean,
      fstSd,
      logLikMean,
      logLikSd,
      logLiks: lls,
      bicMean: meanSd(lls.map((ll) => -2 * ll + k * detLog(data.N)))[0],
      negligibleMean: meanSd(counts.map((c) => c.negligible))[0],
      effectiveMean: meanSd(counts.map((c) => c.effective))[0],
      ...(previousFst ? { versusPrevious: mannWhitney(fst, previousFst) } : {}),
      similarity: aligned.meanSimilarity,
      modes: aligned.modes.length,
      ...(cv !== undefined ? { cvError: cv } : {}),
      ...(choice ? { algorithmChoice: choice } : {}),
    });
    previousFst = fst;
  }
  const withDelta = withEvannoDeltaK(perK);
  const representatives = alignment.map((a) => ({ K: a.K, Q: a.modes[0]!.meanQ }));
  return { perK: withDelta, alignment, colours: coloursAcrossK(representatives, data.N) };
}

/**
 * Evanno's ΔK for each K whose neighbours K − 1 and K + 1 were both run and whose replicates differ
 * (sd of ln L at least {@link EVANNO_MIN_SD}; see {@link KSummary.deltaK}).
 */
export function withEvannoDeltaK<T extends { K: number; logLikMean: number; logLikSd: number; replicates: number }>(
  perK: readonly T[],
): (T & { deltaK?: number })[] {
  const byK = new Map(perK.map((k) => [k.K, k]));
  return perK.map((k) => {
    const below = byK.get(k.K - 1);
    const above = byK.get(k.K + 1);
    if (!below || !above || k.replicates < 2 || !(k.logLikSd >= EVANNO_MIN_SD)) return k;
    return { ...k, deltaK: Math.abs(above.logLikMean - 2 * k.logLikMean + below.logLikMean) / k.logLikSd };
  });
}
