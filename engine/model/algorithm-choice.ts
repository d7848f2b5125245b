import { type AlgorithmChoice, type RankBy, type StartAlgorithm } from '../util/choices.ts';
import { HELD_OUT_FOLDS, heldOutLogLiks } from './mixture/held-out.ts';
import { jackknifeError } from './mixture/block-deletion.ts';
import { type FitOptions } from './fit-options.ts';
import { type PreparedData } from './prepared/prepared-data.ts';
import { rankStarts } from './start-ranking.ts';
import type { StartResult } from './start.ts';

// auto's choice between EMA and EM (docs/algorithms.md §4): the held-out comparison of the best
// start of each, its rule, and the sentence that explains the outcome.

export type { AlgorithmChoice };

const NAME: Record<StartAlgorithm, string> = { ema: 'EMA', em: 'EM' };

/** The choice and its sentence, from the held-out log-likelihoods of the two best starts. */
export function describeChoice(
  algorithm: StartAlgorithm,
  heldOut: { readonly ema: number; readonly em: number },
  gain?: { readonly z: number; readonly windows?: number },
  scored = HELD_OUT_FOLDS,
): AlgorithmChoice {
  const other: StartAlgorithm = algorithm === 'em' ? 'ema' : 'em';
  const f = (x: number) => Math.round(x).toLocaleString('en-US');
  if (!Number.isFinite(heldOut.ema) || !Number.isFinite(heldOut.em))
    return {
      algorithm,
      reason: `${NAME[algorithm]}: too few individuals to hold any out (fewer than ${HELD_OUT_FOLDS}), so the dissertation's EMA`,
    };
  const paired =
    gain && Number.isFinite(gain.z)
      ? `; EMA's gain ${gain.z.toFixed(1)} standard errors over individuals${gain.windows ? ` and ${gain.windows} genome windows` : ''}${algorithm === 'em' && gain.z > 0 ? ', too few to keep EMA' : ''}`
      : '';
  const early = scored < HELD_OUT_FOLDS ? `, decided after ${scored} of the ${HELD_OUT_FOLDS} folds` : '';
  const reason = `${NAME[algorithm]}: held-out ln L ${f(heldOut[algorithm])} against ${f(heldOut[other])} for ${NAME[other]} (${HELD_OUT_FOLDS}-fold cross-validation over individuals${early}${paired})`;
  return { algorithm, heldOut, reason };
}

/**
 * EMA is kept only when its held-out gain over EM is this many standard errors above 0 (paired
 * over individuals, and over genome windows where the markers have positions); otherwise EM, the
 * model with every marker informative.
 */
export const AUTO_EMA_Z = 2;

/**
 * The comparison stops after a fold when the gain over the individuals scored so far is this many
 * standard errors beyond AUTO_EMA_Z either way: the folds are interleaved samples of the
 * individuals, so the rest would have to reverse a gain that clear for the choice to change.
 * Saves four fifths of the refits where the answer is plain (large SNP data: tens of standard errors).
 */
export const EARLY_MARGIN = 8;

/** Σ (a_d − b_d) and its z score: the sum over its standard error, paired over individuals. */
export function pairedGain(a: Float64Array, b: Float64Array): { total: number; z: number } {
  const { total, se } = pairedTotal(a, b);
  return { total, z: zScore(total, se) };
}

/** Σ (a_d − b_d) and its standard error, paired over individuals: √(n · sample variance of the differences). */
function pairedTotal(a: Float64Array, b: Float64Array): { total: number; se: number } {
  const n = a.length;
  let total = 0;
  for (let d = 0; d < n; d++) total += a[d]! - b[d]!;
  const mean = total / n;
  let ss = 0;
  for (let d = 0; d < n; d++) ss += (a[d]! - b[d]! - mean) ** 2;
  return { total, se: Math.sqrt((ss / Math.max(1, n - 1)) * n) };
}

