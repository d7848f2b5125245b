/** Pure layout and drawing of STRUCTURE-like bar plots (canvas on screen, SVG for export). */

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
  const dominant = (i: number): [number, number] => {
    if (!sortRow) return [0, 0];
    const K = sortRow.K;
    let best = 0;
    for (let c = 1; c < K; c++) if (sortRow.Q[i * K + c]! > sortRow.Q[i * K + best]!) best = c;
    return [sortRow.colours[best] ?? best, sortRow.Q[i * K + best]!];
  };
  const keys = individuals.map((ind, i) => {
    const [colour, share] = dominant(i);
    return {
      i,
      g: byGroup ? groupFirst.get(ind.group ?? '')! : 0,
      p: popRank.get(ind.population ?? UNLABELLED) ?? Number.MAX_SAFE_INTEGER,
      colour,
      share,
    };
  });
  keys.sort((a, b) => a.g - b.g || a.p - b.p || a.colour - b.colour || b.share - a.share || a.i - b.i);
  const order = keys.map((k) => k.i);
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
function groupStarts(layout: Layout): Set<number> {
  return new Set(layout.groups.slice(1).map((g) => g.start));
}

/** Draws the rows (one per K) of a bar plot on a canvas; each individual is one bar. */
export function drawStructure(
  ctx: CanvasRenderingContext2D,
  layout: Layout,
  rows: readonly PlotRow[],
  palette: readonly string[],
  width: number,
  barHeight: number,
  gap: number,
): void {
  const n = layout.order.length;
  const w = width / Math.max(1, n);
  ctx.clearRect(0, 0, width, rows.length * (barHeight + gap));
  rows.forEach((row, r) => {
    const top = r * (barHeight + gap);
    const K = row.K;
    const order = rowOrder(layout, r);
    for (let pos = 0; pos < n; pos++) {
      const i = order[pos]!;
      let y = top;
      const x0 = Math.floor(pos * w);
      const x1 = Math.floor((pos + 1) * w);
      for (let c = 0; c < K; c++) {
        const h = row.Q[i * K + c]! * barHeight;
        ctx.fillStyle = palette[(row.colours[c] ?? c) % palette.length]!;
        ctx.fillRect(x0, y, Math.max(1, x1 - x0), h + 0.5);
        y += h;
      }
      if (row.intervals) drawWhiskers(ctx, row, i, top, barHeight, x0, x1);
    }
    ctx.fillStyle = '#ffffff';
    const regionStarts = groupStarts(layout);
    for (const s of layout.segments.slice(1))
      if (!regionStarts.has(s.start)) ctx.fillRect(Math.floor(s.start * w), top, 1, barHeight);
    ctx.fillStyle = '#222222';
    for (const start of regionStarts) ctx.fillRect(Math.floor(start * w) - 1, top, 2, barHeight);
  });
}

/** Intervals narrower than this share of the bar are not drawn (they would be a dot). */
const WHISKER_MIN = 0.01;

/**
 * One bar's bootstrap whiskers: for each cluster, the interval of its share drawn where its
 * segment ends (the segment's far edge moves with its share while those before it stay): from
 * (shares before) + lower to (shares before) + upper, with caps where the bar is wide enough.
 */
function drawWhiskers(
  ctx: CanvasRenderingContext2D,
  row: PlotRow,
  i: number,
  top: number,
  barHeight: number,
  x0: number,
  x1: number,
): void {
  const { lower, upper } = row.intervals!;
  const K = row.K;
  const mid = Math.floor((x0 + x1) / 2);
  const cap = x1 - x0 >= 5 ? Math.min(3, Math.floor((x1 - x0) / 3)) : 0;
  ctx.fillStyle = 'rgba(20, 20, 20, 0.8)';
  let before = 0;
  for (let c = 0; c < K; c++) {
    const lo = lower[i * K + c]!;
    const hi = upper[i * K + c]!;
    if (hi - lo >= WHISKER_MIN && c < K - 1) {
      // Kept within the bar (the edge's interval can pass its end when the others are held).
      const y0 = top + Math.min(1, before + lo) * barHeight;
      const y1 = top + Math.min(1, before + hi) * barHeight;
      ctx.fillRect(mid, y0, 1, Math.max(1, y1 - y0));
      if (cap > 0) {
        ctx.fillRect(mid - cap, y0, 2 * cap + 1, 1);
        ctx.fillRect(mid - cap, y1, 2 * cap + 1, 1);
      }
    }
    before += row.Q[i * K + c]!;
  }
}

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
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

