import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colourColumns, populationMeans } from '../../renderer/src/charts/population-means.ts';

test('mean memberships per population, in the plot order and the colour order (hand-computed)', () => {
  const individuals = [
    { id: 'a1', population: 'ASW' },
    { id: 'y1', population: 'YRI' },
    { id: 'a2', population: 'ASW' },
    { id: 'x' },
  ];
  // K = 2, column 0 drawn in palette colour 1 and column 1 in colour 0: the table lists column 1 first.
  const row = { K: 2, Q: Float64Array.from([0.7, 0.3, 0.95, 0.05, 0.9, 0.1, 0.5, 0.5]), colours: [1, 0] };
  assert.deepEqual(colourColumns(row), [1, 0]);
  const got = populationMeans(individuals, row, ['YRI', 'ASW', 'CEU']);
  assert.deepEqual(
    got.map((p) => p.population),
    ['YRI', 'ASW', '(no population)'],
  );
  assert.deepEqual(
    got.map((p) => p.n),
    [1, 2, 1],
  );
  const close = (a: readonly number[], b: readonly number[]) =>
    assert.ok(
      a.every((x, i) => Math.abs(x - b[i]!) < 1e-12),
      `${a} against ${b}`,
    );
  close(got[0]!.means, [0.05, 0.95]);
  close(got[1]!.means, [(0.3 + 0.1) / 2, (0.7 + 0.9) / 2]);
  close(got[2]!.means, [0.5, 0.5]);
});