function zScore(total: number, se: number): number {
  return se > 0 ? total / se : total > 0 ? Infinity : total < 0 ? -Infinity : 0;
}

/**
 * The paired gain with the markers' sampling added where markers are linked: its standard error
 * is √(se² over individuals + se² of a delete-one-window jackknife over genome windows), from
 * the held-out totals without each window (`withoutA[b]`, `withoutB[b]`). Linked markers make a
 * window one piece of evidence: a gain that rests on a few windows (clusters that are the
 * haplotypes of one linkage block) is not a gain over the genome.
 */
export function windowedGain(
  a: Float64Array,
  b: Float64Array,
  withoutA: Float64Array,
  withoutB: Float64Array,
): { total: number; z: number; windows: number } {
  const { total, se } = pairedTotal(a, b);
  const byWindow = jackknifeError(withoutA.map((x, w) => x - withoutB[w]!));
  const error = Number.isFinite(byWindow) ? Math.sqrt(se ** 2 + byWindow ** 2) : se;
  return { total, z: zScore(total, error), windows: withoutA.length };
}

/** auto's rule: EMA when its paired held-out gain over EM is more than AUTO_EMA_Z standard errors, else EM. */
export function algorithmByGain(gain: { readonly z: number }): 'ema' | 'em' {
  return gain.z > AUTO_EMA_Z ? 'ema' : 'em';
}

/**
 * `--algorithm auto` (docs/algorithms.md §4): when the starts ran both EMA and EM, the best start
 * of each (by the ranking) is refitted on 4/5 of the individuals and scored on the other fifth,
 * five times; EMA is chosen when it predicts held-out individuals better by more than
 * AUTO_EMA_Z standard errors (paired over individuals; where the markers have positions, the
 * error also counts the sampling of genome windows, {@link windowedGain}), else EM.
 */
export function autoChoice(
  data: PreparedData,
  starts: readonly StartResult[],
  rankBy: RankBy,
  fit: FitOptions,
): AlgorithmChoice | undefined {
  const ema = starts.filter((s) => s.algorithm === 'ema');
  const em = starts.filter((s) => s.algorithm === 'em');
  if (ema.length === 0 || em.length === 0) return undefined;
  const rows = [new Float64Array(data.N), new Float64Array(data.N)];
  const windows = data.windows && data.windows.count >= 2 ? data.windows : undefined;
  const perWindow = windows ? [new Float64Array(windows.count), new Float64Array(windows.count)] : undefined;
  /** The gain over the individuals of the first `scored` folds (d mod folds < scored). */
  const gainOver = (scored: number) => {
    const pick = (r: Float64Array) => (scored === HELD_OUT_FOLDS ? r : r.filter((_, d) => d % HELD_OUT_FOLDS < scored));
    const [a, b] = [pick(rows[0]!), pick(rows[1]!)];
    return perWindow ? windowedGain(a, b, perWindow[0]!, perWindow[1]!) : pairedGain(a, b);
  };
  const {
    totals: [emaHeldOut, emHeldOut],
    scored,
  } = heldOutLogLiks(
    data,
    [
      { model: rankStarts(data, ema, rankBy).best.model, algorithm: 'ema' },
      { model: rankStarts(data, em, rankBy).best.model, algorithm: 'em' },
    ],
    fit,
    undefined,
    rows,
    windows && perWindow ? { blocks: windows, perBlock: perWindow } : undefined,
    (scored) => Math.abs(gainOver(scored).z - AUTO_EMA_Z) >= EARLY_MARGIN,
  );
  const heldOut = { ema: emaHeldOut!, em: emHeldOut! };
  // Too few individuals to hold any out: the dissertation's EMA (describeChoice says so).
  if (!Number.isFinite(heldOut.ema) || !Number.isFinite(heldOut.em)) return describeChoice('ema', heldOut);
  const gain = gainOver(scored);
  return describeChoice(algorithmByGain(gain), heldOut, gain, scored);
}
