import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bytesSource, FormatError, readDataset, readDatasetIndividuals, textSource } from '../../engine/index.ts';
import { createRng } from '../../engine/util/rng.ts';
import { genotype } from '../helpers.ts';

/** A random .bed of N individuals × L SNPs (codes 0–3, missing included) with its .bim and .fam. */
function fileset(N: number, L: number, seed: number, fid: (i: number) => string = (i) => `pop${i % 3}`) {
  const rng = createRng(seed).uniform;
  const per = Math.ceil(N / 4);
  const codes: number[][] = [];
  const bed = new Uint8Array(3 + L * per);
  bed.set([0x6c, 0x1b, 0x01]);
  for (let l = 0; l < L; l++) {
    const row: number[] = [];
    for (let i = 0; i < N; i++) {
      const c = Math.floor(rng() * 4);
      row.push(c);
      bed[3 + l * per + (i >> 2)]! |= c << (2 * (i & 3));
    }
    codes.push(row);
  }
  const bim = Array.from({ length: L }, (_, l) => `1\tsnp${l}\t0\t${100 * (l + 1)}\tA\tG\n`).join('');
  const fam = Array.from({ length: N }, (_, i) => `${fid(i)} ind${i} 0 0 1 -9\n`).join('');
  return { bed, bim, fam, codes };
}

const files = (f: ReturnType<typeof fileset>, chunk: number) => ({
  main: bytesSource('x.bed', f.bed, chunk),
  companions: [textSource('x.bim', f.bim), textSource('x.fam', f.fam)],
});

test('--keep on a .bed keeps the listed individuals’ codes as the file streams, whatever the chunks', async () => {
  const f = fileset(37, 23, 5);
  const full = await readDataset(files(f, 1 << 16));
  const kept = [0, 3, 4, 9, 17, 18, 19, 20, 36];
  const list = kept.map((i) => `ind${i}`).join('\n');
  for (const chunk of [1, 3, 7, 10, 64, 1 << 16]) {
    const d = await readDataset(files(f, chunk), { individuals: { keep: textSource('keep.txt', list) } });
    assert.deepEqual(
      d.individuals.map((i) => i.id),
      kept.map((i) => `ind${i}`),
    );
    const packed = d.packed;
    assert.ok(packed, 'kept packed');
    // Against the codes written (the oracle) and against the whole file read then subset.
    for (let l = 0; l < 23; l++)
      for (let k = 0; k < kept.length; k++) {
        const code: number = (packed.bytes[l * packed.bytesPerLocus + (k >> 2)]! >> (2 * (k & 3))) & 3;
        assert.equal(code, f.codes[l]![kept[k]!], `chunk ${chunk}, locus ${l}, individual ${kept[k]}`);
      }
    for (let k = 0; k < kept.length; k++)
      for (let l = 0; l < 23; l++)
        for (let p = 0; p < 2; p++)
          assert.equal(d.calls[(l * kept.length + k) * 2 + p], full.calls[(l * 37 + kept[k]!) * 2 + p]);
  }
});

test('lists name individuals by id or by FID IID; --remove leaves them out; unknown ids are refused with file and line', async () => {
  const f = fileset(12, 4, 9);
  const read = (keep?: string, remove?: string) =>
    readDataset(files(f, 5), {
      individuals: {
        ...(keep !== undefined ? { keep: textSource('keep.txt', keep) } : {}),
        ...(remove !== undefined ? { remove: textSource('remove.txt', remove) } : {}),
      },
    });
  const ids = async (keep?: string, remove?: string) => (await read(keep, remove)).individuals.map((i) => i.id);
  assert.deepEqual(await ids('# reference\npop1 ind1\n\npop1 ind4 extra columns\npop2 ind2\n'), [
    'ind1',
    'ind2',
    'ind4',
  ]);
  assert.deepEqual(await ids(undefined, 'ind0\nind11\n'), [
    'ind1',
    'ind2',
    'ind3',
    'ind4',
    'ind5',
    'ind6',
    'ind7',
    'ind8',
    'ind9',
    'ind10',
  ]);
  assert.deepEqual(await ids('ind1\nind2\nind3\n', 'ind2\n'), ['ind1', 'ind3']);
  await assert.rejects(
    read('ind1\nind99\n'),
    (e: unknown) => e instanceof FormatError && e.file === 'keep.txt' && e.line === 2 && /ind99/.test(e.message),
  );
  // The right IID in the wrong family is not that individual.
  await assert.rejects(read('pop2 ind1\n'), (e: unknown) => e instanceof FormatError && e.line === 1);
  await assert.rejects(read('ind1\n', 'ind1\n'), /no individual left/);
});

test('--keep on a VCF passes over the other samples; readDatasetIndividuals reads a .fam alone', async () => {
  const vcf = [
    '##fileformat=VCFv4.2',
    '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\ta\tb\tc',
    '1\t100\tr1\tA\tG\t.\t.\t.\tGT\t0/0\t0/1\t1/1',
    '1\t200\tr2\tC\tT\t.\t.\t.\tGT\t1/1\t./.\t0/1',
  ].join('\n');
  const d = await readDataset({ main: textSource('x.vcf', vcf) }, { individuals: { keep: textSource('k', 'c\na\n') } });
  assert.deepEqual(
    d.individuals.map((i) => i.id),
    ['a', 'c'],
  );
  assert.deepEqual(Array.from(d.calls), [0, 0, 1, 1, 1, 1, 0, 1]);
  // A VCF keeps only the listed samples' columns as it streams: the others are never parsed.
  const garbled = vcf.replace('GT\t0/0\t0/1\t1/1', 'GT\t0/0\tnot-a-call\t1/1');
  const kept = await readDataset(
    { main: textSource('x.vcf', garbled) },
    { individuals: { keep: textSource('k', 'a\nc\n') } },
  );
  assert.deepEqual(Array.from(kept.calls), [0, 0, 1, 1, 1, 1, 0, 1]);
  await assert.rejects(readDataset({ main: textSource('x.vcf', garbled) }), /unexpected "n" in genotype of sample 2/);
  // Only the .fam is read: a .bed that is not one is never opened.
  const f = fileset(9, 2, 1);
  const bad = {
    main: bytesSource('x.bed', new Uint8Array([1, 2, 3])),
    companions: [textSource('x.bim', f.bim), textSource('x.fam', f.fam)],
  };
  const inds = await readDatasetIndividuals(bad, { plink: { population: 'fid' } });
  assert.deepEqual(
    inds.map((i) => [i.id, i.population]),
    Array.from({ length: 9 }, (_, i) => [`ind${i}`, `pop${i % 3}`]),
  );
});

test('--remove on a STRUCTURE file: the data read whole, then cut to the others', async () => {
  const text = 'locA locB\nind1 1 100 102 7 7\nind2 1 -9 -9 7 9\nind3 2 102 102 9 9\n';
  const d = await readDataset(
    { main: textSource('t.str', text) },
    { individuals: { remove: textSource('r', 'ind2\n') } },
  );
  assert.deepEqual(
    d.individuals.map((i) => [i.id, i.population]),
    [
      ['ind1', '1'],
      ['ind3', '2'],
    ],
  );
  assert.deepEqual(genotype(d, 1, 1), ['9', '9']);
  assert.match(d.source?.assumptions.join('; ') ?? '', /2 of the 3 individuals read/);
});
