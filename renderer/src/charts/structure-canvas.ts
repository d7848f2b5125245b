/** STRUCTURE-like bar plots drawn on a canvas (the view on screen); layout in structure-layout.ts. */
import { groupStarts, rowOrder, type Layout, type PlotRow } from './structure-layout.ts';

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
