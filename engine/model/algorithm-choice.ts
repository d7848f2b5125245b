import type { StartAlgorithm } from '../util/choices.ts';
import { HELD_OUT_FOLDS } from './mixture/held-out.ts';

/** Which algorithm a multi-start under `--algorithm auto` kept at one K, and why. */
export interface AlgorithmChoice {
  readonly algorithm: StartAlgorithm;
  /**
   * Cross-validated log-likelihood of held-out individuals under each algorithm's best start
   * (absent with fewer individuals than folds: then EMA).
   */
  readonly heldOut?: { readonly ema: number; readonly em: number };
  /** One sentence for the CLI and the Choose K view. */
  readonly reason: string;
}

const NAME: Record<StartAlgorithm, string> = { ema: 'EMA', em: 'EM' };

/** The choice and its sentence, from the held-out log-likelihoods of the two best starts. */
export function describeChoice(
  algorithm: StartAlgorithm,
  heldOut: { readonly ema: number; readonly em: number },
): AlgorithmChoice {
  const other: StartAlgorithm = algorithm === 'em' ? 'ema' : 'em';
  const f = (x: number) => Math.round(x).toLocaleString('en-US');
  if (!Number.isFinite(heldOut.ema) || !Number.isFinite(heldOut.em))
    return {
      algorithm,
      reason: `${NAME[algorithm]}: too few individuals to hold any out (fewer than ${HELD_OUT_FOLDS}), so the dissertation's EMA`,
    };
  const reason = `${NAME[algorithm]}: held-out ln L ${f(heldOut[algorithm])} against ${f(heldOut[other])} for ${NAME[other]} (${HELD_OUT_FOLDS}-fold cross-validation over individuals)`;
  return { algorithm, heldOut, reason };
}
