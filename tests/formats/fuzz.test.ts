import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { bytesSource, isFormatError, readDataset, textSource, type ByteSource } from '../../engine/index.ts';

/** Valid seeds of every format, which the properties mutate. */
const SEEDS: Record<string, { main: string; companions?: Record<string, string> }> = {
  'a.str': { main: 'L1 L2\ni1 1 100 102 7 7\ni2 1 -9 -9 7 9\ni3 2 102 102 9 9\n' },
  'b.str': { main: 'a 1 10 20\na 1 11 20\nb 2 10 21\nb 2 10 -9\n' },
  'c.gen': { main: 'title\nloc1, loc2\nPop\na1 , 100102 000000\na2, 102102 090092\nPOP\nb1 ,100100 090090\n' },
  'd.vcf': {
    main: '##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\ts1\ts2\n1\t100\trs1\tA\tG,T\t.\t.\t.\tGT:DP\t0/1:3\t2|2:4\n1\t200\t.\tC\t.\t.\t.\t.\tGT\t./.\t0/0\n',
  },
  'e.ped': {
    main: 'f i1 0 0 1 -9 A G C C\nf i2 0 0 1 -9 A A 0 0\n',
    companions: { 'e.map': '1 s1 0 10\n1 s2 0 20\n' },
  },
  'f.csv': { main: 'id,pop,L1,L2\na,P,A/G,120/124\nb,Q,G|G,NA\n' },
  'g.txt': { main: 'x 1 1 2 3 4\ny 2 2 2 3 3\n' },
};

const ALPHABET = [
  '\t',
  ' ',
  '\n',
  '\r\n',
  ',',
  '/',
  '|',
  '.',
  '-9',
  '0',
  '1',
  '12',
  'A',
  'Pop',
  '#',
  ':',
  'GT',
  '##fileformat=VCFv4.2',
  '#CHROM',
  '\u0000',
  'é',
];

function sources(
  name: string,
  main: string | Uint8Array,
  companions: Record<string, string> = {},
): { main: ByteSource; companions: ByteSource[] } {
  return {
    main: typeof main === 'string' ? textSource(name, main, 5) : bytesSource(name, main, 5),
    companions: Object.entries(companions).map(([n, t]) => textSource(n, t)),
  };
}

async function parsesOrFormatError(files: { main: ByteSource; companions: ByteSource[] }): Promise<boolean> {
  try {
    const d = await readDataset(files);
    // A parse that succeeds must be internally consistent.
    assert.equal(d.calls.length, d.individuals.length * d.loci.length * d.ploidy);
    for (let k = 0; k < d.calls.length; k++) {
      const a = d.calls[k]!;
      const l = Math.floor(k / (d.individuals.length * d.ploidy));
      assert.ok(a === -1 || (a >= 0 && a < d.loci[l]!.alleles.length));
    }
    assert.equal(new Set(d.individuals.map((i) => i.id)).size, d.individuals.length);
    return true;
  } catch (e) {
    if (isFormatError(e)) {
      const fe = e as Error & { line: number; column: number };
      assert.ok(Number.isInteger(fe.line) && Number.isInteger(fe.column));
      return true;
    }
    throw e;
  }
}

const mutation = (text: string) =>
  fc
    .array(
      fc.record({ at: fc.nat({ max: text.length }), del: fc.nat({ max: 4 }), ins: fc.constantFrom(...ALPHABET) }),
      { minLength: 1, maxLength: 4 },
    )
    .map((ms) =>
      ms.reduce(
        (t, m) => t.slice(0, Math.min(m.at, t.length)) + m.ins + t.slice(Math.min(m.at, t.length) + m.del),
        text,
      ),
    );

for (const [name, seed] of Object.entries(SEEDS)) {
  test(`fuzz ${name}: mutated files parse or throw FormatError`, async () => {
    await fc.assert(
      fc.asyncProperty(mutation(seed.main), (t) => parsesOrFormatError(sources(name, t, seed.companions))),
      { numRuns: 150, seed: 42 },
    );
  });
}

test('fuzz: random token soup under every extension parses or throws FormatError', async () => {
  const soup = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 60 }).map((xs) => xs.join(''));
  const ext = fc.constantFrom('x.str', 'x.gen', 'x.vcf', 'x.csv', 'x.txt', 'x.dat');
  await fc.assert(
    fc.asyncProperty(ext, soup, (n, t) => parsesOrFormatError(sources(n, t))),
    { numRuns: 300, seed: 7 },
  );
});

test('fuzz: truncated or corrupted gzip parses or throws FormatError', async () => {
  const gz = gzipSync(SEEDS['d.vcf']!.main);
  await fc.assert(
    fc.asyncProperty(
      fc.nat({ max: gz.length }),
      fc.nat({ max: gz.length - 1 }),
      fc.nat({ max: 255 }),
      async (cut, at, byte) => {
        const b = Uint8Array.from(gz.subarray(0, Math.max(2, cut)));
        if (at < b.length && at > 1) b[at] = byte;
        return parsesOrFormatError(sources('z.vcf.gz', b));
      },
    ),
    { numRuns: 150, seed: 3 },
  );
});

test('fuzz: binary PLINK with random bytes parses or throws FormatError', async () => {
  const bim = '1 a 0 1 A G\n1 b 0 2 C T\n';
  const fam = 'f x 0 0 1 1\nf y 0 0 1 1\nf z 0 0 1 1\n';
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 12 }), async (bytes) => {
      return parsesOrFormatError({
        main: bytesSource('p.bed', bytes),
        companions: [textSource('p.bim', bim), textSource('p.fam', fam)],
      });
    }),
    { numRuns: 200, seed: 5 },
  );
});
