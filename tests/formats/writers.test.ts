import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  readDataset,
  textSource,
  toText,
  writeGenepop,
  writePopulationFile,
  writeStructure,
  writeVcf,
  subsetData,
  type GenotypeData,
} from '../../engine/index.ts';
import { datasetFiles } from '../../engine/node/file-source.ts';
import { genotypesById, parseText, partition } from '../helpers.ts';
import { dataPath } from '../../data/datasets.ts';

function assertSame(a: GenotypeData, b: GenotypeData, sameOrder = true) {
  if (sameOrder)
    assert.deepEqual(
      a.individuals.map((i) => i.id),
      b.individuals.map((i) => i.id),
    );
  assert.deepEqual(
    a.loci.map((l) => l.name),
    b.loci.map((l) => l.name),
  );
  assert.deepEqual(genotypesById(a), genotypesById(b));
  const popB = new Map(b.individuals.map((i) => [i.id, i.population]));
  assert.deepEqual(
    a.individuals.map((i) => i.population),
    a.individuals.map((i) => popB.get(i.id)),
  );
  assert.deepEqual(partition(a), partition(b));
}

test('STRUCTURE and GENEPOP round trips of nancycats are lossless', async () => {
  const d = await readDataset(datasetFiles(dataPath('nancycats.str')));
  const s = await parseText('rt.str', toText(writeStructure(d)));
  assertSame(d, s);
  assert.deepEqual(s.calls, d.calls, 'identical call arrays');
  // GENEPOP groups individuals by population (colony 12 is split in nancycats.str), so the
  // order changes; genotypes, ids and integer population labels come back unchanged.
  const g = await parseText('rt.gen', toText(writeGenepop(d)));
  assertSame(d, g, false);
  assert.equal(g.individuals.length, 237);
});

test('a subset of loci and individuals saved as STRUCTURE reads back identically', async () => {
  const d = await readDataset(datasetFiles(dataPath('nancycats.gen')));
  const sub = subsetData(d, [0, 3, 8], [5, 2, 100, 236]);
  const back = await parseText('sub.str', toText(writeStructure(sub)));
  assertSame(sub, back);
});

test('VCF round trip keeps alleles, phasing, positions; population file restores labels', async () => {
  const src =
    '##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\ta\tb\n' +
    '3\t10\trs1\tA\tG,T\t.\t.\t.\tGT\t0|2\t1|.\n3\t20\trs2\tC\t.\t.\t.\t.\tGT\t0|0\t.|.\n';
  const d0 = await parseText('x.vcf', src);
  const d = {
    ...d0,
    individuals: [
      { id: 'a', population: 'P' },
      { id: 'b', population: 'Q' },
    ],
  };
  const back = await readDataset(
    { main: textSource('y.vcf', toText(writeVcf(d))) },
    { populations: textSource('p.tsv', toText(writePopulationFile(d))) },
  );
  assertSame(d, back);
  assert.equal(back.phased, true);
  assert.deepEqual(
    back.loci.map((l) => [l.chrom, l.pos, l.alleles]),
    d.loci.map((l) => [l.chrom, l.pos, l.alleles]),
  );
  assert.deepEqual(back.calls, d.calls);
});

test('SNP letters and text population names are recoded for STRUCTURE with notes, partition kept', async () => {
  const d = await parseText('g.csv', 'id,pop,L1,L2\na,North,A/G,C/C\nb,South,G/G,C/T\n');
  const w = writeStructure(d);
  const text = toText(w);
  assert.ok(w.notes.some((n) => n.includes('1=North')));
  assert.ok(w.notes.some((n) => n.includes('allele indices')));
  const back = await parseText('b.str', text);
  assert.deepEqual(partition(back), partition(d));
  assert.deepEqual(back.calls, d.calls);
});

test('GENEPOP writer refuses ploidy above 2', async () => {
  const d = await parseText('t.str', 'a 1 1 2 3 4\na 1 1 2 3 4\na 1 1 2 3 4\nb 1 1 2 3 4\nb 1 1 2 3 4\nb 1 1 2 3 4\n');
  assert.equal(d.ploidy, 3);
  assert.throws(() => writeGenepop(d), /ploidy 3/);
});
