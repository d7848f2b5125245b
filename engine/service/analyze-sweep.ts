import { populationIndex, type GenotypeData } from '../data/genotype-data.ts';
import { puechmailleEstimates, type PuechmailleEstimates } from '../analysis/puechmaille.ts';
import { PUECHMAILLE_THRESHOLD } from '../util/choices.ts';
import { runFst } from '../analysis/fst.ts';
import type { Model } from '../util/choices.ts';
import { summarizeSweep, type KSummary, type SweepSummary } from '../analysis/k-choice.ts';
import { preparedData, type PreparedData } from '../model/prepared/prepared-data.ts';
import type { MixtureModel } from '../model/mixture/mixture-model.ts';
import type { SweepRun } from '../model/sweep.ts';

/** A fitted model of a sweep: enough to choose K and select markers (a SweepRun or a run read back from JSON). */
export interface FittedRun {
  readonly K: number;
  readonly replicate: number;
  readonly model: MixtureModel;
  /** w_i per locus. */
  readonly informative: Float64Array;
  /** shape (N, K): memberships or ancestry proportions. */
  readonly Q: Float64Array;
  /** Absent: the mixture model. */
  readonly kind?: Model;
}

/** The runs of a sweep as fitted models. */
export function fittedRuns(runs: readonly SweepRun[]): FittedRun[] {
  return runs.map((r) => ({
    K: r.K,
    replicate: r.replicate,
    model: r.clustering.model,
    informative: r.clustering.informative,
    Q: r.clustering.Q,
    ...(r.model ? { kind: r.model } : {}),
  }));
}

/** One K of an analysed sweep: its statistics, the representative memberships and the replicate that stands for it. */
export interface KAnalysis extends KSummary {
  /** The major mode's mean aligned memberships, shape (N, K). */
  readonly Q: Float64Array;
  /**
   * Every mode (largest first; the first is `Q`'s): its mean memberships with columns aligned to
   * the major mode (so colours hold across modes) and the replicates (numbers from 0) in it.
   */
  readonly modeQs: readonly { readonly Q: Float64Array; readonly replicates: readonly number[] }[];
  /** Palette index of each column of Q, consistent across K. */
  readonly colours: readonly number[];
  /** The replicate with the highest F_ST at this K (the dissertation's choice of model for a K). */
  readonly bestReplicate: number;
}

export interface SweepAnalysis {
  readonly summary: SweepSummary;
  readonly perK: readonly KAnalysis[];
  /**
   * The K with the highest mean F_ST (section 8.2.2): where marker selection starts; for an
   * admixture sweep with cross-validation, the K with the lowest CV error.
   */
  readonly recommendedK: number;
  /** Puechmaille's estimators of K for uneven sampling: where the data (not prepared data) give the individuals' populations. */
  readonly puechmaille?: PuechmailleEstimates;
}

/** The K with the highest mean F_ST over its replicates (ties: the smaller K). */
function highestMeanFst(items: readonly { K: number; fst: number }[]): number {
  const byK = new Map<number, number[]>();
  for (const x of items) byK.set(x.K, [...(byK.get(x.K) ?? []), x.fst]);
  const means = [...byK].map(([K, f]) => ({ K, mean: f.reduce((a, b) => a + b, 0) / f.length }));
  return means.reduce((best, m) => (m.mean > best.mean || (m.mean === best.mean && m.K < best.K) ? m : best)).K;
}

/** The K with the lowest cross-validation error (ADMIXTURE's rule; ties: the smaller K). */
function lowestCvError(perK: readonly KSummary[]): number {
  return perK.reduce((best, k) => (k.cvError! < best.cvError! ? k : best)).K;
}

/**
 * Use case "analyse a sweep": F_ST per K with its tests, replicate alignment and colours across K,
 * and (data with populations) Puechmaille's estimators at `membershipThreshold`.
 */
export function analyzeSweep(
  data: GenotypeData | PreparedData,
  runs: readonly SweepRun[],
  membershipThreshold = PUECHMAILLE_THRESHOLD,
): SweepAnalysis {
  const md = 'individuals' in data ? preparedData(data) : data;
  const summary = summarizeSweep(md, runs);
  const perK = summary.perK.map((k, idx) => {
    const reps = runs.filter((r) => r.K === k.K).sort((a, b) => a.replicate - b.replicate);
    const best = k.fst.indexOf(Math.max(...k.fst));
    return {
      ...k,
      Q: summary.alignment[idx]!.modes[0]!.meanQ,
      modeQs: summary.alignment[idx]!.modes.map((m) => ({
        Q: m.meanQ,
        replicates: m.members.map((r) => reps[r]?.replicate ?? r),
      })),
      colours: Array.from(summary.colours[idx]!),
      bestReplicate: reps[best]?.replicate ?? 0,
    };
  });
  const withCv = summary.perK.filter((k) => k.cvError !== undefined && Number.isFinite(k.cvError));
  const recommendedK =
    withCv.length === summary.perK.length && withCv.length > 0
      ? lowestCvError(withCv)
      : highestMeanFst(summary.perK.flatMap((k) => k.fst.map((fst) => ({ K: k.K, fst }))));
  const puechmaille =
    'individuals' in data
      ? puechmailleEstimates(
          runs.map((r) => ({ K: r.K, Q: r.clustering.Q })),
          populationIndex(data),
          membershipThreshold,
        )
      : undefined;
  return { summary, perK, recommendedK, ...(puechmaille ? { puechmaille } : {}) };
}

/** The model chosen for a K, with its F_ST. */
export interface ChosenModel {
  readonly K: number;
  readonly run: FittedRun;
  readonly fst: number;
}

/**
 * Use case "choose K": the K with the highest mean F_ST over its replicates (or the K given), then
 * that K's replicate with the highest F_ST (section 8.2.2). Throws when no run has that K.
 */
export function chooseModel(md: PreparedData, runs: readonly FittedRun[], K?: number): ChosenModel {
  if (runs.length === 0) throw new RangeError('no runs to choose from');
  const scored = runs.map((run) => ({ run, fst: runFst(md, run).fst }));
  const chosenK = K ?? highestMeanFst(scored.map((s) => ({ K: s.run.K, fst: s.fst })));
  const atK = scored.filter((s) => s.run.K === chosenK);
  if (atK.length === 0) throw new RangeError(`no run with K = ${chosenK}`);
  const best = atK.reduce((b, s) => (s.fst > b.fst || (s.fst === b.fst && s.run.replicate < b.run.replicate) ? s : b));
  return { K: chosenK, run: best.run, fst: best.fst };
}
