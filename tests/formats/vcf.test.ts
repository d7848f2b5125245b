import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constants as zlibConstants, gunzipSync, gzipSync } from 'node:zlib';
import { bytesSource, FormatError, readDataset, textSource } from '../../engine/index.ts';
import { genotype, parseText } from '../helpers.ts';

const HEAD =
  '##fileformat=VCFv4.2\n##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\ts1\ts2\ts3\n';
const BODY =
  '1\t100\trs1\tA\tG\t.\tPASS\t.\tGT:DP\t0/1:10\t1/1:3\t./.:0\n' +
  '1\t200\t.\tC\tT,G\t.\tPASS\t.\tGT\t2/1\t0/0\t.\n' +
  '2\t50\trs3\tT\t.\t.\tPASS\t.\tGT\t0/0\t0/.\t0/0\n';

test('VCF: GT field, multi-allelic sites, missing calls, CHROM/POS kept', async () => {
  const d = await parseText('x.vcf', HEAD + BODY);
  assert.equal(d.ploidy, 2);
  assert.equal(d.phased, false);
  assert.deepEqual(
    d.individuals.map((i) => i.id),
    ['s1', 's2', 's3'],
  );
  assert.deepEqual(
    d.loci.map((l) => [l.name, l.chrom, l.pos]),
    [
      ['rs1', '1', 100],
      ['1:200', '1', 200],
      ['rs3', '2', 50],
    ],
  );
  assert.deepEqual(d.loci[1]!.alleles, ['C', 'T', 'G']);
  assert.deepEqual(genotype(d, 0, 0), ['A', 'G']);
  assert.deepEqual(genotype(d, 0, 2), ['?', '?']);
  assert.deepEqual(genotype(d, 1, 0, false), ['G', 'T']);
  assert.deepEqual(genotype(d, 1, 2), ['?', '?']);
  assert.deepEqual(genotype(d, 2, 1, false), ['T', '?']);
});

test('VCF: phased and haploid calls; GT not first in FORMAT', async () => {
  const phased = await parseText('p.vcf', HEAD + '1\t1\t.\tA\tC\t.\t.\t.\tGT\t0|1\t1|0\t1|1\n');
  assert.equal(phased.phased, true);
  assert.deepEqual(genotype(phased, 0, 0, false), ['A', 'C']);
  const hap = await parseText('h.vcf', HEAD + '1\t1\t.\tA\tC\t.\t.\t.\tDP:GT\t3:0\t4:1\t5:.\n');
  assert.equal(hap.ploidy, 1);
  assert.deepEqual(genotype(hap, 0, 1), ['C']);
  assert.deepEqual(genotype(hap, 0, 2), ['?']);
});

test('VCF.gz and multi-member (BGZF-like) gzip stream, read in small chunks with progress', async () => {
  const text = HEAD + BODY;
  const half = text.length >> 1;
  const gz = Buffer.concat([gzipSync(text.slice(0, half)), gzipSync(text.slice(half))]);
  const reports: number[] = [];
  const d = await readDataset(
    { main: bytesSource('x.vcf.gz', gz, 7) },
    { onProgress: (p) => reports.push(p.bytesRead) },
  );
  assert.equal(d.loci.length, 3);
  assert.deepEqual(genotype(d, 1, 0, false), ['G', 'T']);
  assert.ok(reports.length >= 1 && reports[reports.length - 1] === gz.length);
});

test('VCF: a truncated gzip file is a FormatError naming where the text breaks off, not 0:0', async () => {
  const gz = gzipSync(HEAD + BODY.repeat(50));
  const cut = gz.subarray(0, gz.length - 20);
  // Independently: what zlib can still decompress from the cut file, and the line it ends on.
  const prefix = gunzipSync(cut, { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString('utf8');
  const line = prefix.split('\n').length;
  await assert.rejects(
    readDataset({ main: bytesSource('t.vcf.gz', cut) }),
    (e: unknown) =>
      e instanceof FormatError &&
      /truncated or corrupt/.test(e.message) &&
      e.line === line &&
      e.column === prefix.length - prefix.lastIndexOf('\n') &&
      new RegExp(`after ${cut.length.toLocaleString('en')} compressed bytes`).test(e.message),
  );
});

test('VCF: populations from a two-column file', async () => {
  const d = await readDataset(
    { main: textSource('x.vcf', HEAD + BODY) },
    { populations: textSource('pops.txt', 's1 North\ns2 North\ns3 South\n') },
  );
  assert.deepEqual(
    d.individuals.map((i) => i.population),
    ['North', 'North', 'South'],
  );
});

test('VCF errors name line and column', async () => {
  const bad = async (body: string, line: number, re: RegExp) =>
    assert.rejects(
      parseText('e.vcf', HEAD + body),
      (e: unknown) => e instanceof FormatError && e.line === line && re.test(e.message),
    );
  await bad('1\t1\t.\tA\tC\t.\t.\t.\tGT\t0/2\t0/0\t0/0\n', 4, /allele index 2/);
  await bad('1\t1\t.\tA\tC\t.\t.\t.\tGT\t0/1\t0/0\n', 4, /only 2 sample columns/);
  await bad('1\t1\t.\tA\tC\t.\t.\t.\tGT\t0/1\t0\t0/0\n', 4, /mixed ploidy/);
  await bad('1\tx\t.\tA\tC\t.\t.\t.\tGT\t0/1\t0/0\t0/0\n', 4, /POS "x"/);
  await bad('1\t1\t.\tA\tC\t.\t.\t.\tDP\t1\t2\t3\n', 4, /no GT/);
  await bad('1\t1\t.\tA\tC\t.\t.\t.\tGT\t0/1\t0/0\t0/0\t1/1\n', 4, /more sample columns/);
  await assert.rejects(
    parseText('e.vcf', '##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\ta\ta\n'),
    /duplicate sample id/,
  );
});

test('VCF: skipping sites of another ploidy when asked', async () => {
  const d = await parseText(
    's.vcf',
    HEAD +
      '1\t1\t.\tA\tC\t.\t.\t.\tGT\t0/1\t0/0\t0/0\nX\t5\t.\tA\tC\t.\t.\t.\tGT\t0\t1/1\t0/0\n1\t9\t.\tA\tC\t.\t.\t.\tGT\t1/1\t0/0\t0/0\n',
    { vcf: { ploidyMismatch: 'skip' } },
  );
  assert.equal(d.loci.length, 2);
  assert.deepEqual(genotype(d, 1, 0), ['C', 'C']);
  assert.ok(d.source!.warnings[0]!.includes('1 site'));
});
