// tier: slow — filters and pruning through the CLI against PLINK's lists (run by npm test, not by npm run test:fast).
// SNP preparation on the command line: `stratify filter` writes what PLINK 2 keeps (its lists in
// tests/fixtures/ld are the reference) as a PLINK fileset that reads back, with prune.in/out and
// the reasons; every command that reads genotypes takes the same filters; sex chromosomes leave
// clustering and PCA with a note; bad values are refused before the file is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers.ts';
import { readDataset } from '../../engine/formats/read-dataset.ts';
import { datasetFiles } from '../../engine/node/file-source.ts';
import { locusCalls } from '../../engine/data/packed-calls.ts';

const stratify = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'stratify.mjs'), ...args], { encoding: 'utf8' });
const FIXTURE = join(ROOT, 'tests/fixtures/ld');
const BLOCKS = join(FIXTURE, 'blocks.bed');
const lines = (path: string) => readFileSync(path, 'utf8').trim().split('\n');

test('stratify filter: PLINK 2’s individuals, loci and prune.in, written as a fileset that reads back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-filter-'));
  const out = join(dir, 'kept');
  const r = stratify(
    'filter',
    BLOCKS,
    '--mind',
    '0.05',
    '--geno',
    '0.05',
    '--maf',
    '0.05',
    '--indep-pairwise',
    '50',
    '10',
    '0.1',
    '--out',
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(lines(`${out}.prune.in`), lines(join(FIXTURE, 'filtered-pruned.prune.in')));
  const kept = lines(`${out}.prune.in`);
  assert.match(r.stderr, /^--mind: removed 8 individuals$/m);
  assert.match(r.stderr, new RegExp(`^kept 112 of 120 individuals, ${kept.length} of 1900 loci$`, 'm'));
  assert.match(r.stdout, new RegExp(`^kept 112 individuals × ${kept.length} loci$`, 'm'));
  // The fileset holds the kept loci and individuals, with the original genotypes.
  const original = await readDataset(datasetFiles(BLOCKS), {});
  const written = await readDataset(datasetFiles(`${out}.bed`), {});
  assert.deepEqual(
    written.loci.map((l) => l.name),
    kept,
  );
  assert.deepEqual(
    written.individuals.map((i) => i.id),
    lines(join(FIXTURE, 'filtered.fam')).map((l) => l.split(/\s+/)[1]),
  );
  const lo = original.loci.findIndex((l) => l.name === kept[7]);
  const io = original.individuals.findIndex((i) => i.id === written.individuals[5]!.id);
  assert.deepEqual(
    Array.from(locusCalls(written, 7).subarray(10, 12)),
    Array.from(locusCalls(original, lo).subarray(2 * io, 2 * io + 2)),
  );
  const removed = lines(`${out}.removed.tsv`);
  assert.equal(removed[0], 'kind\tname\treason');
  assert.ok(removed.some((l) => /^locus\t\S+\tin linkage \(--indep-pairwise\)$/.test(l)));
  assert.ok(removed.some((l) => /^individual\t\S+\tmissing \d+\.\d% > 5\.0%$/.test(l)));
  assert.equal(lines(`${out}.prune.out`).length, removed.filter((l) => /--indep-pairwise/.test(l)).length);
  // As VCF on request.
  const v = stratify('filter', BLOCKS, '--chr', '2', '--out-format', 'vcf', '--out', join(dir, 'two'));
  assert.equal(v.status, 0, v.stderr);
  const vcf = await readDataset(datasetFiles(join(dir, 'two.vcf')), {});
  assert.equal(vcf.loci.length, 600);
  assert.ok(vcf.loci.every((l) => l.chrom === '2'));
});

