// tier: slow — whole sweeps through Snakemake (run by npm test, not by npm run test:fast).
// Sweeps in pieces: `stratify run --replicate` pieces merged by `stratify merge`, and the shipped
// Snakemake workflow, give the files `stratify sweep` writes with the same seed, byte for byte;
// mismatched pieces are refused with the piece and the difference named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers.ts';
import { dataPath } from '../../data/datasets.ts';

const stratify = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'stratify.mjs'), ...args], { cwd, encoding: 'utf8' });

function ok(r: ReturnType<typeof stratify>): void {
  assert.equal(r.status, 0, r.stderr + r.stdout);
}

/** Every file of the sweep folder `a` exists in `b` with the same bytes. */
function assertSameFiles(a: string, b: string): void {
  const files = readdirSync(a).filter((f) => f !== 'pieces' && f !== 'logs');
  assert.ok(files.includes('fst-by-k.tsv') && files.some((f) => f.endsWith('.Q')), files.join(', '));
  for (const f of files) assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), `${f} differs`);
}

const DATA = dataPath('nancycats.str');
const PLAN = ['--k', '2..3', '--replicates', '2', '--starts', '4', '--seed', '7'];

test('pieces (whole replicates and ranges of starts) merge into the sweep, byte for byte, for EMA, auto, EMA-TAN and the admixture model', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-pieces-'));
  for (const [tag, ...model] of [
    ['ema', '--algorithm', 'ema'],
    ['auto', '--algorithm', 'auto'],
    ['ema-tan', '--algorithm', 'ema-tan'],
    ['admixture-all', '--model', 'admixture', '--starts-rule', 'all'],
    // The admixture model's defaults (adaptive starts, CV): whole replicates only.
    ['admixture', '--model', 'admixture'],
  ] as const) {
    ok(stratify(dir, 'sweep', DATA, ...PLAN, ...model, '--threads', '2', '--out', `sweep-${tag}`));
    for (const K of [2, 3])
      for (const r of [1, 2]) {
        const piece = ['run', DATA, ...PLAN, ...model, '--k', String(K), '--replicate', String(r), '--threads', '1'];
        if (K === 3 && r === 2 && tag !== 'admixture') {
          ok(stratify(dir, ...piece, '--start-range', '1..3', '--out', `pieces-${tag}`));
          ok(stratify(dir, ...piece, '--start-range', '4..4', '--out', `pieces-${tag}`));
        } else ok(stratify(dir, ...piece, '--out', `pieces-${tag}`));
      }
    ok(stratify(dir, 'merge', `pieces-${tag}`, '--k', '2..3', '--out', `merged-${tag}`));
    assertSameFiles(join(dir, `sweep-${tag}`), join(dir, `merged-${tag}`));
  }
  // A range of starts cannot stop adaptively.
  const range = stratify(
    dir,
    'run',
    DATA,
    ...PLAN,
    '--model',
    'admixture',
    '--k',
    '3',
    '--replicate',
    '1',
    '--start-range',
    '1..2',
    '--out',
    'x',
  );
  assert.equal(range.status, 1);
  assert.match(range.stderr, /a range of starts cannot stop adaptively .* --starts-rule all/);
});

test('merge refuses duplicated, missing and mismatched pieces, naming the piece and the difference', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-merge-'));
  const piece = (out: string, K: number, r: number, ...more: string[]) =>
    ok(
      stratify(
        dir,
        'run',
        DATA,
        ...PLAN,
        '--k',
        String(K),
        '--replicate',
        String(r),
        '--threads',
        '1',
        '--out',
        out,
        ...more,
      ),
    );
  piece('a', 2, 1);
  piece('a', 2, 2);
  piece('b', 2, 1, '--start-range', '1..2');
  piece('c', 2, 2, '--seed', '8');
  ok(
    stratify(
      dir,
      'run',
      dataPath('nancycats.gen'),
      ...PLAN,
      '--k',
      '2',
      '--replicate',
      '2',
      '--threads',
      '1',
      '--out',
      'd',
    ),
  );
  const refused = (pattern: RegExp, ...args: string[]) => {
    const r = stratify(dir, 'merge', ...args, '--out', 'm');
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stderr, pattern);
  };
  refused(
    /K = 2, replicate 1: starts 1–2 are in both a\/stratify\.K2\.r1\.piece\.json and b\/stratify\.K2\.r1\.s1-2\.piece\.json/,
    'a',
    'b',
  );
  refused(/K = 2, replicate 2: no piece/, 'a/stratify.K2.r1.piece.json');
  refused(/no piece for K = 3/, 'a', '--k', '2..3');
  refused(
    /c\/stratify\.K2\.r2\.piece\.json: other options than .*: seed \(8 against 7\)/,
    'a/stratify.K2.r1.piece.json',
    'c',
  );
  refused(
    /d\/stratify\.K2\.r2\.piece\.json: another dataset than .*nancycats\.gen/,
    'a/stratify.K2.r1.piece.json',
    'd',
  );
  refused(/not a Stratify sweep piece|not a readable piece/, join(ROOT, 'package.json'));
});

test('an output folder that cannot be created fails at once, before any computation', () => {
  const r = stratify(ROOT, 'run', DATA, '--k', '2', '--out', '/proc/stratify-cannot-write');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /cannot write results to \/proc\/stratify-cannot-write/);
  // No run was started: no run line, no progress.
  assert.doesNotMatch(r.stdout, /run K=/);
  assert.doesNotMatch(r.stderr, /start \d+/);
});

