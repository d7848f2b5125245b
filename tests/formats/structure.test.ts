import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../../engine/index.ts';
import { genotype, parseText } from '../helpers.ts';

const str = (text: string, structure = {}) => parseText('t.str', text, { structure });

test('one row per individual with marker names, labels and populations', async () => {
  const d = await str('locA locB\nind1 1 100 102 7 7\nind2 1 -9 -9 7 9\nind3 2 102 102 9 9\n');
  assert.equal(d.individuals.length, 3);
  assert.deepEqual(
    d.loci.map((l) => l.name),
    ['locA', 'locB'],
  );
  assert.deepEqual(
    d.individuals.map((i) => i.population),
    ['1', '1', '2'],
  );
  assert.deepEqual(genotype(d, 0, 1), ['?', '?']);
  assert.deepEqual(genotype(d, 1, 1), ['7', '9']);
  assert.deepEqual(d.loci[0]!.alleles, ['100', '102']);
});

test('two rows per individual are detected from repeated labels', async () => {
  const d = await str('a 1 10 20 30\na 1 11 20 31\nb 2 10 21 30\nb 2 10 21 -9\nc 2 12 22 32\nc 2 12 22 32\n');
  assert.equal(d.ploidy, 2);
  assert.equal(d.individuals.length, 3);
  assert.equal(d.loci.length, 3);
  assert.deepEqual(genotype(d, 0, 0), ['10', '11']);
  assert.deepEqual(genotype(d, 2, 1), ['30', '?']);
  assert.ok(d.source!.assumptions.some((a) => a.includes('2 rows per individual')));
});

test('without a label column, ids are generated; explicit options override detection', async () => {
  const d = await str('1 2 1 1\n2 2 1 2\n', {
    label: false,
    popData: false,
    ploidy: 2,
    oneRowPerIndividual: true,
    markerNames: false,
  });
  assert.deepEqual(
    d.individuals.map((i) => i.id),
    ['ind1', 'ind2'],
  );
  assert.equal(d.loci.length, 2);
  assert.equal(d.individuals[0]!.population, undefined);
});

test('haploid data with ploidy 1 and a custom missing value', async () => {
  const d = await str('m1 m2 m3\ni1 1 0 1 1\ni2 1 1 1 -1\ni3 2 1 0 0\n', { missing: '-1' });
  assert.equal(d.ploidy, 1);
  assert.equal(d.loci.length, 3);
  assert.deepEqual(genotype(d, 2, 1), ['?']);
});

test('tetraploid in four rows per individual', async () => {
  const rows = ['x', 'x', 'x', 'x']
    .map((id, k) => `${id} 1 ${k + 1} 5`)
    .concat(['y', 'y', 'y', 'y'].map((id) => `${id} 1 2 6`));
  const d = await str(rows.join('\n'));
  assert.equal(d.ploidy, 4);
  assert.deepEqual(genotype(d, 0, 0), ['1', '2', '3', '4']);
});

test('PopFlag, LocData and extra columns are skipped when the marker names fix the locus count', async () => {
  const d = await str('L1 L2\nind1 3 1 5 extra 10 10 20 22\nind2 3 0 5 extra 10 12 20 20\n');
  assert.equal(d.loci.length, 2);
  assert.deepEqual(genotype(d, 1, 0), ['20', '22']);
  assert.equal(d.individuals[0]!.population, '3');
});

test('a map-distance row after the marker names is skipped', async () => {
  const d = await str('L1 L2 L3\n-1 0.5 0.25\ni1 1 1 2 1 1 2 2\ni2 1 2 2 1 2 1 1\n');
  assert.equal(d.loci.length, 3);
  assert.equal(d.individuals.length, 2);
});

test('CRLF line ends and tabs', async () => {
  const d = await str('L1\tL2\r\ni1\t1\t1\t2\t3\t4\r\ni2\t2\t1\t1\t3\t3\r\n');
  assert.equal(d.individuals.length, 2);
  assert.deepEqual(genotype(d, 1, 0), ['3', '4']);
});

async function rejects(text: string, line: number, column: number, pattern: RegExp, opts = {}) {
  await assert.rejects(str(text, opts), (e: unknown) => {
    assert.ok(e instanceof FormatError, String(e));
    assert.equal(e.file, 't.str');
    assert.equal(e.line, line, e.message);
    assert.equal(e.column, column, e.message);
    assert.match(e.message, pattern);
    return true;
  });
}

test('errors name the file, line and column', async () => {
  await rejects('L1 L2\ni1 1 1 2 3 4\ni2 1 1 2 3\n', 3, 11, /row has 5 values/);
  await rejects('L1 L2\ni1 1 1 2 3 4\ni2 1 1 x 3 4\n', 3, 8, /allele code "x" is not a number/);
  await rejects('L1 L2\ni1 1 1 2 3 4\ni1 1 1 2 3 4\n', 3, 1, /duplicate individual id "i1"/);
  await rejects('', 1, 1, /empty/);
  await rejects('a 1 10 20\na 1 11 20\nb 1 10 21\n', 3, 1, /last individual has 1 of 2 rows/, {
    oneRowPerIndividual: false,
    ploidy: 2,
  });
});

test('a header row that also names the leading columns (ID POP loc1 loc2) is recognised', async () => {
  const d = await str('ID POP locA locB locC\ni1 1 100 102 7 7 3 3\ni2 1 -9 -9 7 9 3 4\ni3 2 102 102 9 9 4 4\n');
  assert.deepEqual(
    d.loci.map((l) => l.name),
    ['locA', 'locB', 'locC'],
  );
  assert.deepEqual(
    d.individuals.map((i) => i.population),
    ['1', '1', '2'],
  );
  assert.deepEqual(genotype(d, 2, 1), ['3', '4']);
  assert.ok(d.source!.assumptions.some((a) => a.includes('ID, POP')));
});

test('STRUCTURE: a file that marks missing data with 0 instead of -9 gets a warning naming the first place; 0/1 SNP codes do not', async () => {
  const text = 'L1\tL2\r\nA1\t1\t120\t122\t0\t0\r\nA2\t1\t120\t120\t98\t100\r\nB1\t2\t124\t122\t100\t100\r\n';
  const d = await str(text);
  assert.equal(d.source?.warnings.length, 1);
  assert.match(
    d.source!.warnings[0]!,
    /allele value 0 occurs 2 time\(s\) \(first on line 2, column 14\).*missing value -9 never does/,
  );
  const given = await str(text, { missing: '0' });
  assert.deepEqual(given.source?.warnings, []);
  assert.deepEqual(genotype(given, 1, 0), ['?', '?']);
  const snps = await str('A1 1 0 1 1 1\nA2 1 0 0 1 0\n');
  assert.deepEqual(snps.source?.warnings, []);
});
