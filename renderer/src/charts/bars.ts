import { max as d3max, scaleBand, scaleLinear, select } from 'd3';

export interface BarChartOptions {
  readonly width: number;
  readonly height: number;
  readonly values: readonly number[];
  readonly labels?: readonly string[];
  readonly format?: (v: number) => string;
  readonly title: string;
}

/** Draws a compact bar chart of `values` into an SVG element (replaces its content). */
export function drawBars(svg: SVGSVGElement, o: BarChartOptions): void {
  const margin = { top: 8, right: 8, bottom: 18, left: 40 };
  const w = o.width - margin.left - margin.right;
  const h = o.height - margin.top - margin.bottom;
  const root = select(svg)
    .attr('viewBox', `0 0 ${o.width} ${o.height}`)
    .attr('role', 'img')
    .attr('aria-label', o.title);
  root.selectAll('*').remove();
  const g = root.append('g').attr('transform', `translate(${margin.left},${margin.top})`);
  const x = scaleBand<number>()
    .domain(o.values.map((_, i) => i))
    .range([0, w])
    .paddingInner(o.values.length > 200 ? 0 : 0.1);
  const top = Math.max(1e-9, d3max(o.values) ?? 1);
  const y = scaleLinear().domain([0, top]).nice().range([h, 0]);
  const fmt = o.format ?? ((v: number) => v.toFixed(2));
  g.append('g')
    .selectAll('rect')
    .data(o.values)
    .join('rect')
    .attr('x', (_, i) => x(i)!)
    .attr('y', (v) => y(v))
    .attr('width', Math.max(0.5, x.bandwidth()))
    .attr('height', (v) => h - y(v))
    .attr('class', 'bar')
    .append('title')
    .text((v, i) => `${o.labels?.[i] ?? i + 1}: ${fmt(v)}`);
  const ticks = y.ticks(3);
  g.append('g')
    .selectAll('text')
    .data(ticks)
    .join('text')
    .attr('x', -4)
    .attr('y', (t) => y(t))
    .attr('dy', '0.32em')
    .attr('text-anchor', 'end')
    .attr('class', 'tick')
    .text((t) => fmt(t));
  g.append('line').attr('x1', 0).attr('x2', w).attr('y1', h).attr('y2', h).attr('class', 'axis');
}
