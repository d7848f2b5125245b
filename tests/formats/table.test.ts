import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../../engine/index.ts';
import { splitGenotypeCell } from '../../engine/formats/table.ts';
import { genotype, parseText } from '../helpers.ts';

test('genotype cells: separators, compact SNPs, missing forms', () => {
  assert.deepEqual(splitGenotypeCell('A/G'), ['A', 'G']);
  assert.deepEqual(splitGenotypeCell('a|g'), ['A', 'G']);
  assert.deepEqual(splitGenotypeCell('120/124'), ['120', '124']);
  assert.deepEqual(splitGenotypeCell('0/1'), ['0', '1']);
  assert.deepEqual(splitGenotypeCell('0/0'), ['0', '0']);
  assert.deepEqual(splitGenotypeCell('AG'), ['A', 'G']);
  assert.deepEqual(splitGenotypeCell('A/.'), ['A', undefined]);
  assert.deepEqual(splitGenotypeCell('A/0'), ['A', undefined]);
  assert.equal(splitGenotypeCell(''), null);
  assert.equal(splitGenotypeCell('NA'), null);
  assert.equal(splitGenotypeCell('./.'), null);
});

test('CSV with id, pop and group columns', async () => {
  const d = await parseText('g.csv', 'id,pop,region,L1,L2\na,P1,EU,A/G,120/124\nb,P1,EU,G/G,NA\nc,P2,AF,,124/124\n');
  assert.deepEqual(
    d.individuals.map((i) => [i.id, i.population, i.group]),
    [
      ['a', 'P1', 'EU'],
      ['b', 'P1', 'EU'],
      ['c', 'P2', 'AF'],
    ],
  );
  assert.deepEqual(genotype(d, 0, 0), ['A', 'G']);
  assert.deepEqual(genotype(d, 1, 1), ['?', '?']);
  assert.deepEqual(genotype(d, 0, 2), ['?', '?']);
  assert.deepEqual(d.loci[1]!.alleles, ['120', '124']);
});

test('TSV with 0/1 codes and phased separators', async () => {
  const d = await parseText('g.tsv', 'sample\tsnp1\tsnp2\nx\t0|1\t1/1\ny\t0/0\t./.\n');
  assert.deepEqual(genotype(d, 0, 0), ['0', '1']);
  assert.deepEqual(genotype(d, 1, 1), ['?', '?']);
});

test('table errors name line and column', async () => {
  await assert.rejects(
    parseText('g.csv', 'id,L1,L2\na,A/G,A/A\nb,A/G\n'),
    (e: unknown) => e instanceof FormatError && e.line === 3 && /2 fields/.test(e.message),
  );
  await assert.rejects(
    parseText('g.csv', 'id,L1\na,A/G\na,A/A\n'),
    (e: unknown) => e instanceof FormatError && e.line === 3 && /duplicate/.test(e.message),
  );
  await assert.rejects(
    parseText('g.csv', 'id,L1,L2\na,A/G,A/A/A\n'),
    (e: unknown) => e instanceof FormatError && e.column === 7 && /3 allele/.test(e.message),
  );
});

test('quoted CSV fields (spreadsheet exports) and semicolon delimiters', async () => {
  const d = await parseText('q.csv', '"id","pop","L1"\r\n"a","North","A/G"\r\n"b","South","G/G"\r\n');
  assert.deepEqual(
    d.individuals.map((i) => [i.id, i.population]),
    [
      ['a', 'North'],
      ['b', 'South'],
    ],
  );
  assert.deepEqual(genotype(d, 0, 0), ['A', 'G']);
  const e = await parseText('s.csv', 'id;L1;L2\nx;120/124;NA\n');
  assert.deepEqual(genotype(e, 0, 0), ['120', '124']);
});
