/** STRUCTURE-like bar plots drawn on a canvas (the view on screen); layout in structure-layout.ts. */
import { columnShares, groupStarts, rowOrder, type Layout, type PlotRow } from './structure-layout.ts';

/**
 * Draws the rows (one per K) of a bar plot on a canvas; each individual is one bar, or — with more
 * individuals than the canvas has pixel columns — each pixel column the mean bar of the
 * individuals under it (drawPixelColumns), so 100,000 individuals draw as fast as 1,000.
 */
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
  const scale = ctx.getTransform().a || 1;
  const summarised = summarisedColumns(n, width, scale);
  rows.forEach((row, r) => {
    const top = r * (barHeight + gap);
    const K = row.K;
    const order = rowOrder(layout, r);
    if (summarised > 0) drawPixelColumns(ctx, layout, row, r, palette, summarised, top, barHeight, scale);
    else
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

/**
 * The pixel columns to summarise the individuals into (0: draw each individual's bar): when there
 * are more individuals than device pixels across.
 */
export function summarisedColumns(n: number, width: number, scale: number): number {
  const columns = Math.max(1, Math.floor(width * scale));
  return n > columns ? columns : 0;
}

/** #rgb or #rrggbb as [r, g, b] (grey for anything else). */
function rgb(colour: string): [number, number, number] {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim());
  if (!m) return [128, 128, 128];
  const h = m[1]!.length === 3 ? [...m[1]!].map((x) => x + x).join('') : m[1]!;
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

/**
 * Row r as one stacked bar per device pixel column (the mean of its individuals, columnShares),
 * written into the canvas's pixels at once.
 */
function drawPixelColumns(
  ctx: CanvasRenderingContext2D,
  layout: Layout,
  row: PlotRow,
  r: number,
  palette: readonly string[],
  columns: number,
  top: number,
  barHeight: number,
  scale: number,
): void {
  const K = row.K;
  const shares = columnShares(layout, row, r, columns);
  const y0 = Math.round(top * scale);
  const height = Math.max(1, Math.round(barHeight * scale));
  const image = ctx.createImageData(columns, height);
  const colours = Array.from({ length: K }, (_, c) => rgb(palette[(row.colours[c] ?? c) % palette.length]!));
  const px = image.data;
  for (let x = 0; x < columns; x++) {
    // Cluster c fills the pixels whose centre lies below the shares before it and above its end.
    let c = 0;
    let end = shares[x * K]! * height;
    for (let y = 0; y < height; y++) {
      while (c < K - 1 && y + 0.5 > end) end += shares[x * K + ++c]! * height;
      const [red, green, blue] = colours[c]!;
      const o = (y * columns + x) * 4;
      px[o] = red;
      px[o + 1] = green;
      px[o + 2] = blue;
      px[o + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, y0);
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
