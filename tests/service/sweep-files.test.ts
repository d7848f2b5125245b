import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSweep } from '../../engine/service/cluster-sweep.ts';
import { type SweepOptions } from '../../engine/model/sweep.ts';
import { replicateQFiles, sweepResultFiles, sweepTableFile } from '../../engine/service/sweep-files.ts';
import { StartPool } from '../../engine/runtime/pool.ts';
import { spawnInProcess } from '../../engine/runtime/in-process.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { selectiveNaiveBayesData } from '../model/synthetic.ts';

const { data } = selectiveNaiveBayesData(5, { N: 60, n: 8, relevant: 4, r: 3, K: 2, P: 2 });
const options: SweepOptions = { kValues: [2, 3], replicates: 2, starts: 3, policy: 'best', seed: 7, fit: DEFAULT_FIT };

test('the app’s files of a sweep come from the writers `stratify sweep` uses', async () => {
  const pool = new StartPool(spawnInProcess, 1);
  const { runs } = await runSweep(data, options, pool);
  pool.close();
  const all = sweepResultFiles(data, options, runs, false, {}).files;
  // The Choose K table is the sweep's fst-by-k.tsv, byte for byte.
  assert.equal(sweepTableFile(data, runs).text, all.find((f) => f.name === 'fst-by-k.tsv')!.text);
  // Every replicate's Q as the run left it: N rows of K numbers, each the run's Q to 6 decimals,
  // one file per run; the sweep's own Q files are the same runs aligned (equal up to the columns' order).
  const N = data.individuals.length;
  const files = replicateQFiles(runs, N);
  assert.deepEqual(
    files.map((f) => f.name),
    runs.map((r) => `K${r.K}.r${r.replicate + 1}.Q`),
  );
  for (const [j, run] of runs.entries()) {
    const rows = files[j]!.text.trimEnd().split('\n');
    assert.equal(rows.length, N);
    rows.forEach((row, d) => {
      const q = row.split(' ');
      assert.equal(q.length, run.K);
      q.forEach((x, c) => assert.equal(x, run.clustering.Q[d * run.K + c]!.toFixed(6)));
    });
    const aligned = all.find((f) => f.name === `stratify.K${run.K}.r${run.replicate + 1}.Q`)!.text;
    const sortedRows = (text: string) =>
      text
        .trimEnd()
        .split('\n')
        .map((r) => r.split(' ').sort().join(' '));
    assert.deepEqual(sortedRows(aligned), sortedRows(files[j]!.text));
  }
});
