import type { AssignInfo } from '../../../engine/runtime/engine-protocol.ts';
import {
  LIMITS,
  type AssignBy,
  type Learning,
  type Score,
  type StructureKind,
  type Variables,
} from '../../../engine/util/choices.ts';

/** The Assign view's settings and its last result (kept here so sessions and autosave restore them). */
export class AssignState {
  by = $state<AssignBy>('population');
  classifier = $state<StructureKind>('nb');
  learning = $state<Learning>('generative');
  /** Structure score of BCkG and kDB ('': the classifier's own default). */
  score = $state<Score | ''>('');
  folds = $state(5);
  variables = $state<Variables>('auto');
  curve = $state(true);
  /** The most local scores one structure search may evaluate (BCkG, kDB by score). */
  maxSearch = $state<number>(LIMITS.structureSearch);
  result = $state.raw<AssignInfo | null>(null);
  /** The folds and classes the result was computed with. */
  resultFolds = $state(5);
  resultBy = $state<AssignBy>('population');

  /** Forgets the result (a new dataset was opened). */
  reset(): void {
    this.result = null;
  }
}

/** The settings as saved in a session. */
export type AssignSettings = Pick<
  AssignState,
  'by' | 'classifier' | 'learning' | 'score' | 'folds' | 'variables' | 'curve'
>;
