import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutIndividuals, rowOrder, withRowOrders, type PlotRow } from '../renderer/src/charts/structure-plot.ts';

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
