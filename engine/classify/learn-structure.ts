import type { Score, StructureKind } from '../util/choices.ts';
import { bckgParents, bckgSearch, kdbParentsByScore, type SearchShare } from './bckg.ts';
import type { CategoricalData } from './categorical.ts';
import { kdbParents, tanParents, type Parents } from './network-structure.ts';

/**
 * The feature parents of a classifier structure learned from labelled data. BCkG searches with
 * `score` (default BIC); kDB chooses parents by conditional mutual information (Sahami) unless a
 * score is given.
 */
export function learnStructure(
  d: CategoricalData,
  kind: StructureKind,
  k = 2,
  score?: Score,
  onFeature?: () => void,
): Parents {
  if (kind === 'nb') return Array.from({ length: d.n }, () => new Int32Array(0));
  if (kind === 'tan') return tanParents(d);
  if (kind === 'bckg') return bckgParents(d, k, score ?? 'bic', onFeature);
  return score ? kdbParentsByScore(d, k, score, onFeature) : kdbParents(d, k);
}

export type { SearchShare };

/**
 * One share of a BCkG search (learnStructure's, for the features of `share`; the others
 * undefined): the shares of a search on different threads give together what one search gives.
 */
export function learnStructureShare(
  d: CategoricalData,
  k: number,
  score: Score | undefined,
  share: SearchShare,
  onFeature?: () => void,
): (Int32Array | undefined)[] {
  return bckgSearch(d, k, score ?? 'bic', onFeature, share);
}

/** Whether a structure is searched feature by feature with a score (what reports progress per feature). */
export function searchesByScore(kind: StructureKind, score?: Score): boolean {
  return kind === 'bckg' || (kind === 'kdb' && score !== undefined);
}

/**
 * The local scores one structure search evaluates at most, for n features: BCkG visits every
 * subset of at most k earlier features of each feature (Σ_pos Σ_{j ≤ k} C(pos, j)) after its TAN
 * (n² pairs); kDB by score tries each earlier feature for each of k parents. What a bound skips
 * is not counted: an upper limit, said before a search starts.
 */
export function structureSearchWork(n: number, kind: StructureKind, k: number, score?: Score): number {
  if (!searchesByScore(kind, score)) return kind === 'nb' ? 0 : n * n;
  let total = 0;
  for (let pos = 0; pos < n; pos++) {
    if (kind === 'kdb') {
      total += 1 + Math.min(k, pos) * pos;
      continue;
    }
    let c = 1;
    for (let j = 0; j <= Math.min(k, pos); j++) {
      total += c;
      c = (c * (pos - j)) / (j + 1);
    }
  }
  return total + (kind === 'bckg' ? n * n : 0);
}
