import type { Score, StructureKind } from '../util/choices.ts';
import { bckgParents, kdbParentsByScore } from './bckg.ts';
import type { CategoricalData } from './categorical.ts';
import { kdbParents, tanParents, type Parents } from './network-structure.ts';

/**
 * The feature parents of a classifier structure learned from labelled data. BCkG searches with
 * `score` (default BIC); kDB chooses parents by conditional mutual information (Sahami) unless a
 * score is given.
 */
export function learnStructure(d: CategoricalData, kind: StructureKind, k = 2, score?: Score): Parents {
  if (kind === 'nb') return Array.from({ length: d.n }, () => new Int32Array(0));
  if (kind === 'tan') return tanParents(d);
  if (kind === 'bckg') return bckgParents(d, k, score ?? 'bic');
  return score ? kdbParentsByScore(d, k, score) : kdbParents(d, k);
}
