// The admixture model as the command line runs it with no options but the model: adaptive starts
// (at most 20 a K), 5-fold cross-validation, a line per K and cv-by-k.tsv; and the settings the
// app refuses, refused here alike before anything is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers.ts';
import { dataPath } from '../../data/datasets.ts';
import { agreedStop } from '../../engine/model/start-rule.ts';
import { cvFoldsOption } from '../../engine/cli/parse-args.ts';
import { ADMIXTURE_START_RULE, SWEEP_DEFAULTS } from '../../engine/util/choices.ts';

const stratify = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'stratify.mjs'), ...args], { encoding: 'utf8' });

interface RunJson {
  K: number;
  completedStarts: number;
  cvError?: number;
  starts: { index: number; logLik: number }[];
}

test('stratify run --model admixture: adaptive starts, CV on by default, a CV line per K and cv-by-k.tsv', () => {
  const out = mkdtempSync(join(tmpdir(), 'stratify-adm-defaults-'));
  const r = stratify(
    'run',
    dataPath('nancycats.str'),
    '--model',
    'admixture',
    '--k',
    '2..4',
    '--threads',
    '1',
    '--out',
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(readFileSync(join(out, 'stratify.json'), 'utf8')) as {
    options: { starts: number; cvFolds?: number; adaptive?: unknown };
    runs: RunJson[];
  };
  assert.equal(json.options.starts, SWEEP_DEFAULTS.admixture.starts);
  assert.equal(json.options.cvFolds, 5);
  for (const run of json.runs) {
    // The starts that ran are those the rule names on their own ln L, in start order.
    const lls = [...run.starts].sort((a, b) => a.index - b.index).map((s) => s.logLik);
    assert.deepEqual(
      run.starts.map((s) => s.index).sort((a, b) => a - b),
      Array.from({ length: run.completedStarts }, (_, k) => k),
    );
    assert.equal(agreedStop(lls, ADMIXTURE_START_RULE), lls.length, `K = ${run.K}: stopped where the rule stops`);
    assert.ok(run.cvError !== undefined && run.cvError > 0);
    assert.match(r.stdout, new RegExp(`^CV error \\(K=${run.K}\\): ${run.cvError.toFixed(5)}$`, 'm'));
  }
  const lowest = json.runs.reduce((a, b) => (b.cvError! < a.cvError! ? b : a)).K;
  assert.match(r.stdout, new RegExp(`^lowest CV error: K = ${lowest}$`, 'm'));
  const table = readFileSync(join(out, 'cv-by-k.tsv'), 'utf8').trim().split('\n');
  assert.equal(table[0], 'K\tcv_error\tloglik\tnote');
  assert.deepEqual(
    table.slice(1).map((l) => l.split('\t')[0]),
    ['2', '3', '4'],
  );
  assert.equal(table.find((l) => l.endsWith('lowest'))!.split('\t')[0], String(lowest));
});

test('--cv 0 and --starts-rule all turn the defaults off; the mixture model has neither', () => {
  const out = mkdtempSync(join(tmpdir(), 'stratify-adm-off-'));
  const r = stratify(
    'run',
    dataPath('nancycats.str'),
    '--model',
    'admixture',
    '--k',
    '2',
    '--starts',
    '3',
    '--starts-rule',
    'all',
    '--cv',
    '0',
    '--threads',
    '1',
    '--out',
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(readFileSync(join(out, 'stratify.json'), 'utf8')) as { runs: RunJson[] };
  assert.equal(json.runs[0]!.completedStarts, 3);
  assert.equal(json.runs[0]!.cvError, undefined);
  assert.ok(!existsSync(join(out, 'cv-by-k.tsv')));
  assert.doesNotMatch(r.stdout, /CV error/);
  const mixture = mkdtempSync(join(tmpdir(), 'stratify-mix-'));
  const m = stratify('run', dataPath('nancycats.str'), '--k', '2', '--starts', '2', '--threads', '1', '--out', mixture);
  assert.equal(m.status, 0, m.stderr);
  assert.doesNotMatch(m.stdout, /CV error/);
});

test('threads above the cores and a K above half the individuals: said before anything runs', () => {
  const out = mkdtempSync(join(tmpdir(), 'stratify-refused-'));
  const cores = availableParallelism();
  const r = stratify('run', dataPath('nancycats.str'), '--threads', String(cores + 1), '--out', out);
  assert.notEqual(r.status, 0);
  assert.match(
    r.stderr,
    new RegExp(
      `--threads: Threads must be a whole number from 1 to ${cores} \\(this machine's cores\\), got "${cores + 1}"`,
    ),
  );
  const w = stratify('run', dataPath('nancycats.str'), '--k', '120', '--starts', '1', '--threads', '1', '--out', out);
  assert.equal(w.status, 0, w.stderr);
  assert.match(w.stderr, /warning: K = 120 is more than half the 237 individuals/);
});

test('--cv is read by one rule for run, sweep and workflow: the model default, 0, folds, refused for the mixture model', () => {
  assert.equal(cvFoldsOption(undefined, 'admixture'), SWEEP_DEFAULTS.admixture.cvFolds);
  assert.equal(cvFoldsOption(undefined, 'mixture'), 0);
  assert.equal(cvFoldsOption('0', 'admixture'), 0);
  assert.equal(cvFoldsOption('0', 'mixture'), 0);
  assert.equal(cvFoldsOption('10', 'admixture'), 10);
  assert.throws(() => cvFoldsOption('5', 'mixture'), /--cv belongs to the admixture model/);
  assert.throws(() => cvFoldsOption('-1', 'admixture'), /--cv takes a positive whole number, got "-1"/);
  assert.throws(() => cvFoldsOption('2.5', 'admixture'), /--cv takes a positive whole number/);
  // The workflow command refuses it the same way, before writing anything.
  const out = join(mkdtempSync(join(tmpdir(), 'stratify-wf-cv-')), 'wf');
  const w = stratify('workflow', dataPath('nancycats.str'), '--k', '2..3', '--cv', '5', '--out', out);
  assert.notEqual(w.status, 0);
  assert.match(w.stderr, /--cv belongs to the admixture model/);
  assert.ok(!existsSync(join(out, 'config.yaml')));
});
