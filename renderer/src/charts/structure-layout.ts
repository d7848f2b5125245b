/** The layout of STRUCTURE-like bar plots: individuals' order, population and region spans, labels (drawn by structure-canvas.ts on screen and structure-svg.ts for export). */

export interface PlotIndividual {
  readonly id: string;
  readonly population?: string;
  readonly group?: string;
}

/** One K: the aligned membership matrix (N, K) and the palette index of each column. */
export interface PlotRow {
  readonly K: number;
  readonly Q: Float64Array;
  readonly colours: readonly number[];
  /** Bootstrap 95 % intervals of Q (shape (N, K), Q's columns), drawn as whiskers. */
  readonly intervals?: { readonly lower: Float64Array; readonly upper: Float64Array };
}

export interface Segment {
  readonly label: string;
  readonly group?: string;
  readonly start: number;
  readonly end: number;
}

export interface Layout {
  /** Plot position → individual index. */
  readonly order: readonly number[];
  /** Consecutive runs of one population (in plot positions). */
  readonly segments: readonly Segment[];
  /** Consecutive runs of one higher group (region) when grouping by region; empty otherwise. */
  readonly groups: readonly Segment[];
  /**
   * Per row (K), its own order: within each population by that row's dominant cluster (the
   * populations keep their places). Absent: every row in `order`.
   */
  readonly rowOrders?: readonly (readonly number[])[];
}

/** The order of row r: its own when the layout sorts each row, else the shared one. */
export function rowOrder(layout: Layout, r: number): readonly number[] {
  return layout.rowOrders?.[r] ?? layout.order;
}

/**
 * The layout with each row sorted within populations by its own dominant cluster (pophelper's
 * and distruct's default reading: admixed populations read cleanly in every row).
 */
export function withRowOrders(
  layout: Layout,
  individuals: readonly PlotIndividual[],
  populationOrder: readonly string[],
  rows: readonly PlotRow[],
  byGroup: boolean,
): Layout {
  return {
    ...layout,
    rowOrders: rows.map((row) => layoutIndividuals(individuals, populationOrder, row, byGroup).order),
  };
}

export const UNLABELLED = '(no population)';

/**
 * Orders individuals for the plot: by higher group (when asked), then population in
 * `populationOrder`, then within each population by dominant cluster (palette order of the
 * sorting row) and decreasing membership in it.
 */
export function layoutIndividuals(
  individuals: readonly PlotIndividual[],
  populationOrder: readonly string[],
  sortRow: PlotRow | undefined,
  byGroup: boolean,
): Layout {
  const popRank = new Map(populationOrder.map((p, k) => [p, k]));
  // Populations the order does not list (another view's order, a filtered or new dataset) follow
  // in their first appearance, each kept together: ranked alike they would mix by colour, and
  // their names repeat along the axis.
  for (const ind of individuals) {
    const p = ind.population ?? UNLABELLED;
    if (!popRank.has(p)) popRank.set(p, popRank.size);
  }
  const groupFirst = new Map<string, number>();
  individuals.forEach((ind) => {
    const g = ind.group ?? '';
    const r = popRank.get(ind.population ?? UNLABELLED) ?? Number.MAX_SAFE_INTEGER;
    groupFirst.set(g, Math.min(groupFirst.get(g) ?? Number.MAX_SAFE_INTEGER, r));
  });
  // Sort keys in typed arrays (a plot of 100,000 individuals sorts in tens of ms, not hundreds).
  const n = individuals.length;
  const gKey = new Float64Array(n);
  const pKey = new Float64Array(n);
  const colourKey = new Float64Array(n);
  const shareKey = new Float64Array(n);
  individuals.forEach((ind, i) => {
    gKey[i] = byGroup ? groupFirst.get(ind.group ?? '')! : 0;
    pKey[i] = popRank.get(ind.population ?? UNLABELLED) ?? Number.MAX_SAFE_INTEGER;
    if (!sortRow) return;
    // The dominant cluster (palette order of the sorting row) and its share.
    const K = sortRow.K;
    let best = 0;
    for (let c = 1; c < K; c++) if (sortRow.Q[i * K + c]! > sortRow.Q[i * K + best]!) best = c;
    colourKey[i] = sortRow.colours[best] ?? best;
    shareKey[i] = sortRow.Q[i * K + best]!;
  });
  const order = Array.from(
    Int32Array.from({ length: n }, (_, i) => i).sort(
      (a, b) =>
        gKey[a]! - gKey[b]! ||
        pKey[a]! - pKey[b]! ||
        colourKey[a]! - colourKey[b]! ||
        shareKey[b]! - shareKey[a]! ||
        a - b,
    ),
  );
  const segments: Segment[] = [];
  order.forEach((i, pos) => {
    const label = individuals[i]!.population ?? UNLABELLED;
    const last = segments[segments.length - 1];
    if (last && last.label === label) (last as { end: number }).end = pos + 1;
    else segments.push({ label, group: individuals[i]!.group, start: pos, end: pos + 1 });
  });
  const groups: Segment[] = [];
  if (byGroup && individuals.some((ind) => ind.group))
    order.forEach((i, pos) => {
      const label = individuals[i]!.group ?? '';
      const last = groups[groups.length - 1];
      if (last && last.label === label) (last as { end: number }).end = pos + 1;
      else groups.push({ label, start: pos, end: pos + 1 });
    });
  return { order, segments, groups };
}

