import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  layoutIndividuals,
  rowOrder,
  structureSvg,
  withRowOrders,
  type PlotRow,
} from '../renderer/src/charts/structure-plot.ts';

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
