import type { Score } from '../util/choices.ts';
import type { CategoricalData } from './categorical.ts';
import { LocalScorer } from './local-scores.ts';
import { sahamiOrder, tanParents, type Parents } from './network-structure.ts';

export { ACL_SMOOTHING, type Score } from './local-scores.ts';

/** One scorer per dataset and score, kept while the dataset lives (a search and its folds reuse it). */
const scorers = new WeakMap<CategoricalData, Map<Score, LocalScorer>>();

/** The dataset's {@link LocalScorer} for `score`. */
export function scorerFor(d: CategoricalData, score: Score): LocalScorer {
  let byScore = scorers.get(d);
  if (!byScore) scorers.set(d, (byScore = new Map()));
  let s = byScore.get(score);
  if (!s) byScore.set(score, (s = new LocalScorer(d, score)));
  return s;
}

/** φ_i(Π ∪ {C}): the local score of feature i with feature parents Π (local-scores.ts). */
export function localScore(d: CategoricalData, i: number, parents: readonly number[], score: Score): number {
  return scorerFor(d, score).score(i, parents);
}

/** Total score of a structure (the class term is the same for every structure and left out). */
export function structureScore(d: CategoricalData, parents: Parents, score: Score): number {
  let s = 0;
  for (let i = 0; i < d.n; i++) s += localScore(d, i, Array.from(parents[i]!), score);
  return s;
}

/** The optimal TAN for a score: maximum spanning tree of φ_i({X_j}) − φ_i(∅) (symmetrised). */
export function tanForScore(d: CategoricalData, score: Score): Parents {
  const base = Array.from({ length: d.n }, (_, i) => localScore(d, i, [], score));
  return tanParents(d, (i, j) =>
    Math.max(localScore(d, i, [j], score) - base[i]!, localScore(d, j, [i], score) - base[j]!),
  );
}

/** Breadth-first order of a TAN (roots first, children by index). */
export function bfsOrder(parents: Parents): number[] {
  const n = parents.length;
  const children: number[][] = Array.from({ length: n }, () => []);
  const roots: number[] = [];
  parents.forEach((p, i) => (p.length ? children[p[0]!]!.push(i) : roots.push(i)));
  const order: number[] = [];
  const queue = [...roots];
  while (queue.length) {
    const v = queue.shift()!;
    order.push(v);
    for (const child of children[v]!.sort((a, b) => a - b)) queue.push(child);
  }
  return order;
}

/**
 * A share of a BCkG search: the features at positions p of its order with p mod count = index
 * (the shares of one search hold nearly equal work: a feature's grows with its position).
 */
export interface SearchShare {
  readonly index: number;
  readonly count: number;
}

/**
 * BFS-consistent k-graph classifier (Carvalho et al. 2007, seed 001): the optimal TAN for the
 * score, its breadth-first order, and for every feature the subset of at most k earlier features
 * that maximises φ_i(S ∪ {C}). Its score is never below the TAN's (whose parent is a candidate)
 * nor the naive Bayes' (S = ∅). For LL and BIC (score equivalent) the TAN is optimal; for K2 the
 * symmetrised weights make it a heuristic.
 */
export function bckgParents(d: CategoricalData, k: number, score: Score, onFeature?: () => void): Parents {
  return bckgSearch(d, k, score, onFeature) as Parents;
}

/**
 * {@link bckgParents} for the features of `share` only (all without one; the others undefined):
 * each feature's search depends on the order alone, not on the other features' parents.
 */
export function bckgSearch(
  d: CategoricalData,
  k: number,
  score: Score,
  onFeature?: () => void,
  share?: SearchShare,
): (Int32Array | undefined)[] {
  const scorer = scorerFor(d, score);
  const tan = tanForScore(d, score);
  const order = bfsOrder(tan);
  const parents: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(d.n).fill(undefined);
  const chosen: number[] = [];
  order.forEach((i, pos) => {
    if (share && pos % share.count !== share.index) return;
    const fast = scorer.searchSubsets(i, order.slice(0, pos), k);
    if (fast) {
      parents[i] = Int32Array.from(fast.positions, (j) => order[j]!);
      onFeature?.();
      return;
    }
    let best: number[] = [];
    let bestScore = scorer.score(i, chosen);
    // Subsets of the earlier features in lexicographic order of their positions (the order the
    // first best of equals depends on).
    const visit = (start: number) => {
      if (chosen.length > 0) {
        // No subset that holds these parents can beat the best (BIC's bound): skip them all.
        if (scorer.bound(i, chosen) <= bestScore + 1e-12) return;
        const s = scorer.score(i, chosen);
        if (s > bestScore + 1e-12) {
          bestScore = s;
          best = [...chosen];
        }
      }
      if (chosen.length === k) return;
      for (let j = start; j < pos; j++) {
        chosen.push(order[j]!);
        visit(j + 1);
        chosen.pop();
      }
    };
    visit(0);
    parents[i] = Int32Array.from(best);
    onFeature?.();
  });
  return parents;
}

/**
 * kDB with a structure score: features in Sahami's order (decreasing I(X_i; C)); each takes, one
 * at a time, the earlier feature that raises its local score φ_i(S ∪ {C}) most, until it has k
 * parents or no candidate raises it (Sahami's kDB ranks candidates by I(X_i; X_j | C) instead).
 */
export function kdbParentsByScore(d: CategoricalData, k: number, score: Score, onFeature?: () => void): Parents {
  const scorer = scorerFor(d, score);
  const order = sahamiOrder(d);
  const parents: Int32Array[] = Array.from({ length: d.n }, () => new Int32Array(0));
  order.forEach((i, pos) => {
    const chosen: number[] = [];
    let current = scorer.score(i, chosen);
    while (chosen.length < k) {
      let best = -1;
      let bestScore = current;
      for (const j of order.slice(0, pos)) {
        if (chosen.includes(j)) continue;
        const candidate = [...chosen, j];
        if (scorer.bound(i, candidate) <= bestScore + 1e-12) continue;
        const s = scorer.score(i, candidate);
        if (s > bestScore + 1e-12) {
          bestScore = s;
          best = j;
        }
      }
      if (best < 0) break;
      chosen.push(best);
      current = bestScore;
    }
    parents[i] = Int32Array.from(chosen);
    onFeature?.();
  });
  return parents;
}