/** Plot positions where a new region starts (a wider separator than between populations). */
export function groupStarts(layout: Layout): Set<number> {
  return new Set(layout.groups.slice(1).map((g) => g.start));
}

/**
 * Bars at least this wide (px) get their individual's id written under the last row, rotated to
 * read upwards (7-px text needs about 8 px between baselines): small datasets, or a wide figure.
 */
export const NAME_MIN_BAR_PX = 9;
/** Ids longer than this are shortened with an ellipsis under the bars (the tooltip has them whole). */
export const NAME_MAX_CHARS = 16;

/** An id as written under its bar. */
export function barName(id: string): string {
  return id.length > NAME_MAX_CHARS ? `${id.slice(0, NAME_MAX_CHARS - 1)}…` : id;
}

/** The population labels' default size (px at 96 dpi; 6.75 pt). */
export const LABEL_PX = 9;

/**
 * The line of each region label over a plot `widthPx` wide (0: just above the plot, 1: a line
 * higher): a label centred on its span that would run into its left neighbour on line 0 moves up
 * a line (staggered, as distruct does), so no label is cut; `charPx` is the width of a glyph.
 */
export function staggerLevels(
  groups: readonly { readonly label: string; readonly start: number; readonly end: number }[],
  total: number,
  widthPx: number,
  charPx: number,
): number[] {
  const unit = widthPx / Math.max(1, total);
  const levels: number[] = [];
  let lastEnd = [-Infinity, -Infinity];
  for (const g of groups) {
    const cx = ((g.start + g.end) / 2) * unit;
    const half = (g.label.length * charPx) / 2;
    const level = cx - half < lastEnd[0]! + 4 ? 1 : 0;
    levels.push(level);
    lastEnd = level === 0 ? [cx + half, lastEnd[1]!] : [lastEnd[0]!, cx + half];
  }
  return levels;
}

/**
 * The plot positions a column of `columns` covers when there are more individuals than columns
 * (each column at least one): [from, to).
 */
export function columnSpan(column: number, columns: number, n: number): { from: number; to: number } {
  return { from: Math.floor((column * n) / columns), to: Math.floor(((column + 1) * n) / columns) };
}

/**
 * Row r's mean memberships per column (shape (columns, K)) when each of `columns` pixel columns
 * stands for the individuals under it: a plot of 100,000 individuals drawn one column per pixel,
 * each column the average bar of its individuals (their bars would be narrower than a pixel).
 */
export function columnShares(layout: Layout, row: PlotRow, r: number, columns: number): Float64Array {
  const order = rowOrder(layout, r);
  const n = order.length;
  const K = row.K;
  const out = new Float64Array(columns * K);
  for (let c = 0; c < columns; c++) {
    const { from, to } = columnSpan(c, columns, n);
    for (let pos = from; pos < to; pos++) {
      const i = order[pos]!;
      for (let k = 0; k < K; k++) out[c * K + k]! += row.Q[i * K + k]!;
    }
    const count = Math.max(1, to - from);
    for (let k = 0; k < K; k++) out[c * K + k]! /= count;
  }
  return out;
}
