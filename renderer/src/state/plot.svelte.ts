import type { BootstrapInfo, FitCheckInfo, KInfo, ProjectionInfo } from '../../../engine/runtime/engine-protocol.ts';

/** Colour-blind-safe default palette: Okabe–Ito, then Tableau 10 for K above 8. */
export const DEFAULT_PALETTE = [
  '#E69F00',
  '#56B4E9',
  '#009E73',
  '#F0E442',
  '#0072B2',
  '#D55E00',
  '#CC79A7',
  '#999999',
  '#4E79A7',
  '#F28E2B',
  '#59A14F',
  '#B07AA1',
  '#FF9DA7',
  '#9C755F',
  '#76B7B2',
  '#EDC948',
  '#BAB0AC',
  '#E15759',
  '#1B9E77',
  '#7570B3',
];

/** One K of a sweep's analysis as far as the plotted memberships go (KInfo). */
type ModesAtK = Pick<KInfo, 'K' | 'Q' | 'modeQs'>;

/**
 * The K a panel under the plot works on: the one the user chose when the sweep has it, else the
 * second K of the sweep (the first where there is one; K = 1 or 2 is rarely the one asked about).
 */
export function panelK(perK: readonly { readonly K: number }[], chosen: number | undefined): number | undefined {
  return perK.some((k) => k.K === chosen) ? chosen : perK[Math.min(1, perK.length - 1)]?.K;
}

/** Structure-plot settings: palette, population order, which K are shown. */
export class PlotState {
  palette = $state<string[]>([...DEFAULT_PALETTE]);
  populationOrder = $state<string[]>([]);
  shownK = $state<number[]>([]);
  groupByRegion = $state(true);
  /** Sort each row (K) within populations by its own dominant cluster; false: one order for all rows. */
  sortEachRow = $state(true);
  /** Bumped by the menu's Export Plot…: the Structure view then exports the figure (SVG). */
  exportRequests = $state(0);
  barHeight = $state(90);
  /** The K the Map view shows (0: its default). */
  mapK = $state(0);
  /**
   * The mode shown at each K (index into its modes, largest first; absent: the major mode), kept
   * while the user moves between views and cleared for another sweep's results ({@link modesFor}).
   */
  modeOf = $state<Record<number, number>>({});
  /**
   * Bootstrap intervals drawn as whiskers on the row of K, for the memberships they were aligned to
   * (`shown`: the row's Q when they were computed; another mode or sweep shows none).
   */
  intervals = $state.raw<{
    readonly K: number;
    readonly shown: Float64Array;
    readonly lower: Float64Array;
    readonly upper: Float64Array;
  } | null>(null);
  /** The Structure view's bootstrap and fit check, with the sweep they belong to (kept across views). */
  bootstrap = $state.raw<{ readonly sweepId: number; readonly info: BootstrapInfo } | null>(null);
  fitCheck = $state.raw<{ readonly sweepId: number; readonly info: FitCheckInfo } | null>(null);
  /** The Structure view's projection of new samples, with the sweep it was projected onto. */
  projection = $state.raw<{ readonly sweepId: number; readonly info: ProjectionInfo } | null>(null);

  /**
   * Forgets the bootstrap, its whiskers, the fit check and the projection when they belong to
   * another sweep than `sweepId`.
   */
  trustFor(sweepId: number | undefined): void {
    if (this.projection && this.projection.sweepId !== sweepId) this.projection = null;
    if (this.bootstrap && this.bootstrap.sweepId !== sweepId) {
      this.bootstrap = null;
      this.intervals = null;
    }
    if (this.fitCheck && this.fitCheck.sweepId !== sweepId) this.fitCheck = null;
  }
  /** The results `modeOf` belongs to. */
  private modesOf: object | null = null;

  /** The mode shown at K, an index into its `count` modes (the major one unless another was chosen). */
  modeIndex(K: number, count: number): number {
    return Math.min(this.modeOf[K] ?? 0, count - 1);
  }

  /** The memberships plotted at k.K: those of the mode shown there (k.Q where there are no modes). */
  shownQ(k: ModesAtK): Float64Array {
    return k.modeQs[this.modeIndex(k.K, k.modeQs.length)]?.Q ?? k.Q;
  }

  /** Clears the chosen modes when `analysis` is another sweep's results than theirs. */
  modesFor(analysis: object | null): void {
    if (analysis === this.modesOf) return;
    this.modesOf = analysis;
    this.modeOf = {};
  }

  setPopulations(pops: string[]): void {
    const kept = this.populationOrder.filter((p) => pops.includes(p));
    this.populationOrder = [...kept, ...pops.filter((p) => !kept.includes(p))];
  }

  movePopulation(from: number, to: number): void {
    const order = [...this.populationOrder];
    const [item] = order.splice(from, 1);
    order.splice(to, 0, item!);
    this.populationOrder = order;
  }

  colour(index: number): string {
    return this.palette[index % this.palette.length]!;
  }
}
