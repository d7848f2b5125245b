import { arc, extent, pie, scaleLinear, select } from 'd3';

/** One individual in PC space. */
export interface PcaPoint {
  readonly id: string;
  /** The class it is coloured by (population or region), or undefined. */
  readonly label: string | undefined;
  readonly x: number;
  readonly y: number;
  /** Drawn as a small pie of these shares (in `colours` order) instead of a dot, when given. */
  readonly shares?: readonly number[];
}

export interface PcaScatterOptions {
  readonly width: number;
  readonly height: number;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly title: string;
  /** Classes in legend order and their colours (same index). */
  readonly classes: readonly string[];
  readonly colours: readonly string[];
}

const NONE = '(none)';
const INK = '#333333';
const GRID = '#dddddd';

/**
 * A scatter of individuals on two principal components, coloured by class, with a legend, axis
 * labels and a title, drawn with literal colours so the serialised SVG exports as it looks.
 * Each point carries its id and coordinates (data-id, data-x, data-y) and a <title> naming the
 * individual and its class (the hover text).
 */
export function drawPcaScatter(svg: SVGSVGElement, points: readonly PcaPoint[], o: PcaScatterOptions): void {
  const legendWidth = o.classes.length > 0 ? 170 : 0;
  const m = { top: 34, right: 16 + legendWidth, bottom: 44, left: 60 };
  const root = select(svg)
    .attr('xmlns', 'http://www.w3.org/2000/svg')
    .attr('viewBox', `0 0 ${o.width} ${o.height}`)
    .attr('width', o.width)
    .attr('height', o.height)
    .attr('font-family', 'Liberation Sans, Helvetica, Arial, sans-serif');
  root.selectAll('*').remove();
  root.append('rect').attr('width', o.width).attr('height', o.height).attr('fill', '#ffffff');
  const pad = (lo: number, hi: number): [number, number] => {
    const span = hi - lo || 1;
    return [lo - 0.05 * span, hi + 0.05 * span];
  };
  const [x0, x1] = extent(points, (p) => p.x) as [number, number];
  const [y0, y1] = extent(points, (p) => p.y) as [number, number];
  const x = scaleLinear()
    .domain(pad(x0 ?? 0, x1 ?? 1))
    .range([m.left, o.width - m.right]);
  const y = scaleLinear()
    .domain(pad(y0 ?? 0, y1 ?? 1))
    .range([o.height - m.bottom, m.top]);
  const g = root.append('g');
  for (const t of x.ticks(6)) {
    g.append('line')
      .attr('x1', x(t))
      .attr('x2', x(t))
      .attr('y1', m.top)
      .attr('y2', o.height - m.bottom)
      .attr('stroke', GRID);
    g.append('text')
      .attr('x', x(t))
      .attr('y', o.height - m.bottom + 14)
      .attr('text-anchor', 'middle')
      .attr('font-size', 10)
      .attr('fill', INK)
      .text(String(Number(t.toPrecision(3))));
  }
  for (const t of y.ticks(6)) {
    g.append('line')
      .attr('x1', m.left)
      .attr('x2', o.width - m.right)
      .attr('y1', y(t))
      .attr('y2', y(t))
      .attr('stroke', GRID);
    g.append('text')
      .attr('x', m.left - 6)
      .attr('y', y(t))
      .attr('dy', '0.32em')
      .attr('text-anchor', 'end')
      .attr('font-size', 10)
      .attr('fill', INK)
      .text(String(Number(t.toPrecision(3))));
  }
  g.append('text')
    .attr('x', (m.left + o.width - m.right) / 2)
    .attr('y', o.height - 8)
    .attr('text-anchor', 'middle')
    .attr('font-size', 12)
    .attr('fill', INK)
    .text(o.xLabel);
  g.append('text')
    .attr('transform', `translate(14, ${(m.top + o.height - m.bottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .attr('font-size', 12)
    .attr('fill', INK)
    .text(o.yLabel);
  g.append('text').attr('x', m.left).attr('y', 18).attr('font-size', 13).attr('fill', INK).text(o.title);
  const colourOf = new Map(o.classes.map((c, k) => [c, o.colours[k % o.colours.length]!]));
  const withPies = points.some((p) => p.shares);
  if (withPies) {
    const slices = pie<number>().sort(null);
    const slice = arc<{ startAngle: number; endAngle: number }>().innerRadius(0).outerRadius(4);
    const pies = g.append('g').attr('data-testid', 'pca-pies');
    for (const p of points) {
      if (!p.shares) continue;
      const one = pies.append('g').attr('transform', `translate(${x(p.x)},${y(p.y)})`);
      slices([...p.shares]).forEach((s, k) => {
        if (s.endAngle > s.startAngle)
          one
            .append('path')
            .attr('d', slice(s) ?? '')
            .attr('fill', o.colours[k % o.colours.length]!);
      });
    }
  }
  const dots = g
    .append('g')
    .attr('data-testid', 'pca-points')
    .selectAll('circle')
    .data(points)
    .join('circle')
    .attr('cx', (p) => x(p.x))
    .attr('cy', (p) => y(p.y))
    .attr('r', withPies ? 4 : 3)
    .attr('fill', (p) => (withPies ? 'none' : (colourOf.get(p.label ?? NONE) ?? '#999999')))
    .attr('fill-opacity', 0.8)
    .attr('stroke', '#ffffff')
    .attr('stroke-width', withPies ? 0.3 : 0.4)
    // Hover over the whole pie, not only its outline.
    .attr('pointer-events', 'all')
    .attr('data-id', (p) => p.id)
    .attr('data-x', (p) => p.x)
    .attr('data-y', (p) => p.y);
  dots.append('title').text((p) => `${p.id}${p.label !== undefined ? ` (${p.label})` : ''}`);
  if (legendWidth > 0) {
    const shown = o.classes.slice(0, Math.max(1, Math.floor((o.height - m.top) / 14) - 1));
    const legend = root
      .append('g')
      .attr('data-testid', 'pca-legend')
      .attr('transform', `translate(${o.width - legendWidth + 4}, ${m.top})`);
    shown.forEach((c, k) => {
      legend
        .append('circle')
        .attr('cx', 5)
        .attr('cy', k * 14 + 5)
        .attr('r', 4)
        .attr('fill', colourOf.get(c)!);
      legend
        .append('text')
        .attr('x', 14)
        .attr('y', k * 14 + 5)
        .attr('dy', '0.32em')
        .attr('font-size', 10)
        .attr('fill', INK)
        .text(c.length > 24 ? `${c.slice(0, 23)}…` : c);
    });
    if (shown.length < o.classes.length)
      legend
        .append('text')
        .attr('x', 0)
        .attr('y', shown.length * 14 + 5)
        .attr('dy', '0.32em')
        .attr('font-size', 10)
        .attr('fill', INK)
        .text(`… and ${o.classes.length - shown.length} more`);
  }
}

/** The label an individual is coloured by, and the label for none. */
export function classOf(ind: { population?: string; group?: string }, by: 'population' | 'group'): string {
  return (by === 'group' ? ind.group : ind.population) ?? NONE;
}
