// `stratify project`: individuals projected onto the admixture fit they were part of get the fit's
// own proportions back with the fitted frequencies (`--frequency-prior 0`: at the maximum, each row
// of Q maximises the likelihood given F), markers are reported, and a reference of several K asks
// which; by default the frequencies with each individual's own copies (and a prior) move them, a little.
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
const rowsOf = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(/\s+/).map(Number));

test('stratify project: the fitted individuals projected onto their own fit get its Q back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-project-'));
  const fit = stratify('run', VCF, '--model', 'admixture', '--k', '2..3', '--starts', '3', '--out', join(dir, 'fit'));
  assert.equal(fit.status, 0, fit.stderr);
  const reference = join(dir, 'fit', 'stratify.json');
  const ask = stratify('project', VCF, '--reference', reference, '--out', join(dir, 'p'));
  assert.notEqual(ask.status, 0);
  assert.match(ask.stderr, /holds K = 2, 3; choose one \(--k\)/);
  const r = stratify(
    'project',
    VCF,
    '--reference',
    reference,
    '--k',
    '3',
    '--frequency-prior',
    '0',
    '--out',
    join(dir, 'p'),
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /frequencies: as fitted \(--frequency-prior 0/);
  assert.match(r.stdout, /400 of the reference's 400 markers used \(matched by name\)/);
  const fitted = rowsOf(join(dir, 'fit', 'stratify.K3.r1.Q'));
  const projected = rowsOf(join(dir, 'p', 'stratify.projected.K3.Q'));
  assert.equal(projected.length, 90);
  let worst = 0;
  projected.forEach((row, d) => row.forEach((q, k) => (worst = Math.max(worst, Math.abs(q - fitted[d]![k]!)))));
  assert.ok(worst < 2e-3, `largest difference ${worst}`);
  const json = JSON.parse(readFileSync(join(dir, 'p', 'projection.json'), 'utf8')) as {
    markers: { matched: number };
    what: string;
  };
  assert.equal(json.markers.matched, 400);
  assert.equal(json.what, 'ancestry proportions');
  // The default: the reference's 2 × 90 × q̄_k copies per cluster, the individual's own and λ = ½ per
  // allele. These individuals are in the reference already, so their own copies count twice here and
  // pull them towards their own alleles: a change, bounded.
  const d = stratify('project', VCF, '--reference', reference, '--k', '3', '--out', join(dir, 'd'));
  assert.equal(d.status, 0, d.stderr);
  assert.match(
    d.stdout,
    /frequencies: the reference's copies with each individual's own, Dirichlet prior 0.5 per allele/,
  );
  const smoothed = rowsOf(join(dir, 'd', 'stratify.projected.K3.Q'));
  let moved = 0;
  smoothed.forEach((row, i) => row.forEach((q, k) => (moved = Math.max(moved, Math.abs(q - projected[i]![k]!)))));
  assert.ok(moved > 1e-4 && moved < 0.2, `largest change with own copies and the prior ${moved}`);
  const dj = JSON.parse(readFileSync(join(dir, 'd', 'projection.json'), 'utf8')) as { frequencyPrior: number };
  assert.equal(dj.frequencyPrior, 0.5);
  const bad = stratify('project', VCF, '--reference', reference, '--k', '3', '--frequency-prior', '-1');
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /--frequency-prior takes a number from 0 to 1000000, got "-1"/);
});
