import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, SHARED_DATA } from './helpers.ts';

const stratify = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'stratify.mjs'), ...args], { encoding: 'utf8' });

test('stratify inspect nancycats.str prints the summary', () => {
  const r = stratify('inspect', join(SHARED_DATA, 'nancycats.str'));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /format\s+structure/);
  assert.match(r.stdout, /individuals\s+237/);
  assert.match(r.stdout, /loci\s+9/);
  assert.match(r.stdout, /ploidy\s+2/);
  assert.match(r.stdout, /populations\s+17/);
  assert.match(r.stdout, /per locus min 8, median 12, max 18/);
  assert.match(r.stdout, /missing\s+2\.34% of allele copies/);
});

test('stratify inspect --json gives machine-readable output', () => {
  const r = stratify('inspect', join(SHARED_DATA, 'nancycats.gen'), '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { individuals: number; loci: number; format: string; allelesPerLocus: number[] };
  assert.equal(j.individuals, 237);
  assert.equal(j.format, 'genepop');
  assert.equal(j.allelesPerLocus.length, 9);
});

test('stratify inspect on a bad file exits 1 with file:line:column', () => {
  const r = stratify('inspect', join(ROOT, 'tests', 'fixtures', 'bad-row.str'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /bad-row\.str:4:\d+: row has 5 values/);
});

test('stratify inspect with layout flags overrides detection', () => {
  const r = stratify('inspect', join(SHARED_DATA, 'nancycats.str'), '--pop-column', 'no');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /populations\s+0 \(\+237 unlabelled\)/);
  assert.match(r.stdout, /column 2 is a LocData column/);
  const bad = stratify('inspect', join(SHARED_DATA, 'nancycats.str'), '--label', 'maybe');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /--label takes yes or no/);
});
