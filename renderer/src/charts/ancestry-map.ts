import {
  arc,
  forceCollide,
  forceSimulation,
  forceX,
  forceY,
  geoGraticule10,
  geoNaturalEarth1,
  geoPath,
  pie,
  scaleLinear,
  select,
  zoom,
  type GeoPermissibleObjects,
  type SimulationNodeDatum,
} from 'd3';
import type { Location } from '../../../engine/runtime/engine-protocol.ts';

/** A sampling site: where, who (how many, which populations), and their mean membership. */
export interface Site {
  readonly location: Location;
  readonly count: number;
  readonly label: string;
  /** Mean membership per cluster (K values, the Q's column order). */
  readonly shares: readonly number[];
}

/**
 * The sites of the individuals that have one: individuals with the same coordinates form one site,
 * whose shares are the mean of their rows of Q (N × K). The label names the site's populations,
 * most frequent first.
 */
export function sitesOf(
  individuals: readonly { population?: string; location?: Location }[],
  Q: ArrayLike<number>,
  K: number,
): Site[] {
  const bySite = new Map<string, { location: Location; rows: number[]; pops: Map<string, number> }>();
  individuals.forEach((ind, d) => {
    const l = ind.location;
    if (!l) return;
    const key = l.kind === 'geographic' ? `g${l.latitude},${l.longitude}` : `p${l.x},${l.y}`;
    let s = bySite.get(key);
    if (!s) bySite.set(key, (s = { location: l, rows: [], pops: new Map() }));
    s.rows.push(d);
    const p = ind.population ?? '(no population)';
    s.pops.set(p, (s.pops.get(p) ?? 0) + 1);
  });
  return [...bySite.values()].map((s) => {
    const shares = Array.from({ length: K }, (_, k) => s.rows.reduce((t, d) => t + Q[d * K + k]!, 0) / s.rows.length);
    const label = [...s.pops]
      .sort((a, b) => b[1] - a[1])
      .map(([p]) => p)
      .join(', ');
    return { location: s.location, count: s.rows.length, label, shares };
  });
}

export interface MapOptions {
  readonly width: number;
  readonly height: number;
  readonly title: string;
  /** Palette colour of each column of the shares. */
  readonly colours: readonly string[];
  /** Land (GeoJSON) under geographic sites; none for planar ones. */
  readonly land?: GeoPermissibleObjects;
  /** Radius (px) of the largest site's pie; areas are proportional to the number of individuals. */
  readonly maxRadius?: number;
  /** Pan and zoom with the mouse (the view, not exports). */
  readonly interactive?: boolean;
}

interface Placed extends SimulationNodeDatum {
  readonly site: Site;
  readonly ax: number;
  readonly ay: number;
  readonly r: number;
}

const OCEAN = '#e8f1f8';
const LAND = '#d9d6cf';
const INK = '#333333';

/**
 * Pies of ancestry at their sampling sites. Geographic sites are drawn on a Natural Earth
 * projection fitted to their extent (with a margin), above the land; planar ones on equal-scale
 * axes without a basemap. Pies that would overlap are moved apart (a collision layout pulled
 * towards their sites) and joined to their site by a leader line. Each pie carries its site and
 * placement (data-label, data-count, data-cx, data-cy, data-r) and a <title> for hover.
 */
