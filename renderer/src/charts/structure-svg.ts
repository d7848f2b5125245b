/** STRUCTURE-like bar plots as SVG (exports: SVG, PDF, PNG); layout in structure-layout.ts. */
import {
  barName,
  columnShares,
  groupStarts,
  LABEL_PX,
  NAME_MIN_BAR_PX,
  rowOrder,
  staggerLevels,
  type Layout,
  type PlotIndividual,
  type PlotRow,
} from './structure-layout.ts';

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
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

/** Columns per px (96 to the inch) of a summarised export: 600 dpi, finer than print shows. */
const COLUMNS_PER_PX = 600 / 96;

/**
 * How many columns an export `lengthPx` long draws its bars as, when its individuals are more than
 * that (bars thinner than 1/600 inch: each column the mean bar of the individuals under it, so a
 * figure of 100,000 individuals stays vector and small); 0: a bar per individual.
 */
export function exportColumns(n: number, lengthPx: number): number {
  const columns = Math.max(1, Math.floor(lengthPx * COLUMNS_PER_PX));
  return n > columns ? columns : 0;
}

/** The note a summarised export carries. */
export function summaryNote(n: number, columns: number): string {
  return `${n.toLocaleString('en')} individuals drawn as ${columns.toLocaleString('en')} columns at 600 dpi, each the mean of the individuals under it`;
}

/** Each cluster's colour of a row (its palette index, row.colours). */
function rowColours(row: PlotRow, palette: readonly string[]): string[] {
  return Array.from({ length: row.K }, (_, c) => palette[(row.colours[c] ?? c) % palette.length]!);
}

/**
 * One bar's stacked rects: at `along` on the axis of the individuals (x, or y when `vertical`),
 * `size` wide, from `across0` over `barHeight`, the K shares q[offset..] in `colours`. Seams:
 * anti-aliased edges of abutting rects let the background through, so each rect but the last
 * non-empty one reaches 0.5 under the next (drawn later, on top), stopping at the bar's end.
 */
function stackedRects(
  parts: string[],
  q: ArrayLike<number>,
  offset: number,
  K: number,
  colours: readonly string[],
  along: number,
  size: number,
  across0: number,
  barHeight: number,
  vertical: boolean,
): void {
  let last = K - 1;
  while (last > 0 && !(q[offset + last]! > 0)) last--;
  let at = across0;
  for (let c = 0; c < K; c++) {
    const h = q[offset + c]! * barHeight;
    const hDrawn = c < last ? Math.min(h + 0.5, across0 + barHeight - at) : h;
    if (h > 0)
      parts.push(
        vertical
          ? `<rect x="${at.toFixed(3)}" y="${along.toFixed(3)}" width="${hDrawn.toFixed(3)}" height="${size.toFixed(3)}" fill="${colours[c]}"/>`
          : `<rect x="${along.toFixed(3)}" y="${at.toFixed(3)}" width="${size.toFixed(3)}" height="${hDrawn.toFixed(3)}" fill="${colours[c]}"/>`,
      );
    at += h;
  }
}

/**
 * A row drawn as `columns` summary columns (exportColumns) over `length` px from `start`.
 */
function summaryColumns(
  parts: string[],
  layout: Layout,
  row: PlotRow,
  r: number,
  colours: readonly string[],
  columns: number,
  start: number,
  length: number,
  across0: number,
  barHeight: number,
  vertical: boolean,
): void {
  const K = row.K;
  const shares = columnShares(layout, row, r, columns);
  const step = length / columns;
  parts.push(`<g class="columns">`);
  for (let x = 0; x < columns; x++)
    stackedRects(
      parts,
      shares,
      x * K,
      K,
      colours,
      start + x * step,
      x < columns - 1 ? step + 0.5 : step,
      across0,
      barHeight,
      vertical,
    );
  parts.push('</g>');
}

/**
 * A publication SVG: one <g class="individual"> per individual and row, holding its K stacked
 * rects (or, with more individuals than 600 dpi columns, <g class="columns">: exportColumns);
 * population labels under the last row; K labels on the left.
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
  const columns = exportColumns(n, plotW);
  const height = top0 + rows.length * (o.barHeight + gap) + nameSpace + below + (columns > 0 ? Math.ceil(12 * f) : 0);
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
    const colours = rowColours(row, palette);
    if (columns > 0) summaryColumns(parts, layout, row, r, colours, columns, left, plotW, top, o.barHeight, false);
    for (let pos = 0; columns === 0 && pos < n; pos++) {
      const i = order[pos]!;
      const x = left + pos * w;
      parts.push(`<g class="individual" data-id="${escapeXml(individuals[i]!.id)}">`);
      // Each bar reaches under its right neighbour, as its rects under the next (stackedRects);
      // the last bar stops exactly at the plot's edge, so nothing spills beside the row.
      const widthDrawn = pos < n - 1 ? w + Math.min(0.5, w) : w;
      stackedRects(parts, row.Q, i * K, K, colours, x, widthDrawn, top, o.barHeight, false);
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
  if (columns > 0)
    parts.push(
      `<text class="summary-note" x="${left}" y="${height - 4 - (omitted > 0 ? Math.ceil(11 * f) : 0)}" font-size="${px(8)}" fill="#555555">${summaryNote(n, columns)}</text>`,
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
  const columns = exportColumns(n, plotH);
  const height = top0 + plotH + 10 + (columns > 0 ? Math.ceil(12 * f) : 0);
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
    if (columns > 0)
      summaryColumns(parts, layout, row, r, rowColours(row, palette), columns, top0, plotH, x0, o.barHeight, true);
    for (let pos = 0; columns === 0 && pos < n; pos++) {
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
  if (columns > 0)
    parts.push(
      `<text class="summary-note" x="6" y="${height - 4}" font-size="${px(8)}" fill="#555555">${summaryNote(n, columns)}</text>`,
    );
  parts.push('</svg>');
  return parts.join('');
}