test('--extract a prune.in gives the pruned data to any command; clustering leaves out X with a note', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-extract-'));
  const list = join(dir, 'keep.txt');
  writeFileSync(list, lines(join(FIXTURE, 'w50s10r01.prune.in')).slice(0, 120).join('\n') + '\n');
  const i = stratify('inspect', BLOCKS, '--extract', list, '--json');
  assert.equal(i.status, 0, i.stderr);
  const summary = JSON.parse(i.stdout) as { loci: number; chromosomes: { chrom: string; loci: number }[] };
  assert.equal(summary.loci, 120);
  assert.match(i.stderr, /^--extract: removed 1780 loci$/m);
  // A file with an X chromosome: the PCA leaves it out and says so; --keep-sex-chr keeps it.
  const bim = readFileSync(join(FIXTURE, 'blocks.bim'), 'utf8').replace(/^scaffold_7\t/gm, 'X\t');
  const stem = join(dir, 'withx');
  writeFileSync(`${stem}.bim`, bim);
  writeFileSync(`${stem}.bed`, readFileSync(BLOCKS));
  writeFileSync(`${stem}.fam`, readFileSync(join(FIXTURE, 'blocks.fam')));
  const p = stratify('pca', `${stem}.bed`, '--pcs', '2', '--out', join(dir, 'pca'));
  assert.equal(p.status, 0, p.stderr);
  assert.match(p.stderr, /^sex and organelle chromosomes: removed 400 loci \(--keep-sex-chr keeps them\)$/m);
  const k = stratify('pca', `${stem}.bed`, '--pcs', '2', '--keep-sex-chr', '--out', join(dir, 'pca2'));
  assert.equal(k.status, 0, k.stderr);
  assert.doesNotMatch(k.stderr, /sex and organelle/);
  // Assignment takes the same filters (the training data's loci).
  const a = stratify('assign', BLOCKS, '--extract', list, '--cv', '2', '--out', join(dir, 'assign'));
  assert.equal(a.status, 0, a.stderr);
  assert.match(a.stdout, /120 individuals, 120 markers, 3 classes/);
  // Birds: Z and W named as the sex chromosomes; X is then an autosome.
  const z = stratify('pca', `${stem}.bed`, '--pcs', '2', '--sex-chr', 'Z,W', '--out', join(dir, 'pca3'));
  assert.equal(z.status, 0, z.stderr);
  assert.doesNotMatch(z.stderr, /sex and organelle/);
});

test('bad filter values are refused before the file is read, an unknown --chr with the file’s chromosomes', () => {
  const missing = join(tmpdir(), 'no-such-dir-stratify', 'x.bed');
  const refusals: [string[], RegExp][] = [
    [['--maf', '2'], /--maf takes a fraction from 0 to 1, got 2/],
    [['--geno', 'lots'], /--geno takes a number from 0 to 1, got "lots"/],
    [
      ['--indep-pairwise', '0', '1', '0.1'],
      /--indep-pairwise: the window takes a whole number of loci, 2 or more, got 0/,
    ],
    [['--indep-pairwise', '50', '10'], /--indep-pairwise takes WINDOW STEP R2/],
    [['--indep-pairwise', '50kb', '5', '0.1'], /a window in kb moves one locus at a time/],
    [['--thin-bp', '-3'], /--thin-bp takes a whole number of bases/],
    [['--hwe', '1.5'], /--hwe takes a p-value from 0 to 1, got 1\.5/],
    [['--extract', join(tmpdir(), 'no-such-list.txt')], /--extract .*no-such-list\.txt: no such file/],
  ];
  for (const [flags, message] of refusals) {
    const r = stratify('filter', missing, ...flags, '--out', join(tmpdir(), 'stratify-refused', 'x'));
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, message, flags.join(' '));
    assert.doesNotMatch(r.stderr, /x\.bed/, 'refused before the file is opened');
  }
  const c = stratify('filter', BLOCKS, '--chr', '1,23', '--out', join(tmpdir(), 'stratify-refused', 'y'));
  assert.notEqual(c.status, 0);
  assert.match(c.stderr, /--chr: .*blocks\.bed has no chromosome 23; its chromosomes are 1, 2, scaffold_7/);
  assert.ok(!existsSync(join(tmpdir(), 'stratify-refused', 'y.bed')));
});