export interface SvgOptions {
  readonly width: number;
  readonly barHeight: number;
  readonly title?: string;
  /**
   * The population labels' size in px (default LABEL_PX); every other text and the room it needs
   * (title, K and region labels, ids, notes) scale with it.
   */
  readonly fontSize?: number;
  /** Population labels above the first row (rising to the right) instead of under the last. */
  readonly labelsOnTop?: boolean;
  /**
   * The plot turned a quarter: individuals down the page, one column per K (as wide as a row is
   * high), population and region labels on the left, ids on the right; as tall as it would be wide.
   */
  readonly vertical?: boolean;
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
 * A publication SVG: one <g class="individual"> per individual and row, holding its K stacked
 * rects; population labels under the last row; K labels on the left.
 */
export function structureSvg(
  individuals: readonly PlotIndividual[],
  layout: Layout,
  rows: readonly PlotRow[],
  palette: readonly string[],
  o: SvgOptions,
): string {
  if (o.vertical) return verticalSvg(individuals, layout, rows, palette, o);
  // Every size is LABEL_PX's, scaled by the labels' size asked for.
  const f = (o.fontSize ?? LABEL_PX) / LABEL_PX;
  const px = (size: number) => +(size * f).toFixed(2);
  const left = Math.max(40, Math.ceil(6 + 4 * 0.6 * px(11)));
  const gap = 8;
  // Population labels are rotated by 60°: the space below the plot is what the longest one needs
  // (Helvetica's mean glyph width ≈ 0.55 em), not a fixed margin.
  const longest = Math.max(0, ...layout.segments.map((seg) => seg.label.length));
  const labelSpace = Math.ceil(22 * f + longest * px(9) * 0.55 * Math.sin(Math.PI / 3));
  const plotW = o.width - left - 10;
  const n = layout.order.length;
  const w = plotW / Math.max(1, n);
  // Ids under the bars when each bar is wide enough (7-px text, ≈ 0.55 em a glyph).
  const named = n > 0 && w >= NAME_MIN_BAR_PX * f;
  const nameSpace = named
    ? Math.ceil(6 * f + individuals.reduce((m, d) => Math.max(m, barName(d.id).length), 0) * px(7) * 0.55)
    : 0;
  // The title wraps at word boundaries to the figure's width (≈ 0.55 em per glyph).
  const titleLines = o.title
    ? wrapWords(o.title, Math.max(10, Math.floor((o.width - left - 4) / (px(13) * 0.55))))
    : [];
  // Region labels above the first row, each over a line spanning its populations; a label that
  // would run into its left neighbour moves up a line (staggered), as distruct does.
  const regionLevels = staggerLevels(layout.groups, layout.order.length, plotW, px(9) * 0.6);
  const regionSpace = layout.groups.length ? Math.ceil((regionLevels.includes(1) ? 31 : 20) * f) : 0;
  const titleLine = Math.ceil(16 * f);
  const onTop = o.labelsOnTop === true;
  // Labels on top: the regions above the population labels, the labels just above the first row.
  const regionBase = (titleLines.length ? 8 + titleLine * titleLines.length : 6) + regionSpace;
  const top0 = regionBase + (onTop ? labelSpace : 0);
  const below = onTop ? Math.ceil(14 * f) : labelSpace;
  const height = top0 + rows.length * (o.barHeight + gap) + nameSpace + below;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${o.width}" height="${height}" viewBox="0 0 ${o.width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
  );
  parts.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
  titleLines.forEach((line, k) =>
    parts.push(
      `<text class="title" x="${left}" y="${titleLine * (k + 1)}" font-size="${px(13)}">${escapeXml(line)}</text>`,
    ),
  );
  layout.groups.forEach((g, k) => {
    const x0 = left + g.start * w + 1;
    const x1 = left + g.end * w - 1;
    const cx = (x0 + x1) / 2;
    const y = regionBase - px(9) - px(11) * regionLevels[k]!;
    parts.push(
      `<g class="region"><text x="${cx.toFixed(2)}" y="${y}" font-size="${px(9)}" text-anchor="middle">${escapeXml(g.label)}</text><line x1="${x0.toFixed(2)}" x2="${x1.toFixed(2)}" y1="${regionBase - 5}" y2="${regionBase - 5}" stroke="#444444" stroke-width="0.8"/></g>`,
    );
  });
  const regionStarts = groupStarts(layout);
  rows.forEach((row, r) => {
    const top = top0 + r * (o.barHeight + gap);
    const K = row.K;
    parts.push(
      `<g class="row" data-k="${K}"><text x="${left - 6}" y="${top + o.barHeight / 2}" font-size="${px(11)}" text-anchor="end" dominant-baseline="middle">K=${K}</text>`,
    );
    const order = rowOrder(layout, r);
    for (let pos = 0; pos < n; pos++) {
      const i = order[pos]!;
      let y = top;
      const x = left + pos * w;
      parts.push(`<g class="individual" data-id="${escapeXml(individuals[i]!.id)}">`);
      // Seams: anti-aliased edges of abutting rects let the background through. Each rect reaches
      // under its right and lower neighbours (drawn later, on top); the last bar and the lowest
      // segment stop exactly at the plot's edge, so nothing spills below or beside the row.
      const widthDrawn = pos < n - 1 ? w + Math.min(0.5, w) : w;
      let last = K - 1;
      while (last > 0 && !(row.Q[i * K + last]! > 0)) last--;
      for (let c = 0; c < K; c++) {
        const h = row.Q[i * K + c]! * o.barHeight;
        const hDrawn = c < last ? Math.min(h + 0.5, top + o.barHeight - y) : h;
        if (h > 0)
          parts.push(
            `<rect x="${x.toFixed(3)}" y="${y.toFixed(3)}" width="${widthDrawn.toFixed(3)}" height="${hDrawn.toFixed(3)}" fill="${palette[(row.colours[c] ?? c) % palette.length]}"/>`,
          );
        y += h;
      }
      parts.push('</g>');
    }
    for (const s of layout.segments.slice(1)) {
      const region = regionStarts.has(s.start);
      parts.push(
        `<line x1="${(left + s.start * w).toFixed(3)}" x2="${(left + s.start * w).toFixed(3)}" y1="${top}" y2="${top + o.barHeight}" stroke="${region ? '#222222' : '#ffffff'}" stroke-width="${region ? 1.6 : 0.8}"/>`,
      );
    }
    parts.push('</g>');
  });
  const namesTop = top0 + rows.length * (o.barHeight + gap) - gap + 3;
  if (named) {
    const order = rowOrder(layout, rows.length - 1);
    for (let pos = 0; pos < n; pos++) {
      const cx = left + (pos + 0.5) * w;
      parts.push(
        `<text class="individual-name" x="${cx.toFixed(2)}" y="${namesTop}" font-size="${px(7)}" text-anchor="end" dominant-baseline="middle" transform="rotate(-90 ${cx.toFixed(2)} ${namesTop})">${escapeXml(barName(individuals[order[pos]!]!.id))}</text>`,
      );
    }
  }
  const labelTop = top0 + rows.length * (o.barHeight + gap) + nameSpace;
  // Rotated labels need ≈ their size / sin 60° between anchors (10.4 px at 9 px); narrower
  // neighbours are left out (left to right), and a note under the plot says how many.
  const minGap = px(9) / Math.sin(Math.PI / 3);
  let lastX = -Infinity;
  let omitted = 0;
  for (const s of layout.segments) {
    const cx = left + ((s.start + s.end) / 2) * w;
    if (cx - lastX < minGap) {
      omitted++;
      continue;
    }
    lastX = cx;
    const y = onTop ? top0 - 4 : labelTop + 4;
    parts.push(
      `<text class="population" x="${cx.toFixed(2)}" y="${y}" font-size="${px(9)}" text-anchor="${onTop ? 'start' : 'end'}" transform="rotate(-60 ${cx.toFixed(2)} ${y})">${escapeXml(s.label)}</text>`,
    );
  }
  if (omitted > 0)
    parts.push(
      `<text class="label-note" x="${left}" y="${height - 4}" font-size="${px(8)}" fill="#555555">${omitted} of ${layout.segments.length} population labels omitted: too narrow at this width</text>`,
    );
  parts.push('</svg>');
  return parts.join('');
}

/** Splits text into lines of at most `max` characters at spaces (a longer word stays whole). */
export function wrapWords(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** structureSvg's vertical layout (SvgOptions.vertical): the same marks turned a quarter. */
function verticalSvg(
  individuals: readonly PlotIndividual[],
  layout: Layout,
  rows: readonly PlotRow[],
  palette: readonly string[],
  o: SvgOptions,
): string {
  const f = (o.fontSize ?? LABEL_PX) / LABEL_PX;
  const px = (size: number) => +(size * f).toFixed(2);
  const gap = 8;
  const n = layout.order.length;
  // Down the page: as long as the horizontal plot is wide.
  const plotH = o.width - 50;
  const h = plotH / Math.max(1, n);
  const labelW = Math.ceil(8 + Math.max(0, ...layout.segments.map((g) => g.label.length)) * px(9) * 0.55);
  const regionW = layout.groups.length
    ? Math.ceil(14 + Math.max(0, ...layout.groups.map((g) => g.label.length)) * px(9) * 0.6)
    : 0;
  const left = regionW + labelW;
  const named = n > 0 && h >= NAME_MIN_BAR_PX * f;
  const nameW = named
    ? Math.ceil(6 + individuals.reduce((m, d) => Math.max(m, barName(d.id).length), 0) * px(7) * 0.55)
    : 0;
  const plotW = rows.length * (o.barHeight + gap) - gap;
  const width = Math.max(o.width / 2, left + plotW + 6 + nameW + 6);
  const titleLines = o.title ? wrapWords(o.title, Math.max(10, Math.floor((width - 8) / (px(13) * 0.55)))) : [];
  const titleLine = Math.ceil(16 * f);
  const top0 = (titleLines.length ? 8 + titleLine * titleLines.length : 6) + Math.ceil(18 * f);
  const height = top0 + plotH + 10;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
  ];
  titleLines.forEach((line, k) =>
    parts.push(`<text class="title" x="6" y="${titleLine * (k + 1)}" font-size="${px(13)}">${escapeXml(line)}</text>`),
  );
  layout.groups.forEach((g) => {
    const y0 = top0 + g.start * h + 1;
    const y1 = top0 + g.end * h - 1;
    parts.push(
      `<g class="region"><text x="${regionW - 8}" y="${((y0 + y1) / 2).toFixed(2)}" font-size="${px(9)}" text-anchor="end" dominant-baseline="middle">${escapeXml(g.label)}</text><line x1="${regionW - 4}" x2="${regionW - 4}" y1="${y0.toFixed(2)}" y2="${y1.toFixed(2)}" stroke="#444444" stroke-width="0.8"/></g>`,
    );
  });
  const regionStarts = groupStarts(layout);
  rows.forEach((row, r) => {
    const x0 = left + r * (o.barHeight + gap);
    const K = row.K;
    parts.push(
      `<g class="row" data-k="${K}"><text x="${(x0 + o.barHeight / 2).toFixed(2)}" y="${top0 - 6}" font-size="${px(11)}" text-anchor="middle">K=${K}</text>`,
    );
    const order = rowOrder(layout, r);
    for (let pos = 0; pos < n; pos++) {
      const i = order[pos]!;
      const y = top0 + pos * h;
      // Each rect reaches under the next individual's (drawn later), as the horizontal plot's seams.
      const hDrawn = pos < n - 1 ? h + Math.min(0.5, h) : h;
      parts.push(`<g class="individual" data-id="${escapeXml(individuals[i]!.id)}">`);
      let x = x0;
      for (let c = 0; c < K; c++) {
        const wq = row.Q[i * K + c]! * o.barHeight;
        if (wq > 0)
          parts.push(
            `<rect x="${x.toFixed(3)}" y="${y.toFixed(3)}" width="${Math.min(wq + 0.5, x0 + o.barHeight - x).toFixed(3)}" height="${hDrawn.toFixed(3)}" fill="${palette[(row.colours[c] ?? c) % palette.length]}"/>`,
          );
        x += wq;
      }
      parts.push('</g>');
    }
    for (const s of layout.segments.slice(1)) {
      const region = regionStarts.has(s.start);
      const y = (top0 + s.start * h).toFixed(3);
      parts.push(
        `<line x1="${x0}" x2="${x0 + o.barHeight}" y1="${y}" y2="${y}" stroke="${region ? '#222222' : '#ffffff'}" stroke-width="${region ? 1.6 : 0.8}"/>`,
      );
    }
    parts.push('</g>');
  });
  // Population labels on the left, each at its block's middle; too close to the last: left out.
  let lastY = -Infinity;
  for (const s of layout.segments) {
    const cy = top0 + ((s.start + s.end) / 2) * h;
    if (cy - lastY < px(9) * 1.2) continue;
    lastY = cy;
    parts.push(
      `<text class="population" x="${left - 4}" y="${cy.toFixed(2)}" font-size="${px(9)}" text-anchor="end" dominant-baseline="middle">${escapeXml(s.label)}</text>`,
    );
  }
  if (named) {
    const order = rowOrder(layout, rows.length - 1);
    const x = left + plotW + 4;
    for (let pos = 0; pos < n; pos++)
      parts.push(
        `<text class="individual-name" x="${x}" y="${(top0 + (pos + 0.5) * h).toFixed(2)}" font-size="${px(7)}" dominant-baseline="middle">${escapeXml(barName(individuals[order[pos]!]!.id))}</text>`,
      );
  }
  parts.push('</svg>');
  return parts.join('');
}
