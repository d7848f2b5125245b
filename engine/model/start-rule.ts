import { ADMIXTURE_START_RULE } from '../util/choices.ts';

/** When a multi-start stops adding starts (docs/admixture-defaults.md). */
export interface StartRule {
  /** Starts added at a time; the rule is checked after each round. */
  readonly round: number;
  /** At most this many starts. */
  readonly cap: number;
  /** Stop once the two highest ln L so far are within this many units. */
  readonly agree: number;
}

/** Whether the two highest of these log-likelihoods agree within `agree`: the best was found twice. */
export function bestFoundTwice(logLiks: readonly number[], agree: number): boolean {
  let first = -Infinity;
  let second = -Infinity;
  for (const x of logLiks) {
    if (x > first) [first, second] = [x, first];
    else if (x > second) second = x;
  }
  return second > -Infinity && first - second <= agree;
}

/**
 * How many starts a multi-start runs under the rule, given its starts' log-likelihoods in start
 * order (at least as many as it would run): rounds of `round` starts until the best is found twice
 * or `cap` starts have run. Depends on the starts alone, not on how many threads ran them.
 */
export function agreedStop(logLiks: readonly number[], rule: StartRule = ADMIXTURE_START_RULE): number {
  const last = Math.min(rule.cap, logLiks.length);
  for (let n = Math.min(rule.round, last); n < last; n = Math.min(n + rule.round, last))
    if (bestFoundTwice(logLiks.slice(0, n), rule.agree)) return n;
  return last;
}