export function drawAncestryMap(svg: SVGSVGElement, sites: readonly Site[], o: MapOptions): void {
  const { width, height } = o;
  const maxRadius =
    o.maxRadius ?? Math.max(8, Math.min(22, Math.sqrt((width * height) / Math.max(1, sites.length)) / 4));
  const root = select(svg)
    .attr('xmlns', 'http://www.w3.org/2000/svg')
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('width', width)
    .attr('height', height)
    .attr('font-family', 'Liberation Sans, Helvetica, Arial, sans-serif');
  root.selectAll('*').remove();
  root.append('rect').attr('width', width).attr('height', height).attr('fill', '#ffffff');
  const top = 28;
  const m = maxRadius + 6;
  const content = root.append('g').attr('data-testid', 'map-content');
  const geographic = sites.length > 0 && sites.every((s) => s.location.kind === 'geographic');
  let place: (l: Location) => [number, number];
  if (geographic) {
    const lons = sites.map((s) => (s.location.kind === 'geographic' ? s.location.longitude : 0));
    const lats = sites.map((s) => (s.location.kind === 'geographic' ? s.location.latitude : 0));
    // The sites' extent with a margin of 5° (at least 20° across), as a polygon to fit.
    const pad = (lo: number, hi: number, min: number, limit: number): [number, number] => {
      const mid = (lo + hi) / 2;
      const half = Math.max((hi - lo) / 2 + 5, min / 2);
      return [Math.max(-limit, mid - half), Math.min(limit, mid + half)];
    };
    const [x0, x1] = pad(Math.min(...lons), Math.max(...lons), 20, 180);
    const [y0, y1] = pad(Math.min(...lats), Math.max(...lats), 20, 85);
    const box = {
      type: 'Feature' as const,
      properties: {},
      geometry: {
        type: 'MultiPoint' as const,
        coordinates: [x0, (x0 + x1) / 2, x1].flatMap((x) => [y0, (y0 + y1) / 2, y1].map((y) => [x, y])),
      },
    };
    const projection = geoNaturalEarth1()
      .rotate([-(x0 + x1) / 2, 0])
      .fitExtent(
        [
          [m, top + m],
          [width - m, height - m],
        ],
        box,
      );
    const path = geoPath(projection);
    content
      .append('path')
      .attr('d', path({ type: 'Sphere' }))
      .attr('fill', OCEAN);
    content
      .append('path')
      .attr('d', path(geoGraticule10()))
      .attr('fill', 'none')
      .attr('stroke', '#ffffff')
      .attr('stroke-width', 0.5);
    if (o.land) content.append('path').attr('d', path(o.land)).attr('fill', LAND).attr('data-testid', 'map-land');
    place = (l) => (l.kind === 'geographic' ? (projection([l.longitude, l.latitude]) ?? [0, 0]) : [0, 0]);
  } else {
    const xs = sites.map((s) => (s.location.kind === 'planar' ? s.location.x : 0));
    const ys = sites.map((s) => (s.location.kind === 'planar' ? s.location.y : 0));
    const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 1e-9);
    const scale = Math.min((width - 2 * m) / span, (height - top - 2 * m) / span);
    const x = scaleLinear()
      .domain([Math.min(...xs), Math.min(...xs) + span])
      .range([m, m + span * scale]);
    const y = scaleLinear()
      .domain([Math.min(...ys), Math.min(...ys) + span])
      .range([height - m, height - m - span * scale]);
    content
      .append('rect')
      .attr('x', m / 2)
      .attr('y', top + m / 2)
      .attr('width', width - m)
      .attr('height', height - top - m)
      .attr('fill', 'none')
      .attr('stroke', '#cccccc');
    place = (l) => (l.kind === 'planar' ? [x(l.x), y(l.y)] : [0, 0]);
  }
  const nMax = Math.max(1, ...sites.map((s) => s.count));
  const nodes: Placed[] = sites.map((site) => {
    const [ax, ay] = place(site.location);
    return { site, ax, ay, x: ax, y: ay, r: Math.max(3, maxRadius * Math.sqrt(site.count / nMax)) };
  });
  layOut(nodes);
  const leaders = content.append('g').attr('data-testid', 'map-leaders');
  for (const n of nodes) {
    if (Math.hypot(n.x! - n.ax, n.y! - n.ay) < 0.5) continue;
    leaders
      .append('line')
      .attr('x1', n.ax)
      .attr('y1', n.ay)
      .attr('x2', n.x!)
      .attr('y2', n.y!)
      .attr('stroke', INK)
      .attr('stroke-width', 0.6);
    leaders.append('circle').attr('cx', n.ax).attr('cy', n.ay).attr('r', 1.5).attr('fill', INK);
  }
  const slices = pie<number>().sort(null);
  const pies = content.append('g').attr('data-testid', 'map-pies');
  for (const n of nodes) {
    const g = pies
      .append('g')
      .attr('transform', `translate(${n.x},${n.y})`)
      .attr('class', 'site')
      .attr('data-label', n.site.label)
      .attr('data-count', n.site.count)
      .attr('data-cx', n.x!)
      .attr('data-cy', n.y!)
      .attr('data-r', n.r);
    const slice = arc<{ startAngle: number; endAngle: number }>().innerRadius(0).outerRadius(n.r);
    slices(n.site.shares.map((v) => v)).forEach((s, k) => {
      if (s.endAngle - s.startAngle <= 0) return;
      g.append('path')
        .attr('d', slice(s) ?? '')
        .attr('fill', o.colours[k % o.colours.length]!);
    });
    g.append('circle').attr('r', n.r).attr('fill', 'none').attr('stroke', INK).attr('stroke-width', 0.6);
    g.append('title').text(
      `${n.site.label}: ${n.site.count} individual${n.site.count === 1 ? '' : 's'}; ` +
        n.site.shares.map((v, k) => `cluster ${k + 1} ${(100 * v).toFixed(0)} %`).join(', '),
    );
  }
  root.append('text').attr('x', 8).attr('y', 18).attr('font-size', 13).attr('fill', INK).text(o.title);
  if (o.interactive)
    root.call(
      zoom<SVGSVGElement, unknown>()
        .scaleExtent([1, 20])
        .on('zoom', (e: { transform: { toString(): string } }) => content.attr('transform', e.transform.toString())),
    );
}

/** Moves pies apart until none overlaps (a collision layout pulled towards the sites). */
function layOut(nodes: Placed[]): void {
  if (nodes.length < 2) return;
  const sim = forceSimulation(nodes)
    .force('x', forceX<Placed>((n) => n.ax).strength(0.2))
    .force('y', forceY<Placed>((n) => n.ay).strength(0.2))
    .force('collide', forceCollide<Placed>((n) => n.r + 1).iterations(4))
    .stop();
  for (let t = 0; t < 300; t++) sim.tick();
  // The pull can leave slight overlaps; finish with collisions alone.
  sim.force('x', null).force('y', null).alpha(1);
  for (let t = 0; t < 200 && overlapping(nodes); t++) sim.tick();
}

function overlapping(nodes: readonly Placed[]): boolean {
  for (let i = 0; i < nodes.length; i++)
    for (let j = i + 1; j < nodes.length; j++)
      if (Math.hypot(nodes[i]!.x! - nodes[j]!.x!, nodes[i]!.y! - nodes[j]!.y!) < nodes[i]!.r + nodes[j]!.r) return true;
  return false;
}
