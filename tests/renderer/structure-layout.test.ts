import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  columnShares,
  columnSpan,
  layoutIndividuals,
  rowOrder,
  withRowOrders,
  type PlotRow,
} from '../../renderer/src/charts/structure-layout.ts';
import { structureSvg } from '../../renderer/src/charts/structure-svg.ts';

test('each row sorted by its own clusters: populations keep their places, individuals follow that row', () => {
  const individuals = ['a', 'a', 'a', 'b', 'b', 'b'].map((p, i) => ({ id: `i${i}`, population: p }));
  // K = 2: individual 0 and 4 mostly in cluster 1; K = 3: individuals 1 and 5 mostly in cluster 2.
  const k2: PlotRow = {
    K: 2,
    Q: Float64Array.from([0.1, 0.9, 0.8, 0.2, 0.7, 0.3, 0.6, 0.4, 0.2, 0.8, 0.9, 0.1]),
    colours: [0, 1],
  };
  const k3: PlotRow = {
    K: 3,
    Q: Float64Array.from([0.8, 0.1, 0.1, 0.1, 0.1, 0.8, 0.7, 0.2, 0.1, 0.9, 0.05, 0.05, 0.6, 0.3, 0.1, 0.1, 0.2, 0.7]),
    colours: [0, 1, 2],
  };
  const shared = layoutIndividuals(individuals, ['a', 'b'], k3, false);
  const l = withRowOrders(shared, individuals, ['a', 'b'], [k2, k3], false);
  // Within a population: by dominant cluster (palette order), then by decreasing share of it.
  assert.deepEqual(rowOrder(l, 0), [1, 2, 0, 5, 3, 4]);
  assert.deepEqual(rowOrder(l, 1), [0, 2, 1, 3, 4, 5]);
  assert.deepEqual(l.segments, shared.segments, 'the same population blocks');
  for (const r of [0, 1])
    for (const seg of l.segments)
      for (let pos = seg.start; pos < seg.end; pos++)
        assert.equal(individuals[rowOrder(l, r)[pos]!]!.population, seg.label);
  assert.deepEqual(rowOrder(shared, 0), rowOrder(shared, 1), 'without row orders every row shares one');
});

test("ids under the bars: written in the last row's order when each bar is 9 px or wider, shortened past 16 characters, above the population labels", () => {
  const individuals = ['a', 'a', 'a', 'b', 'b', 'b'].map((p, i) => ({
    id: i === 5 ? 'a-very-long-individual-name' : `i${i}`,
    population: p,
  }));
  const k2: PlotRow = {
    K: 2,
    Q: Float64Array.from([0.1, 0.9, 0.8, 0.2, 0.7, 0.3, 0.6, 0.4, 0.2, 0.8, 0.9, 0.1]),
    colours: [0, 1],
  };
  const k3: PlotRow = {
    K: 3,
    Q: Float64Array.from([0.8, 0.1, 0.1, 0.1, 0.1, 0.8, 0.7, 0.2, 0.1, 0.9, 0.05, 0.05, 0.6, 0.3, 0.1, 0.1, 0.2, 0.7]),
    colours: [0, 1, 2],
  };
  const shared = layoutIndividuals(individuals, ['a', 'b'], k3, false);
  const l = withRowOrders(shared, individuals, ['a', 'b'], [k2, k3], false);
  const texts = (svg: string, cls: string) =>
    [...svg.matchAll(new RegExp(`<text class="${cls}" x="([\\d.]+)" y="([\\d.]+)"[^>]*>([^<]*)</text>`, 'g'))].map(
      (m) => ({ x: Number(m[1]), y: Number(m[2]), text: m[3]! }),
    );
  // 6 bars over 400 − 50 px: 58 px each.
  const wide = structureSvg(individuals, l, [k2, k3], ['#111111', '#222222', '#333333'], { width: 400, barHeight: 60 });
  const names = texts(wide, 'individual-name');
  assert.deepEqual(
    names.map((n) => n.text),
    rowOrder(l, 1).map((i) => (i === 5 ? 'a-very-long-ind…' : `i${i}`)),
  );
  assert.ok(
    names.every((n, k) => k === 0 || n.x > names[k - 1]!.x),
    'left to right',
  );
  const populations = texts(wide, 'population');
  assert.equal(populations.length, 2);
  assert.ok(
    populations.every((p) => p.y > names[0]!.y),
    'population labels below the ids',
  );
  // 6 bars over 40 px (narrower than 9 px each): no ids, and the figure is lower by their room.
  const narrow = structureSvg(individuals, l, [k2, k3], ['#111111', '#222222', '#333333'], {
    width: 90,
    barHeight: 60,
  });
  assert.equal(texts(narrow, 'individual-name').length, 0);
  const height = (svg: string) => Number(/height="([\d.]+)"/.exec(svg)![1]);
  assert.equal(height(wide) - height(narrow), Math.ceil(6 + 16 * 7 * 0.55));
});

