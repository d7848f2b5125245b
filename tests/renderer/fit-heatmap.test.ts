// The fit check's heat map: below the diagonal the pair's own value, above it (and on it) the mean
// of the two populations, in the bar plot's order; positive red, negative blue, zero white.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colourLimit, heatmapPixels, residualColour } from '../../renderer/src/charts/residual-heatmap.ts';

test('heat map pixels: pairs below the diagonal, population means above, in plot order', () => {
  // 3 individuals, dataset order 0, 1, 2; plot order 2, 0, 1; populations 0, 1, 0.
  const N = 3;
  const matrix = Float32Array.from([NaN, 0.1, -0.2, 0.1, NaN, 0.05, -0.2, 0.05, NaN]);
  const group = Int32Array.from([0, 1, 0]);
  const means = Float64Array.from([-0.2, 0.075, 0.075, NaN]);
  const px = heatmapPixels(matrix, N, [2, 0, 1], group, means, 2, 0.2);
  const at = (r: number, c: number) => Array.from(px.subarray((r * 3 + c) * 4, (r * 3 + c) * 4 + 3));
  assert.deepEqual(at(1, 0), residualColour(-0.2, 0.2), 'row individual 0, column individual 2: their pair');
  assert.deepEqual(at(2, 1), residualColour(0.1, 0.2), 'individuals 1 and 0');
  assert.deepEqual(at(0, 2), residualColour(0.075, 0.2), 'above: populations 0 × 1');
  assert.deepEqual(at(2, 2), [200, 200, 200], 'population 1 alone: no pair, grey');
  const [r, g, b] = residualColour(0.2, 0.2);
  assert.ok(r > 100 && b < 80 && g < 80, `positive is red: ${[r, g, b]}`);
  const [r2, , b2] = residualColour(-0.2, 0.2);
  assert.ok(b2 > r2 + 50, 'negative is blue');
  const [r0, g0, b0] = residualColour(0, 0.2);
  assert.ok(Math.min(r0, g0, b0) > 230 && Math.max(r0, g0, b0) - Math.min(r0, g0, b0) < 10, 'zero is (near) white');
  assert.equal(colourLimit(matrix), 0.2);
  // Without the pairs (too many individuals to send), both triangles show the population means.
  const only = heatmapPixels(undefined, N, [2, 0, 1], group, means, 2, 0.2);
  const at2 = (r: number, c: number) => Array.from(only.subarray((r * 3 + c) * 4, (r * 3 + c) * 4 + 3));
  assert.deepEqual(at2(1, 0), residualColour(-0.2, 0.2), 'individuals 0 and 2: population 0 × 0');
  assert.deepEqual(at2(2, 1), residualColour(0.075, 0.2), 'individuals 1 and 0: populations 1 × 0');
});