const snakemake = spawnSync('snakemake', ['--version'], { encoding: 'utf8' });
const hasSnakemake = snakemake.status === 0;

test(
  'the shipped Snakemake workflow (snakemake --cores 2) and a copy written by `stratify workflow` give the sweep, byte for byte',
  { skip: hasSnakemake ? false : 'snakemake is not installed (apt-get install -y snakemake; .ci/run installs it)' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'stratify-workflow-'));
    ok(stratify(dir, 'sweep', DATA, ...PLAN, '--threads', '2', '--out', 'sweep'));
    const config = ['input=' + DATA, 'out=shipped', 'k=2..3', 'replicates=2', 'starts=4', 'seed=7', 'threads=1'];
    const run = spawnSync(
      'snakemake',
      ['-s', join(ROOT, 'workflow', 'Snakefile'), '--cores', '2', '--quiet', '--config', ...config],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    assert.equal(run.status, 0, run.stderr + run.stdout);
    assertSameFiles(join(dir, 'sweep'), join(dir, 'shipped'));
    ok(
      stratify(
        dir,
        'workflow',
        DATA,
        '--k',
        '2..3',
        '--replicates',
        '2',
        '--starts',
        '4',
        '--seed',
        '7',
        '--out',
        'wf',
      ),
    );
    const copy = spawnSync('snakemake', ['--cores', '2', '--quiet'], { cwd: join(dir, 'wf'), encoding: 'utf8' });
    assert.equal(copy.status, 0, copy.stderr + copy.stdout);
    assertSameFiles(join(dir, 'sweep'), join(dir, 'wf', 'results'));
  },
);

test('bootstrap pieces (`stratify bootstrap --piece`, combined by `--pieces`) give the intervals of `run --bootstrap`, byte for byte; wrong pieces are refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-bootstrap-pieces-'));
  const fit = ['--model', 'admixture', '--k', '2..3', '--replicates', '1', '--starts', '2', '--seed', '7'];
  ok(stratify(dir, 'run', DATA, ...fit, '--bootstrap', '5', '--threads', '2', '--out', 'direct'));
  const boot = (...more: string[]) =>
    stratify(dir, 'bootstrap', DATA, '--result', 'direct/stratify.json', '--k', '3', '--refits', '5', ...more);
  ok(boot('--piece', '1..2', '--threads', '1', '--out', 'p'));
  ok(boot('--piece', '3..5', '--threads', '2', '--out', 'p'));
  ok(boot('--pieces', 'p/bootstrap.K3.1-2.piece.json', 'p/bootstrap.K3.3-5.piece.json', '--out', 'merged'));
  for (const f of ['Q_se', 'Q_lower', 'Q_upper'].map((x) => `stratify.K3.r1.${x}`))
    assert.ok(readFileSync(join(dir, 'direct', f)).equals(readFileSync(join(dir, 'merged', f))), `${f} differs`);
  const refused = (pattern: RegExp, ...args: string[]) => {
    const r = boot(...args, '--out', 'bad');
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stderr, pattern);
  };
  refused(/the pieces lack refit\(s\) 3, 4, 5 of 5/, '--pieces', 'p/bootstrap.K3.1-2.piece.json');
  refused(
    /refit 1 is in another piece too/,
    '--pieces',
    'p/bootstrap.K3.1-2.piece.json',
    'p/bootstrap.K3.1-2.piece.json',
  );
  const six = stratify(dir, 'bootstrap', DATA, '--result', 'direct/stratify.json', '--k', '3', '--refits', '6');
  assert.equal(six.status, 0, 'a full bootstrap runs');
  const other = stratify(
    dir,
    'bootstrap',
    DATA,
    '--result',
    'direct/stratify.json',
    '--k',
    '3',
    '--refits',
    '6',
    '--pieces',
    'p/bootstrap.K3.1-2.piece.json',
    '--out',
    'bad',
  );
  assert.match(other.stderr, /a piece of another bootstrap \(refits 5 there, 6 here\)/);
  refused(/--piece takes a\.\.b within 1\.\.5/, '--piece', '4..9');
});

test(
  'the Snakemake workflow with bootstrap: B bootstraps each K in pieces, as `run --bootstrap B`, byte for byte',
  { skip: hasSnakemake ? false : 'snakemake is not installed (apt-get install -y snakemake; .ci/run installs it)' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'stratify-workflow-bootstrap-'));
    const fit = ['--model', 'admixture', '--k', '2..3', '--replicates', '1', '--starts', '2', '--seed', '7'];
    ok(stratify(dir, 'run', DATA, ...fit, '--bootstrap', '4', '--threads', '2', '--out', 'direct'));
    const config = [
      'input=' + DATA,
      'out=wf',
      'model=admixture',
      'k=2..3',
      'replicates=1',
      'starts=2',
      'seed=7',
      'bootstrap=4',
      'bootstrap_pieces=2',
    ];
    const run = spawnSync(
      'snakemake',
      ['-s', join(ROOT, 'workflow', 'Snakefile'), '--cores', '2', '--quiet', '--config', ...config],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr + run.stdout);
    assert.ok(readdirSync(join(dir, 'wf', 'bootstrap', 'pieces')).length === 4, 'two pieces per K');
    for (const K of [2, 3])
      for (const f of ['Q_se', 'Q_lower', 'Q_upper'].map((x) => `stratify.K${K}.r1.${x}`))
        assert.ok(
          readFileSync(join(dir, 'direct', f)).equals(readFileSync(join(dir, 'wf', 'bootstrap', f))),
          `${f} differs`,
        );
  },
);
