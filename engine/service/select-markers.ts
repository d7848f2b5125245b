import type { GenotypeData } from '../data/genotype-data.ts';
import { runFst } from '../analysis/fst.ts';
import { PANEL_GRID, panelSweep, selectMarkers as twoStepSelection } from '../analysis/marker-selection.ts';
import { preparedData, type PreparedData } from '../model/prepared/prepared-data.ts';
import { chooseModel, type ChosenModel, type FittedRun } from './analyze-sweep.ts';

/** One marker of the ranking, as every front end shows it. */
export interface MarkerRow {
  readonly locus: number;
  readonly name: string;
  readonly chrom?: string;
  readonly pos?: number;
  /** I(X_i; C) under the model (nats). */
  readonly mi: number;
  /** 2 · n_i · I and its χ² degrees of freedom. */
  readonly statistic: number;
  readonly df: number;
  readonly p: number;
  /** w_i: posterior probability that the marker is informative. */
  readonly informative: number;
  /** Per-locus Reynolds distance −ln(1 − θ_i) of the model (docs/algorithms.md §8); unbounded. */
  readonly fst: number;
  /** Per-locus F_ST as Weir & Cockerham's θ_i = 1 − exp(−distance), in [0, 1). */
  readonly fstTheta: number;
  readonly relevant: boolean;
  readonly selected: boolean;
}

export interface MarkerSelection {
  readonly K: number;
  readonly replicate: number;
  /** Markers by decreasing I(X_i; C). */
  readonly rows: readonly MarkerRow[];
  /** Loci of the panel in selection order. */
  readonly panel: readonly number[];
}

/** Use case "select markers": the ranking and panel of section 8.2.1 under one fitted model. */
export function selectMarkers(
  data: GenotypeData,
  md: PreparedData,
  run: FittedRun,
  pRel: number,
  pRed: number,
): MarkerSelection {
  const sel = twoStepSelection(md, run.model, pRel, pRed);
  const perLocusFst = runFst(md, run).perLocus;
  const rows = sel.ranking.map((r): MarkerRow => {
    const locus = data.loci[r.locus]!;
    return {
      locus: r.locus,
      name: locus.name,
      ...(locus.chrom !== undefined ? { chrom: locus.chrom } : {}),
      ...(locus.pos !== undefined ? { pos: locus.pos } : {}),
      mi: r.mi,
      statistic: r.statistic,
      df: r.df,
      p: r.p,
      informative: run.informative[r.locus]!,
      fst: perLocusFst[r.locus]!,
      fstTheta: 1 - Math.exp(-perLocusFst[r.locus]!),
      relevant: r.relevant,
      selected: r.selected,
    };
  });
  return { K: run.K, replicate: run.replicate, rows, panel: sel.panel };
}

/** Panel size over the p_rel × p_red grid of section 8.5.2. */
export function panelSizes(md: PreparedData, run: FittedRun): { pRel: number; pRed: number; size: number }[] {
  return panelSweep(md, run.model, PANEL_GRID.pRel, PANEL_GRID.pRed);
}

/** What the "select markers" use case gives: the model chosen, its ranking and panel, the grid's sizes. */
export interface MarkerPanel {
  readonly chosen: ChosenModel;
  readonly selection: MarkerSelection;
  /** Panel sizes over the p_rel × p_red grid, when asked for. */
  readonly grid?: { pRel: number; pRed: number; size: number }[];
}

/**
 * Use case "select markers" (the CLI's `select` and the app's Markers view): the model at K (or at
 * the K of highest mean F_ST) chosen among the runs, its markers ranked by mutual information and
 * selected by the two-step test at (p_rel, p_red); with `grid`, the panel sizes over the grid too.
 */
export function markerPanel(
  data: GenotypeData,
  runs: readonly FittedRun[],
  K: number | undefined,
  pRel: number,
  pRed: number,
  grid = false,
): MarkerPanel {
  const md = preparedData(data);
  const chosen = chooseModel(md, runs, K);
  const selection = selectMarkers(data, md, chosen.run, pRel, pRed);
  return { chosen, selection, ...(grid ? { grid: panelSizes(md, chosen.run) } : {}) };
}
