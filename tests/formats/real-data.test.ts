import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readDataset, summarize, type GenotypeData } from '../../engine/index.ts';
import { datasetFiles } from '../../engine/node/file-source.ts';
import { genotypesById, partition } from '../helpers.ts';
import { dataPath } from '../../data/datasets.ts';

const load = (name: string) => readDataset(datasetFiles(dataPath(name)));

function assertSameData(a: GenotypeData, b: GenotypeData): void {
  assert.equal(a.individuals.length, b.individuals.length);
  assert.deepEqual(
    a.loci.map((l) => l.name),
    b.loci.map((l) => l.name),
  );
  assert.deepEqual(
    a.loci.map((l) => l.alleles),
    b.loci.map((l) => l.alleles),
    'identical allele tables',
  );
  assert.deepEqual(genotypesById(a), genotypesById(b));
  assert.deepEqual(partition(a), partition(b));
  // Same population label for each id (GENEPOP populations are numbered in file order).
  const popB = new Map(b.individuals.map((i) => [i.id, i.population]));
  for (const ind of a.individuals) assert.equal(popB.get(ind.id), ind.population, ind.id);
}

test('nancycats: STRUCTURE and GENEPOP files load to identical datasets with the README counts', async () => {
  const str = await load('nancycats.str');
  const gen = await load('nancycats.gen');
  for (const d of [str, gen]) {
    const s = summarize(d);
    assert.equal(s.individuals, 237);
    assert.equal(s.loci, 9);
    assert.equal(s.ploidy, 2);
    assert.equal(s.populations.length, 17);
    assert.equal(s.allelesTotal, 108);
    assert.equal(s.allelesMin, 8);
    assert.equal(s.allelesMax, 18);
    assert.equal(Math.round(s.missingGenotypeRate * 237 * 9), 50);
  }
  assert.equal(str.source?.format, 'structure');
  assert.equal(gen.source?.format, 'genepop');
  // The .gen order differs (colony P12 is split in the R object), so compare by id.
  assert.notDeepEqual(
    str.individuals.map((i) => i.id),
    gen.individuals.map((i) => i.id),
  );
  assertSameData(str, gen);
});

test('eHGDP: STRUCTURE and GENEPOP load identically: 1350 individuals, 678 loci, 79 populations', async () => {
  const str = await load('eHGDP.str.gz');
  const gen = await load('eHGDP.gen.gz');
  const s = summarize(str);
  assert.equal(s.individuals, 1350);
  assert.equal(s.loci, 678);
  assert.equal(s.populations.length, 79);
  assert.equal(s.allelesTotal, 8170);
  assert.equal(s.allelesMin, 5);
  assert.equal(s.allelesMax, 35);
  assert.equal(Math.round(s.missingGenotypeRate * 1350 * 678), 36679);
  assert.deepEqual(
    str.individuals.map((i) => i.id),
    gen.individuals.map((i) => i.id),
  );
  assertSameData(str, gen);
  assert.ok(str.calls instanceof Int8Array, 'narrow storage for ≤127 alleles');
});

test('eHGDP: the labels file supplies population names and regions', async () => {
  const data = await readDataset(datasetFiles(dataPath('eHGDP.str.gz')), {
    populations: {
      name: 'eHGDP.labels.tsv',
      chunks: async function* () {
        yield readFileSync(dataPath('eHGDP.labels.tsv'));
      },
    },
  });
  const s = summarize(data);
  assert.equal(s.populations.length, 79);
  assert.equal(s.groups.length, 7);
  assert.equal(data.individuals[0]!.population, 'Orcadian');
  assert.equal(data.individuals[0]!.group, 'EUROPE');
  assert.equal(s.groups.find((g) => g.name === 'AMERICA') !== undefined, true);
});

test('nancycats original two-row STRUCTURE file (PopFlag column, no marker names) matches the one-row export', async () => {
  const orig = await load('nancycats_original/nancycats.str');
  const str = await load('nancycats.str');
  assert.equal(orig.loci.length, 9);
  assert.ok(orig.source!.assumptions.some((a) => a.includes('PopFlag')));
  assert.ok(orig.source!.assumptions.some((a) => a.includes('2 rows per individual')));
  assert.deepEqual(
    genotypesById(orig),
    genotypesById({ ...str, loci: str.loci.map((l, k) => ({ ...l, name: orig.loci[k]!.name })) }),
  );
  assert.deepEqual(partition(orig), partition(str));
});

test('nancycats original GENEPOP (CRLF, 2-digit allele indices, labels repeated) reads with a warning', async () => {
  const d = await load('nancycats_original/nancycats.gen');
  assert.equal(d.individuals.length, 237);
  assert.equal(d.loci.length, 9);
  assert.equal(new Set(d.individuals.map((i) => i.population)).size, 17);
  assert.ok(d.source!.warnings.some((w) => w.includes('repeat')));
  assert.equal(new Set(d.individuals.map((i) => i.id)).size, 237);
  // Same numbers of distinct alleles per locus as the size-coded export.
  const sizes = await load('nancycats.gen');
  assert.deepEqual(summarize(d).allelesPerLocus, summarize(sizes).allelesPerLocus);
});
