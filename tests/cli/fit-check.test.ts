// `stratify run --fit-check`: fit.K{K}.tsv holds, for each pair of populations, the mean of the
// residual correlations of pairs of different individuals — recomputed here from the full matrix
// (`--fit-check matrix`), which is symmetric with NA on its diagonal; a wrong value is refused
// before any data is read; `stratify fit-check` on the saved result writes the same files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers.ts';

const stratify = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'stratify.mjs'), ...args], { encoding: 'utf8' });
const VCF = join(ROOT, 'resources', 'examples', 'snp-three-populations.vcf');
const POPS = join(ROOT, 'resources', 'examples', 'snp-three-populations.pops.tsv');
const table = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));

test('stratify run --fit-check matrix: population means of the full matrix; K = 3 fits the three populations, K = 2 does not', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-fit-check-'));
  const args = ['--pops', POPS, '--model', 'admixture', '--k', '2..3', '--starts', '3', '--replicates', '1'];
  const r = stratify('run', VCF, ...args, '--fit-check', 'matrix', '--out', dir);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /fit check K=3 replicate=1: mean within-population residual correlation/);
  const within: Record<number, number[]> = {};
  for (const K of [2, 3]) {
    const [head, ...rows] = table(join(dir, `fit.K${K}.tsv`));
    const pops = head!.slice(1);
    assert.equal(pops.length, 3);
    const [ids, ...matrix] = table(join(dir, `fit.K${K}.matrix.tsv`));
    const N = ids!.length - 1;
    assert.equal(matrix.length, N);
    const value = (i: number, j: number) => Number(matrix[i]![j + 1]);
    for (let i = 0; i < N; i++) {
      assert.equal(matrix[i]![i + 1], 'NA');
      for (let j = 0; j < i; j++) assert.equal(matrix[i]![j + 1], matrix[j]![i + 1]);
    }
    // Each individual's population, from the population file.
    const popOf = new Map(table(POPS).map(([id, p]) => [id!, p!]));
    const group = ids!.slice(1).map((id) => pops.indexOf(popOf.get(id)!));
    pops.forEach((_, a) =>
      pops.forEach((__, b) => {
        let sum = 0;
        let n = 0;
        for (let i = 0; i < N; i++)
          for (let j = 0; j < N; j++)
            if (i !== j && group[i] === a && group[j] === b) {
              sum += value(i, j);
              n++;
            }
        assert.ok(Math.abs(Number(rows[a]![b + 1]) - sum / n) < 2e-5, `K = ${K}, ${pops[a]} × ${pops[b]}`);
      }),
    );
    within[K] = pops.map((_, a) => Number(rows[a]![a + 1]));
  }
  for (const v of within[3]!) assert.ok(Math.abs(v) < 0.01, `K = 3 within ${v}`);
  assert.ok(Math.max(...within[2]!) > 0.03, `K = 2: a merged pair of populations shows (${within[2]})`);
  const json = JSON.parse(readFileSync(join(dir, 'stratify.json'), 'utf8')) as { fitCheck: { K: number }[] };
  assert.deepEqual(
    json.fitCheck.map((f) => f.K),
    [2, 3],
  );
  // `stratify fit-check` on the saved result (no refit) writes the same files.
  const again = stratify(
    'fit-check',
    VCF,
    '--pops',
    POPS,
    '--result',
    join(dir, 'stratify.json'),
    '--out',
    join(dir, 'fc'),
  );
  assert.equal(again.status, 0, again.stderr);
  for (const K of [2, 3])
    assert.equal(
      readFileSync(join(dir, 'fc', `fit.K${K}.tsv`), 'utf8'),
      readFileSync(join(dir, `fit.K${K}.tsv`), 'utf8'),
    );
  const bad = stratify('run', VCF, '--fit-check', 'all', '--out', join(dir, 'bad'));
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /--fit-check takes nothing or "matrix", got "all"/);
});
