import { extent, line, scaleLinear, scalePoint, select } from 'd3';

export interface FstPoint {
  readonly K: number;
  readonly fst: readonly number[];
  readonly mean: number;
  readonly sd: number;
}

/**
 * A statistic per K (F_ST by default; the admixture model's CV error): each replicate as a dot,
 * the mean as a bar with ± 1 sd whiskers.
 */
export function drawFstByK(
  svg: SVGSVGElement,
  data: readonly FstPoint[],
  width: number,
  height: number,
  label = 'F_ST',
  /** The K of the x axis (default: those of `data`); charts of one sweep share it so their K line up. */
  ks: readonly number[] = data.map((d) => d.K),
): void {
  const all = data.flatMap((d) => [...d.fst, d.mean - d.sd, d.mean + d.sd]);
  // Zoomed to the values (F_ST differences between K are often in the third decimal); the
  // ticks say where the axis starts.
  const [lo = 0, hi = 1] = extent(all) as [number | undefined, number | undefined];
  const span = hi - lo;
  const pad = span > 0 ? 0.15 * span : Math.max(0.05 * Math.abs(hi), 1e-4);
  const y = scaleLinear()
    .domain([lo - pad, hi + pad])
    .nice()
    .range([height - 30, 12]);
  const tickFormat = y.tickFormat(4);
  // The left margin fits the widest tick label (log-likelihoods run to −2,700,000) and the axis
  // title; at least 96 px, so the charts of one sweep (F_ST, ln L, ΔK) put each K at the same x.
  const widest = Math.max(...y.ticks(4).map((t) => tickFormat(t).length));
  const m = { top: 12, right: 16, bottom: 30, left: Math.max(96, 30 + widest * 6) };
  const root = select(svg).attr('viewBox', `0 0 ${width} ${height}`);
  root.selectAll('*').remove();
  const x = scalePoint<number>()
    .domain([...ks])
    .range([m.left, width - m.right])
    .padding(0.5);
  const g = root.append('g');
  g.selectAll('line.grid')
    .data(y.ticks(4))
    .join('line')
    .attr('class', 'grid')
    .attr('x1', m.left)
    .attr('x2', width - m.right)
    .attr('y1', (t) => y(t))
    .attr('y2', (t) => y(t))
    .attr('stroke', 'var(--border)');
  g.selectAll('text.yt')
    .data(y.ticks(4))
    .join('text')
    .attr('class', 'yt')
    .attr('x', m.left - 6)
    .attr('y', (t) => y(t))
    .attr('dy', '0.32em')
    .attr('text-anchor', 'end')
    .attr('font-size', 10)
    .attr('fill', 'var(--muted)')
    .text((t) => tickFormat(t));
  g.selectAll('text.xt')
    .data(data)
    .join('text')
    .attr('class', 'xt')
    .attr('x', (d) => x(d.K)!)
    .attr('y', height - 10)
    .attr('text-anchor', 'middle')
    .attr('font-size', 11)
    .attr('fill', 'var(--text)')
    .text((d) => `K=${d.K}`);
  const trend = line<FstPoint>()
    .x((d) => x(d.K)!)
    .y((d) => y(d.mean));
  g.append('path')
    .attr('d', trend(data as FstPoint[]))
    .attr('fill', 'none')
    .attr('stroke', 'var(--accent)')
    .attr('stroke-opacity', 0.45)
    .attr('stroke-width', 1.5);
  const k = g
    .selectAll('g.k')
    .data(data)
    .join('g')
    .attr('class', 'k')
    .attr('transform', (d) => `translate(${x(d.K)},0)`);
  k.append('line')
    .attr('y1', (d) => y(d.mean - d.sd))
    .attr('y2', (d) => y(d.mean + d.sd))
    .attr('stroke', 'var(--accent)')
    .attr('stroke-width', 2);
  k.append('rect')
    .attr('x', -10)
    .attr('width', 20)
    .attr('y', (d) => y(d.mean) - 1.5)
    .attr('height', 3)
    .attr('fill', 'var(--accent)');
  k.selectAll('circle')
    .data((d) => d.fst.map((f, r) => ({ f, r })))
    .join('circle')
    .attr('cx', (p) => ((p.r % 7) - 3) * 3)
    .attr('cy', (p) => y(p.f))
    .attr('r', 3)
    .attr('fill', 'var(--text)')
    .attr('fill-opacity', 0.55)
    .append('title')
    .text((p) => `replicate ${p.r + 1}: ${label.replace('_', '')} ${p.f.toFixed(4)}`);
  const title = root
    .append('text')
    .attr('transform', `translate(14,${height / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .attr('font-size', 11)
    .attr('fill', 'var(--muted)');
  // "X_AB" is written with a subscript (F_ST as F with ST below the line).
  const [main, sub] = label.split('_');
  title.append('tspan').text(main!);
  if (sub) title.append('tspan').attr('baseline-shift', 'sub').attr('font-size', 8).text(sub);
}
