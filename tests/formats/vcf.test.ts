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
  await bad('1\t1\t.\tA\t.,T\t.\t.\t.\tGT\t0/1\t0/0\t0/2\n', 4, /ALT "\.,T" has an empty or "\." allele at position 1/);
  await bad('1\t1\t.\tA\tC,,T\t.\t.\t.\tGT\t0/1\t0/0\t0/0\n', 4, /position 2/);
  // The column points at the empty allele: "1\t1\t.\tA\t" is 8 characters, then "C," — column 11.
  await assert.rejects(
    parseText('e.vcf', HEAD + '1\t1\t.\tA\tC,,T\t.\t.\t.\tGT\t0/1\t0/0\t0/0\n'),
    (e: unknown) => e instanceof FormatError && e.column === 11 && /e\.vcf/.test(e.message),
  );
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

/** A VCF of `samples` samples whose sites are given as rows of GT strings. */
function vcfOf(sites: readonly (readonly string[])[], alleles: (site: number) => [string, string] = () => ['A', 'G']) {
  const n = sites[0]!.length;
  const names = Array.from({ length: n }, (_, s) => `s${s + 1}`);
  const head = `##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\t${names.join('\t')}\n`;
  return (
    head +
    sites
      .map((gts, l) => {
        const [ref, alt] = alleles(l);
        return `1\t${100 + l}\tv${l}\t${ref}\t${alt}\t.\tPASS\t.\tGT\t${gts.join('\t')}\n`;
      })
      .join('')
  );
}

/** The calls as read from GT text, copies sorted unless `keepOrder` (what the dataset must hold). */
function expectedCalls(sites: readonly (readonly string[])[], keepOrder = false): number[] {
  return sites.flatMap((gts) =>
    gts.flatMap((gt) => {
      const copies = gt === '.' ? [-1, -1] : gt.split(/[/|]/).map((x) => (x === '.' ? -1 : Number(x)));
      return keepOrder ? copies : copies.sort((a, b) => a - b);
    }),
  );
}

test('VCF: unphased biallelic diploid calls are held packed, two bits a genotype, and read back as written', async () => {
  const gts = ['0/0', '0/1', '1/0', '1/1', './.', '.', '0/1'];
  // 7 samples (a partly filled last byte) × 9 sites, each a rotation of the calls.
  const sites = Array.from({ length: 9 }, (_, l) => gts.map((_, s) => gts[(s + l) % gts.length]!));
  const d = await parseText('p.vcf', vcfOf(sites));
  assert.ok(d.packed, 'held packed');
  assert.equal(d.packed.bytesPerLocus, 2);
  assert.equal(d.packed.bytes.length, 9 * 2);
  assert.equal(d.phased, false);
  assert.deepEqual(Array.from(d.calls), expectedCalls(sites));
});

test('VCF: what two bits cannot hold is read unpacked, as written — multi-allelic sites, half-missing calls, phased 1|0', async () => {
  const first = ['0/1', '1/1', '0/0'];
  const cases: [string, (readonly string[])[], boolean][] = [
    ['a third allele', [first, ['0/2', '1/1', '2/2'], first], false],
    ['one copy missing', [first, ['./1', '0/0', '1/.'], first], false],
    [
      'a phased 1|0 among phased calls',
      [
        ['0|1', '1|1', '0|0'],
        ['1|0', '0|1', '1|1'],
        ['0|0', '0|1', '1|1'],
      ],
      true,
    ],
  ];
  for (const [what, sites, phased] of cases) {
    const alleles = (l: number): [string, string] => (what === 'a third allele' && l === 1 ? ['A', 'G,T'] : ['A', 'G']);
    const d = await parseText('u.vcf', vcfOf(sites, alleles));
    assert.equal(d.packed, undefined, what);
    assert.equal(d.phased, phased, what);
    assert.deepEqual(Array.from(d.calls), expectedCalls(sites, true), what);
  }
  // Phased calls with no 1|0 fit in two bits while reading, but the copies are haplotypes: unpacked at the end.
  const phasedSites = [
    ['0|1', '1|1'],
    ['0|0', '0|1'],
  ];
  const d = await parseText('h.vcf', vcfOf(phasedSites));
  assert.equal(d.packed, undefined);
  assert.equal(d.phased, true);
  assert.deepEqual(Array.from(d.calls), expectedCalls(phasedSites, true));
});

test('VCF: a packed read skips sites of another ploidy when asked', async () => {
  const text = vcfOf([
    ['0/1', '1/1', '0/0'],
    ['0/1', '1', '0/0'],
    ['1/1', '0/0', '0/1'],
  ]);
  const d = await parseText('s.vcf', text, { vcf: { ploidyMismatch: 'skip' } });
  assert.ok(d.packed);
  assert.deepEqual(
    d.loci.map((l) => l.name),
    ['v0', 'v2'],
  );
  assert.deepEqual(
    Array.from(d.calls),
    expectedCalls([
      ['0/1', '1/1', '0/0'],
      ['1/1', '0/0', '0/1'],
    ]),
  );
});

test('VCF: a packed read prepares the same codes for clustering as the same calls unpacked', async () => {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { ROOT } = await import('../helpers.ts');
  const { buildPreparedData } = await import('../../engine/model/prepared/prepared-data.ts');
  // The example's calls, unphased (1|0 becomes 1/0: the copies as written, not sorted).
  const text = readFileSync(join(ROOT, 'resources/examples/snp-three-populations.vcf'), 'utf8').replaceAll('|', '/');
  const d = await parseText('x.vcf', text);
  assert.ok(d.packed);
  const { packed: _, ...rest } = d;
  const unpacked = { ...rest, calls: (await parseText('x.vcf', text.replaceAll('/', '|'))).calls };
  const [a, b] = [buildPreparedData(d), buildPreparedData(unpacked)];
  assert.deepEqual(Array.from(a.locusCodes), Array.from(b.locusCodes));
  assert.deepEqual(Array.from(a.groups.codes), Array.from(b.groups.codes));
  assert.deepEqual(Array.from(a.genotypeAlleles), Array.from(b.genotypeAlleles));
  assert.deepEqual(Array.from(a.genotypeOffsets), Array.from(b.genotypeOffsets));
  // The fingerprint that tells sweep pieces' datasets apart: the same (1/0 is 0/1 in unphased data).
  const { datasetFingerprint } = await import('../../engine/data/fingerprint.ts');
  assert.equal(datasetFingerprint(d), datasetFingerprint({ ...unpacked, phased: false }));
  assert.notEqual(datasetFingerprint(d), datasetFingerprint({ ...unpacked, phased: true }));
});
