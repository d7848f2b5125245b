import type { AlgorithmChoice, StartAlgorithm } from '../util/choices.ts';
import { HELD_OUT_FOLDS } from './mixture/held-out.ts';

export type { AlgorithmChoice };

const NAME: Record<StartAlgorithm, string> = { ema: 'EMA', em: 'EM' };

/** The choice and its sentence, from the held-out log-likelihoods of the two best starts. */
export function describeChoice(
  algorithm: StartAlgorithm,
  heldOut: { readonly ema: number; readonly em: number },
  gain?: { readonly z: number; readonly windows?: number },
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
  const reason = `${NAME[algorithm]}: held-out ln L ${f(heldOut[algorithm])} against ${f(heldOut[other])} for ${NAME[other]} (${HELD_OUT_FOLDS}-fold cross-validation over individuals${paired})`;
  return { algorithm, heldOut, reason };
}
