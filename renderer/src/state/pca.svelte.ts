import type { PcaInfo } from '../../../engine/runtime/engine-protocol.ts';
import type { PcaColourBy } from './ui-choices.ts';

/** The PCA view's settings and its last result, with the dataset it was computed on. */
export class PcaState {
  pcs = $state(10);
  xPc = $state(1);
  yPc = $state(2);
  colourBy = $state<PcaColourBy>('population');
  /** The K whose clusters colour the points when colourBy is 'cluster'. */
  clusterK = $state(0);
  result = $state.raw<{ datasetId: number; pca: PcaInfo } | null>(null);
}

/** The settings as saved in a session. */
export type PcaSettings = Pick<PcaState, 'pcs' | 'xPc' | 'yPc' | 'colourBy'> & { clusterK?: number };
