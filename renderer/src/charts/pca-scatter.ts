import { arc, extent, pie, scaleLinear, select, type Selection } from 'd3';

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
  if (!withPies && points.length > MAX_VECTOR_POINTS) {
    rasterPoints(g, points, x, y, colourOf, o, m);
    drawLegend(root, o, colourOf, legendWidth, m);
    return;
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
  drawLegend(root, o, colourOf, legendWidth, m);
}

type Margins = { top: number; right: number; bottom: number; left: number };
type Root = Selection<SVGSVGElement, unknown, null, undefined>;

/** Past this many points (without pies) the dots are one raster image in the SVG, hovered by the nearest point. */
export const MAX_VECTOR_POINTS = 5000;

/**
 * The dots as one image (drawn on a canvas at twice the figure's size, embedded in the SVG, so
 * the axes, labels and legend stay vector), with a note saying so, and hover by the nearest point
 * within 6 px: a ring and the individual's id and class at the cursor.
 */
function rasterPoints(
  g: Selection<SVGGElement, unknown, null, undefined>,
  points: readonly PcaPoint[],
  x: (v: number) => number,
  y: (v: number) => number,
  colourOf: Map<string, string>,
  o: PcaScatterOptions,
  m: Margins,
): void {
  const scale = 2;
  const canvas = document.createElement('canvas');
  canvas.width = o.width * scale;
  canvas.height = o.height * scale;
  const ctx = canvas.getContext('2d')!;
  ctx.scale(scale, scale);
  ctx.globalAlpha = 0.8;
  // One path per colour: 100,000 dots in a few fills.
  const byColour = new Map<string, PcaPoint[]>();
  for (const p of points) {
    const c = colourOf.get(p.label ?? NONE) ?? '#999999';
    let list = byColour.get(c);
    if (!list) byColour.set(c, (list = []));
    list.push(p);
  }
  for (const [colour, list] of byColour) {
    ctx.beginPath();
    for (const p of list) {
      ctx.moveTo(x(p.x) + 2, y(p.y));
      ctx.arc(x(p.x), y(p.y), 2, 0, 2 * Math.PI);
    }
    ctx.fillStyle = colour;
    ctx.fill();
  }
  g.append('image')
    .attr('data-testid', 'pca-raster')
    .attr('x', 0)
    .attr('y', 0)
    .attr('width', o.width)
    .attr('height', o.height)
    .attr('href', canvas.toDataURL('image/png'));
  g.append('text')
    .attr('data-testid', 'pca-raster-note')
    .attr('x', o.width - m.right)
    .attr('y', m.top - 6)
    .attr('text-anchor', 'end')
    .attr('font-size', 9)
    .attr('fill', '#666666')
    .text(`${points.length.toLocaleString('en')} individuals: the points are a raster image (2× the figure's size)`);
  // Hover: the nearest point, found in a grid of 8-px cells.
  const cell = 8;
  const grid = new Map<number, number[]>();
  const key = (cx: number, cy: number) => cy * 10_000 + cx;
  points.forEach((p, k) => {
    const kk = key(Math.floor(x(p.x) / cell), Math.floor(y(p.y) / cell));
    const list = grid.get(kk);
    if (list) list.push(k);
    else grid.set(kk, [k]);
  });
  const ring = g.append('circle').attr('r', 5).attr('fill', 'none').attr('stroke', INK).attr('visibility', 'hidden');
  const label = g.append('text').attr('font-size', 11).attr('fill', INK).attr('data-testid', 'pca-hover');
  g.append('rect')
    .attr('x', m.left)
    .attr('y', m.top)
    .attr('width', o.width - m.left - m.right)
    .attr('height', o.height - m.top - m.bottom)
    .attr('fill', 'transparent')
    .on('mousemove', (event: MouseEvent) => {
      const svg = (event.currentTarget as SVGRectElement).ownerSVGElement!;
      const box = svg.getBoundingClientRect();
      const mx = ((event.clientX - box.left) / box.width) * o.width;
      const my = ((event.clientY - box.top) / box.height) * o.height;
      let best = -1;
      let bestD = 36;
      for (let dx = -1; dx <= 1; dx++)
        for (let dy = -1; dy <= 1; dy++)
          for (const k of grid.get(key(Math.floor(mx / cell) + dx, Math.floor(my / cell) + dy)) ?? []) {
            const d = (x(points[k]!.x) - mx) ** 2 + (y(points[k]!.y) - my) ** 2;
            if (d < bestD) [best, bestD] = [k, d];
          }
      const p = points[best];
      ring.attr('visibility', p ? 'visible' : 'hidden');
      label.text(p ? `${p.id}${p.label !== undefined ? ` (${p.label})` : ''}` : '');
      if (p) {
        ring.attr('cx', x(p.x)).attr('cy', y(p.y));
        label.attr('x', x(p.x) + 8).attr('y', y(p.y) - 8);
      }
    });
}

/** The legend of the classes' colours, as many as fit, with how many more. */
function drawLegend(
  root: Root,
  o: PcaScatterOptions,
  colourOf: Map<string, string>,
  legendWidth: number,
  m: Margins,
): void {
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
