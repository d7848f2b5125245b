import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../../engine/index.ts';
import { genotype, parseText } from '../helpers.ts';

const gen = (text: string) => parseText('t.gen', text);

test('comma-separated locus names, 3-digit alleles, Pop sections, missing 000', async () => {
  const d = await gen(
    'Title line\nloc1, loc2,loc3\nPop\na1 , 100102 000000 120120\na2, 102102 090092 120122\nPOP\nb1 ,100100 090090 000122\n',
  );
  assert.deepEqual(
    d.loci.map((l) => l.name),
    ['loc1', 'loc2', 'loc3'],
  );
  assert.deepEqual(
    d.individuals.map((i) => i.population),
    ['1', '1', '2'],
  );
  assert.deepEqual(genotype(d, 1, 0), ['?', '?']);
  assert.deepEqual(genotype(d, 2, 2), ['122', '?']);
  assert.deepEqual(d.loci[1]!.alleles, ['90', '92']);
});

test('one locus per line, 2-digit codes, CRLF, named Pop lines', async () => {
  const d = await gen('t\r\nA\r\nB\r\npop North\r\nx, 0102 0000\r\npop South\r\ny, 0202 0303\r\n');
  assert.deepEqual(
    d.individuals.map((i) => i.population),
    ['North', 'South'],
  );
  assert.deepEqual(genotype(d, 0, 0), ['1', '2']);
});

test('haploid 3-digit data', async () => {
  const d = await gen('t\nA\nB\nPop\nx, 101 000\ny, 102 103\n');
  assert.equal(d.ploidy, 1);
  assert.deepEqual(genotype(d, 1, 0), ['?']);
});

test('GENEPOP errors name line and column', async () => {
  await assert.rejects(
    gen('t\nA\nB\nPop\nx, 0101\n'),
    (e: unknown) => e instanceof FormatError && e.line === 5 && /1 genotypes/.test(e.message),
  );
  await assert.rejects(
    gen('t\nA\nPop\nx, 01a1\n'),
    (e: unknown) => e instanceof FormatError && e.line === 4 && /4 digits|digits/.test(e.message),
  );
  await assert.rejects(
    gen('t\nA\nPop\nx, 0101\ny, 010101\n'),
    (e: unknown) => e instanceof FormatError && e.line === 5 && e.column === 4,
  );
  await assert.rejects(gen('t\nA\nB\n'), (e: unknown) => e instanceof FormatError && /no Pop line/.test(e.message));
  await assert.rejects(
    gen('t\nA\nPop\nx 0101\n'),
    (e: unknown) => e instanceof FormatError && /without a comma/.test(e.message),
  );
});
