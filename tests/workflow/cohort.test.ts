// tier: slow — a cohort through Snakemake (run by npm test, not by npm run test:fast).
// A cohort in shards: `stratify workflow --reference-size R --shards S` fits the reference alone,
// projects the others in S jobs that each read only their individuals, and combines them; the
// combined .Q equals the reference fit's rows and the single-process projection's, byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers.ts';
import { datasetFiles } from '../../engine/node/file-source.ts';
import { readDataset } from '../../engine/formats/read-dataset.ts';
import { importResult } from '../../engine/service/import-result.ts';

const stratify = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'stratify.mjs'), ...args], { cwd, encoding: 'utf8' });
const ok = (r: ReturnType<typeof stratify>) => assert.equal(r.status, 0, r.stderr + r.stdout);
const hasSnakemake = spawnSync('snakemake', ['--version'], { encoding: 'utf8' }).status === 0;
// 120 individuals of three populations × 1,900 SNPs (tests/fixtures/ld/README.md).
const BED = join(ROOT, 'tests', 'fixtures', 'ld', 'blocks.bed');
const lines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');

test(
  'a cohort in 4 shards through Snakemake (--cores 2) equals the reference fit and one projection of the others, byte for byte',
  { skip: hasSnakemake ? false : 'snakemake is not installed (apt-get install -y snakemake; .ci/run installs it)' },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stratify-cohort-'));
    ok(
      stratify(
        dir,
        'workflow',
        BED,
        '--model',
        'admixture',
        '--k',
        '2..3',
        '--reference-size',
        '48',
        '--shards',
        '4',
        '--out',
        'wf',
      ),
    );
    const wf = join(dir, 'wf');
    // What each job asks a cluster for grows with its threads: 400 MB, and 300 MB a thread beyond
    // its share of the genotypes (a few kB here). Snakemake's dry run lists each job's threads
    // (left out at 1) and resources.
    const dry = spawnSync('snakemake', ['-n', '--cores', '2'], { cwd: wf, encoding: 'utf8' });
    assert.equal(dry.status, 0, dry.stderr);
    const asked = dry.stdout
      .split(/\n(?=(?:local)?rule )/)
      .filter((job) => /mem_mb=/.test(job))
      .map((job) => [Number(/threads: (\d+)/.exec(job)?.[1] ?? 1), Number(/mem_mb=(\d+)/.exec(job)![1])]);
    assert.ok(asked.length >= 7, dry.stdout);
    for (const [threads, mb] of asked) assert.equal(mb, 400 + threads! * 300, `${threads} threads: ${mb} MB`);
    const run = spawnSync('snakemake', ['--cores', '2', '-q'], { cwd: wf, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr + run.stdout);
    const results = join(wf, 'results');
    const cohort = join(results, 'cohort');
    const reference = lines(join(cohort, 'reference.ids'));
    assert.equal(reference.length, 48);
    // Drawn by population: 16 of each population's 40.
    const fam = lines(BED.replace(/\.bed$/, '.fam')).map((l) => l.split(/\s+/));
    const popOf = new Map(fam.map(([fid, iid]) => [iid!, fid!]));
    for (const p of ['p0', 'p1', 'p2']) assert.equal(reference.filter((id) => popOf.get(id) === p).length, 16);
    // Each shard job read its own individuals only.
    for (let s = 1; s <= 4; s++) {
      const shard = JSON.parse(readFileSync(join(cohort, `shard.${s}`, 'projection.json'), 'utf8')) as {
        dataset: { individuals: number };
      };
      assert.equal(shard.dataset.individuals, lines(join(cohort, `shard.${s}.ids`)).length);
    }
    // The K projected onto: the lowest CV error of the reference's sweep.
    const cv = lines(join(results, 'cv-by-k.tsv'))
      .slice(1)
      .map((l) => l.split('\t'));
    const K = Number(cv.reduce((a, b) => (Number(b[1]) < Number(a[1]) ? b : a))[0]);
    // One process projects every individual outside the reference.
    ok(
      stratify(
        dir,
        'project',
        BED,
        '--keep',
        join(cohort, 'projected.ids'),
        '--reference',
        join(results, 'stratify.json'),
        '--k',
        String(K),
        '--threads',
        '2',
        '--out',
        'single',
      ),
    );
    const projected = lines(join(dir, 'single', `stratify.projected.K${K}.Q`));
    const fitted = lines(join(results, `stratify.K${K}.r1.Q`));
    const inReference = new Set(reference);
    let f = 0;
    let p = 0;
    const expected = fam.map(([, iid]) => (inReference.has(iid!) ? fitted[f++] : projected[p++]));
    assert.deepEqual(lines(join(cohort, 'result', `stratify.cohort.K${K}.Q`)), expected);
    assert.equal(f + p, 120);
    // The app opens the combined result on the whole file.
    const data = await readDataset(datasetFiles(BED));
    const runs = importResult(data, 'stratify.json', readFileSync(join(cohort, 'result', 'stratify.json'), 'utf8'));
    assert.deepEqual(
      runs.map((r) => [r.K, r.clustering.Q.length]),
      [[K, 120 * K]],
    );
  },
);
