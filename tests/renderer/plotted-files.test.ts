import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plottedFiles } from '../../renderer/src/export/plotted-files.ts';

test('plotted files: memberships in the plot’s colour order, one column name per colour at every K', () => {
  // Two individuals; K = 2 with clusters drawn in colours 1 and 0; K = 3 with colours 0, 2, 1.
  const files = plottedFiles({
    stem: 'cats',
    individuals: [{ id: 'a', population: 'P1' }, { id: 'b' }],
    rows: [
      { K: 2, Q: new Float64Array([0.25, 0.75, 1, 0]), colours: [1, 0] },
      { K: 3, Q: new Float64Array([0.1, 0.2, 0.7, 0.5, 0.5, 0]), colours: [0, 2, 1] },
    ],
    palette: ['#111', '#222', '#333'],
  });
  assert.deepEqual(Object.keys(files).sort(), [
    'cats.K2.plotted.tsv',
    'cats.K3.plotted.tsv',
    'colours.tsv',
    'populations.txt',
  ]);
  assert.equal(files['populations.txt'], 'P1\nNA\n');
  // K = 2: colour 0 is cluster 1 (0.75 for a), colour 1 is cluster 0.
  assert.equal(
    files['cats.K2.plotted.tsv'],
    'id\tpopulation\tcluster_1\tcluster_2\na\tP1\t0.750000\t0.250000\nb\tNA\t0.000000\t1.000000\n',
  );
  // K = 3: colours 0, 1, 2 are clusters 0, 2, 1.
  assert.equal(
    files['cats.K3.plotted.tsv'],
    'id\tpopulation\tcluster_1\tcluster_2\tcluster_3\na\tP1\t0.100000\t0.700000\t0.200000\nb\tNA\t0.500000\t0.000000\t0.500000\n',
  );
  assert.equal(files['colours.tsv'], 'column\tcolour\ncluster_1\t#111\ncluster_2\t#222\ncluster_3\t#333\n');
});