test('figure font size: labels at the size asked, every other text scaled with them, and the room below the plot grown', () => {
  // 120 bars over 550 px (4.6 px each: no ids under them at either size).
  const individuals = Array.from({ length: 120 }, (_, i) => ({ id: `i${i}`, population: `pop${i % 8}` }));
  const K2: PlotRow = { K: 2, Q: Float64Array.from({ length: 240 }, (_, j) => (j % 2 ? 0.25 : 0.75)), colours: [0, 1] };
  const l = layoutIndividuals(individuals, [...new Set(individuals.map((d) => d.population))], K2, false);
  const svgAt = (fontSize?: number) =>
    structureSvg(individuals, l, [K2], ['#111111', '#222222'], { width: 600, barHeight: 60, title: 'title', fontSize });
  const sizes = (svg: string, cls: string) =>
    [...svg.matchAll(new RegExp(`<text class="${cls}"[^>]*font-size="([\\d.]+)"`, 'g'))].map((m) => Number(m[1]));
  const height = (svg: string) => Number(/height="([\d.]+)"/.exec(svg)![1]);
  const base = svgAt();
  const big = svgAt(18);
  assert.deepEqual(new Set(sizes(base, 'population')), new Set([9]));
  assert.deepEqual(new Set(sizes(big, 'population')), new Set([18]));
  assert.deepEqual(sizes(big, 'title'), [26], 'the title twice its 13 px');
  assert.match(big, /font-size="22" text-anchor="end" dominant-baseline="middle">K=2</);
  // 8 populations of 15 bars over 550 px: 69 px apart, room for 18-px labels (≥ 20.8 px apart).
  assert.equal(sizes(big, 'population').length, 8);
  // Labels of 4 characters at 18 px need 4 × 9 × 0.55 × sin 60° more below the plot, and the gap 22 more.
  const more =
    Math.ceil(22 * 2 + 4 * 18 * 0.55 * Math.sin(Math.PI / 3)) - Math.ceil(22 + 4 * 9 * 0.55 * Math.sin(Math.PI / 3));
  assert.equal(height(big) - height(base), more + 16, 'and the title line 16 px more');
});

test('figure labels on top: above the first row, rising to the right, the regions above them; the height grows only by the bottom margin', () => {
  const individuals = Array.from({ length: 120 }, (_, i) => ({
    id: `i${i}`,
    population: `pop${i % 4}`,
    group: i % 4 < 2 ? 'north' : 'south',
  }));
  const K2: PlotRow = { K: 2, Q: Float64Array.from({ length: 240 }, (_, j) => (j % 2 ? 0.25 : 0.75)), colours: [0, 1] };
  const l = layoutIndividuals(individuals, ['pop0', 'pop1', 'pop2', 'pop3'], K2, true);
  const svgAt = (labelsOnTop: boolean) =>
    structureSvg(individuals, l, [K2], ['#111111', '#222222'], { width: 600, barHeight: 60, labelsOnTop });
  const labels = (svg: string) =>
    [...svg.matchAll(/<text class="population" x="[\d.]+" y="([\d.]+)"[^>]*text-anchor="(\w+)"/g)].map((m) => ({
      y: Number(m[1]),
      anchor: m[2],
    }));
  const firstRect = (svg: string) => Number(/<rect x="[\d.]+" y="([\d.]+)"/.exec(svg.split('<g class="row"')[1]!)![1]);
  const regionY = (svg: string) => Number(/<g class="region"><text x="[\d.]+" y="([\d.]+)"/.exec(svg)![1]);
  const top = svgAt(true);
  const bottom = svgAt(false);
  assert.equal(labels(top).length, 4);
  for (const t of labels(top)) {
    assert.equal(t.anchor, 'start');
    assert.ok(t.y < firstRect(top), `label at ${t.y} above the first row at ${firstRect(top)}`);
    assert.ok(regionY(top) < t.y, 'the region label above the population labels');
  }
  for (const b of labels(bottom)) assert.ok(b.anchor === 'end' && b.y > firstRect(bottom) + 60);
  const height = (svg: string) => Number(/height="([\d.]+)"/.exec(svg)![1]);
  assert.equal(height(top) - height(bottom), 14, 'the labels move; 14 px stay below the plot');
});

