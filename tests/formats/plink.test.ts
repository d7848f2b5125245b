import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bytesSource, FormatError, readDataset, textSource } from '../../engine/index.ts';
import { genotype } from '../helpers.ts';

const MAP = '1 snp1 0 100\n1 snp2 0 200\n2 snp3 0 300\n';
const PED = 'popA i1 0 0 1 -9 A G C C 0 0\npopA i2 0 0 2 -9 G G C T A A\npopB i3 0 0 1 -9 A A T T A T\n';

test('PLINK .ped/.map: FID as population, 0 missing, positions kept', async () => {
  const d = await readDataset(
    { main: textSource('x.ped', PED), companions: [textSource('x.map', MAP)] },
    { plink: { population: 'fid' } },
  );
  assert.equal(d.source!.format, 'plink-ped');
  assert.deepEqual(
    d.individuals.map((i) => [i.id, i.population]),
    [
      ['i1', 'popA'],
      ['i2', 'popA'],
      ['i3', 'popB'],
    ],
  );
  assert.deepEqual(
    d.loci.map((l) => [l.name, l.chrom, l.pos]),
    [
      ['snp1', '1', 100],
      ['snp2', '1', 200],
      ['snp3', '2', 300],
    ],
  );
  assert.deepEqual(genotype(d, 0, 0), ['A', 'G']);
  assert.deepEqual(genotype(d, 2, 0), ['?', '?']);
});

test('PLINK .ped with compound genotypes (AG)', async () => {
  const d = await readDataset({
    main: textSource('x.ped', 'f i1 0 0 1 1 AG CC 00\nf i2 0 0 1 1 GG CT AA\n'),
    companions: [textSource('x.map', MAP)],
  });
  assert.deepEqual(genotype(d, 1, 1), ['C', 'T']);
  assert.deepEqual(genotype(d, 2, 0), ['?', '?']);
});

/** Packs genotypes (0 hom A1, 1 het, 2 hom A2, -1 missing) into SNP-major .bed bytes. */
function bed(genos: number[][]): Uint8Array {
  const N = genos[0]!.length;
  const per = Math.ceil(N / 4);
  const out = new Uint8Array(3 + per * genos.length);
  out.set([0x6c, 0x1b, 0x01]);
  genos.forEach((g, l) => {
    g.forEach((x, i) => {
      const bits = x === 0 ? 0 : x === 1 ? 2 : x === 2 ? 3 : 1;
      out[3 + l * per + (i >> 2)]! |= bits << ((i & 3) * 2);
    });
  });
  return out;
}

const FAM = 'fa a 0 0 1 -9\nfa b 0 0 1 -9\nfb c 0 0 2 -9\nfb d 0 0 2 -9\nfb e 0 0 2 -9\n';
const BIM = '1\trs1\t0\t10\tA\tG\n1\trs2\t0\t20\tC\tT\n';
const GENOS = [
  [0, 1, 2, -1, 1],
  [2, 2, 0, 1, -1],
];

test('PLINK .bed/.bim/.fam: 2-bit codes decoded across bytes and chunk boundaries', async () => {
  const d = await readDataset(
    {
      main: bytesSource('x.bed', bed(GENOS), 2),
      companions: [textSource('x.bim', BIM), textSource('x.fam', FAM)],
    },
    { plink: { population: 'fid' } },
  );
  assert.equal(d.individuals.length, 5);
  assert.deepEqual(d.loci[0]!.alleles, ['A', 'G']);
  const got = GENOS.map((g, l) => g.map((_, i) => genotype(d, l, i).join('')));
  assert.deepEqual(got, [
    ['AA', 'AG', 'GG', '??', 'AG'],
    ['TT', 'TT', 'CC', 'CT', '??'],
  ]);
  assert.deepEqual(
    d.individuals.map((i) => i.population),
    ['fa', 'fa', 'fb', 'fb', 'fb'],
  );
});

test('PLINK errors: bad magic, truncated .bed, missing companion, ragged .ped', async () => {
  const b = bed(GENOS);
  const comp = [textSource('x.bim', BIM), textSource('x.fam', FAM)];
  const bad = Uint8Array.from(b);
  bad[2] = 0;
  await assert.rejects(
    readDataset({ main: bytesSource('x.bed', bad), companions: comp }),
    (e: unknown) => e instanceof FormatError && e.column === 3 && /SNP-major/.test(e.message),
  );
  await assert.rejects(
    readDataset({ main: bytesSource('x.bed', b.subarray(0, b.length - 1)), companions: comp }),
    /truncated/,
  );
  await assert.rejects(readDataset({ main: bytesSource('x.bed', b), companions: [comp[0]!] }), /\.fam file is missing/);
  await assert.rejects(
    readDataset({ main: textSource('x.ped', 'f i1 0 0 1 1 A G C C\n'), companions: [textSource('x.map', MAP)] }),
    (e: unknown) => e instanceof FormatError && e.line === 1 && /10 columns/.test(e.message),
  );
});

test('PLINK family ids become populations only when they look like populations (fewer than a third of the individuals)', async () => {
  const N = 12;
  const read = (fid: (i: number) => string, population?: 'fid' | 'none') =>
    readDataset(
      {
        main: bytesSource('x.bed', bed([Array.from({ length: N }, (_, i) => i % 3)]), 64),
        companions: [
          textSource('x.bim', '1\trs1\t0\t10\tA\tG\n'),
          textSource('x.fam', Array.from({ length: N }, (_, i) => `${fid(i)} s${i} 0 0 1 -9\n`).join('')),
        ],
      },
      population ? { plink: { population } } : {},
    );
  // Three sampling sites among 12 individuals: populations.
  const sites = await read((i) => ['north', 'south', 'east'][i % 3]!);
  assert.deepEqual(new Set(sites.individuals.map((i) => i.population)), new Set(['north', 'south', 'east']));
  assert.ok(sites.source!.assumptions.some((a) => /FID\) used as population \(3 distinct\)/.test(a)));
  // PLINK's default FID = IID, or families of two: 12 and 6 distinct, no populations, and the summary says why.
  for (const fid of [(i: number) => `s${i}`, (i: number) => `fam${i >> 1}`]) {
    const d = await read(fid);
    assert.ok(d.individuals.every((i) => i.population === undefined));
    assert.ok(d.source!.assumptions.some((a) => /not used as populations/.test(a)));
  }
  // Four distinct of 12 is a third, not fewer: no populations; asked for, they are.
  assert.ok((await read((i) => `p${i % 4}`)).individuals.every((i) => i.population === undefined));
  assert.equal((await read((i) => `p${i % 4}`, 'fid')).individuals[5]!.population, 'p1');
  assert.ok((await read((i) => ['a', 'b'][i % 2]!, 'none')).individuals.every((i) => i.population === undefined));
});
