import { CLUSTER_DEFAULTS, type Policy, type RankBy } from '../util/choices.ts';
import { usedClusters } from './cluster-use.ts';
import { type PreparedData } from './prepared/prepared-data.ts';
import type { StartResult } from './start.ts';

/** How the m starts of a multi-start are combined (section 7.4). */
export type { Policy };

/**
 * What best choice and weighted averaging rank starts by. 'likelihood' (default, chosen on the
 * accuracy suite: docs/accuracy.md) is the text's ln p(D | θ̂).
 * 'evidence' first prefers the starts that use the most clusters — clusters that
 * individuals are assigned to with a majority of their membership (usedClusters); a start that
 * leaves a cluster negligible answers a smaller K, which the sweep evaluates on its own — then ranks them
 * by their score, an approximation of ln p(D) that does not reward calling noise markers
 * informative (engine/model/mixture/evidence.ts). For EMA-TAN the score is ln p(D | θ̂).
 */
export type { RankBy };

/** What a ranking ranks a start by. */
export function rankOf(rankBy: RankBy): (s: StartResult) => number {
  return rankBy === 'evidence' ? (s) => s.score : (s) => s.logLik;
}

/**
 * Best choice among starts: under 'evidence' only the starts that use the most clusters compete
 * (usedClusters), then the highest rank wins (ties: the lower index).
 */
export function rankStarts(
  data: PreparedData,
  starts: readonly StartResult[],
  rankBy: RankBy,
): { best: StartResult; used: number[]; most: number } {
  const K = starts[0]!.model.K;
  const rank = rankOf(rankBy);
  const used = starts.map((s) => (rankBy === 'evidence' ? usedClusters(s.posterior, data.N, K) : K));
  const most = Math.max(...used);
  let best: StartResult | undefined;
  starts.forEach((s, k) => {
    if (used[k] !== most) return;
    if (!best || rank(s) > rank(best) || (rank(s) === rank(best) && s.index < best.index)) best = s;
  });
  return { best: best!, used, most };
}

/** The best start of each algorithm the starts ran (one start when they ran one). */
export function bestPerAlgorithm(
  data: PreparedData,
  starts: readonly StartResult[],
  rankBy: RankBy = CLUSTER_DEFAULTS.rankBy,
): StartResult[] {
  const groups = new Map<string, StartResult[]>();
  for (const s of starts) groups.set(s.algorithm ?? '', [...(groups.get(s.algorithm ?? '') ?? []), s]);
  return [...groups.values()].map((g) => rankStarts(data, g, rankBy).best);
}