test('vertical figure: one column per K as wide as a row is high, each individual a band down the page, its shares left to right', () => {
  const individuals = Array.from({ length: 30 }, (_, i) => ({ id: `ind${i}`, population: `p${Math.floor(i / 10)}` }));
  const Q2 = Float64Array.from({ length: 60 }, (_, j) => (j % 2 ? 0.3 : 0.7));
  const Q3 = Float64Array.from({ length: 90 }, (_, j) => [0.5, 0.3, 0.2][j % 3]!);
  const rows: PlotRow[] = [
    { K: 2, Q: Q2, colours: [0, 1] },
    { K: 3, Q: Q3, colours: [0, 1, 2] },
  ];
  const l = layoutIndividuals(individuals, ['p0', 'p1', 'p2'], rows[1], false);
  const svg = structureSvg(individuals, l, rows, ['#111111', '#222222', '#333333'], {
    width: 400,
    barHeight: 50,
    vertical: true,
  });
  const columns = svg.split('<g class="row"').slice(1);
  assert.equal(columns.length, 2);
  const rects = (col: string) =>
    [...col.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)].map((m) =>
      m.slice(1).map(Number),
    );
  for (const [r, col] of columns.entries()) {
    const K = r + 2;
    assert.equal((col.match(/<g class="individual"/g) ?? []).length, 30);
    const rs = rects(col);
    assert.equal(rs.length, 30 * K);
    // Down the page: 350 px over 30 individuals; the first individual's shares left to right.
    const h = 350 / 30;
    assert.ok(Math.abs(rs[K]![1]! - rs[0]![1]! - h) < 1e-3, 'the next individual one band lower');
    const x0 = rs[0]![0]!;
    const shares = K === 2 ? [0.7, 0.3] : [0.5, 0.3, 0.2];
    let x = x0;
    shares.forEach((q, c) => {
      assert.ok(Math.abs(rs[c]![0]! - x) < 1e-3, `K = ${K}, cluster ${c} starts at ${x}`);
      x += q * 50;
    });
    assert.ok(Math.abs(x - x0 - 50) < 1e-9, 'a column is as wide as a row is high');
  }
  // Population labels on the left of the first column, one per population.
  const labels = [...svg.matchAll(/<text class="population" x="([\d.]+)"[^>]*>([^<]*)</g)];
  assert.deepEqual(
    labels.map((m) => m[2]),
    ['p0', 'p1', 'p2'],
  );
  assert.ok(labels.every((m) => Number(m[1]) < rects(columns[0]!)[0]![0]!));
  // 11.7 px bands: ids on the right of the last column.
  assert.equal((svg.match(/class="individual-name"/g) ?? []).length, 30);
});

test('populations an order does not list stay together, one label each, after those it lists', () => {
  // Three populations interleaved in the file; the order names only 'b' (from another view or dataset).
  const pops = ['x', 'y', 'b', 'x', 'y', 'b', 'x', 'y'];
  const individuals = pops.map((p, i) => ({ id: `i${i}`, population: p }));
  // K = 2, dominant clusters alternating, which would mix the unlisted populations by colour.
  const row: PlotRow = {
    K: 2,
    Q: Float64Array.from(pops.flatMap((_, i) => (i % 2 ? [0.9, 0.1] : [0.1, 0.9]))),
    colours: [0, 1],
  };
  const layout = layoutIndividuals(individuals, ['b'], row, false);
  assert.deepEqual(
    layout.segments.map((s) => [s.label, s.end - s.start]),
    [
      ['b', 2],
      ['x', 3],
      ['y', 3],
    ],
  );
});

test('pixel columns cover every plot position once, each the mean bar of its individuals', () => {
  const n = 1003;
  const K = 2;
  const inds = Array.from({ length: n }, (_, i) => ({ id: `i${i}`, population: i % 2 ? 'b' : 'a' }));
  const Q = new Float64Array(n * K);
  for (let i = 0; i < n; i++) [Q[i * K], Q[i * K + 1]] = [(i % 7) / 6, 1 - (i % 7) / 6];
  const row = { K, Q, colours: [0, 1] };
  const layout = layoutIndividuals(inds, ['a', 'b'], row, false);
  const columns = 97;
  const shares = columnShares(layout, row, 0, columns);
  let next = 0;
  for (let c = 0; c < columns; c++) {
    const { from, to } = columnSpan(c, columns, n);
    assert.equal(from, next);
    assert.ok(to > from);
    next = to;
    const mean = layout.order.slice(from, to).reduce((s, i) => s + Q[i * K]!, 0) / (to - from);
    assert.ok(Math.abs(shares[c * K]! - mean) < 1e-12);
  }
  assert.equal(next, n);
});
