import { extent, line, scaleLinear, scaleLog, select } from 'd3';

export interface CurvePoint {
  readonly method: string;
  readonly size: number;
  readonly accuracy: number;
}

const COLOURS: Record<string, string> = { mi: '#0072B2', fst: '#D55E00', random: '#999999' };
const NAMES: Record<string, string> = { mi: 'mutual information', fst: 'F_ST', random: 'random' };

/** Cross-validated accuracy against panel size (log scale), one line per selection method. */
export function drawPanelCurve(svg: SVGSVGElement, points: readonly CurvePoint[], width: number, height: number): void {
  const m = { top: 12, right: 130, bottom: 32, left: 48 };
  const root = select(svg).attr('viewBox', `0 0 ${width} ${height}`);
  root.selectAll('*').remove();
  const [s0, s1] = extent(points, (p) => p.size) as [number, number];
  const x = scaleLog()
    .domain([s0, Math.max(s1, s0 + 1)])
    .range([m.left, width - m.right]);
  const y = scaleLinear()
    .domain([0, 1])
    .range([height - m.bottom, m.top]);
  const g = root.append('g');
  g.selectAll('line.grid')
    .data(y.ticks(5))
    .join('line')
    .attr('x1', m.left)
    .attr('x2', width - m.right)
    .attr('y1', (t) => y(t))
    .attr('y2', (t) => y(t))
    .attr('stroke', 'var(--border)');
  g.selectAll('text.yt')
    .data(y.ticks(5))
    .join('text')
    .attr('x', m.left - 6)
    .attr('y', (t) => y(t))
    .attr('dy', '0.32em')
    .attr('text-anchor', 'end')
    .attr('font-size', 10)
    .attr('fill', 'var(--muted)')
    .text((t) => `${Math.round(t * 100)}%`);
  const sizes = [...new Set(points.map((p) => p.size))];
  g.selectAll('text.xt')
    .data(sizes)
    .join('text')
    .attr('x', (s) => x(s))
    .attr('y', height - 12)
    .attr('text-anchor', 'middle')
    .attr('font-size', 10)
    .attr('fill', 'var(--muted)')
    .text((s) => String(s));
  const methods = [...new Set(points.map((p) => p.method))];
  methods.forEach((method, k) => {
    const pts = points.filter((p) => p.method === method).sort((a, b) => a.size - b.size);
    const path = line<CurvePoint>()
      .x((p) => x(p.size))
      .y((p) => y(p.accuracy));
    g.append('path')
      .attr('d', path(pts))
      .attr('fill', 'none')
      .attr('stroke', COLOURS[method] ?? '#333')
      .attr('stroke-width', 2);
    g.selectAll(`circle.m${k}`)
      .data(pts)
      .join('circle')
      .attr('cx', (p) => x(p.size))
      .attr('cy', (p) => y(p.accuracy))
      .attr('r', 3)
      .attr('fill', COLOURS[method] ?? '#333')
      .append('title')
      .text((p) => `${NAMES[method] ?? method}, ${p.size} markers: ${(100 * p.accuracy).toFixed(1)}%`);
    g.append('text')
      .attr('x', width - m.right + 8)
      .attr('y', m.top + 14 * k + 6)
      .attr('font-size', 11)
      .attr('fill', COLOURS[method] ?? '#333')
      .text(NAMES[method] ?? method);
  });
  root
    .append('text')
    .attr('x', (m.left + width - m.right) / 2)
    .attr('y', height - 1)
    .attr('text-anchor', 'middle')
    .attr('font-size', 10)
    .attr('fill', 'var(--muted)')
    .text('markers in the panel');
}
