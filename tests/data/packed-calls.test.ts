// Packed calls (two bits a genotype, as PLINK's .bed): unpacked calls, the preparation for
// clustering coded straight from the bits, and the dataset posted to worker threads, each checked
// against the same genotypes held as plain calls. The packing here is written from the format's
// definition (low bits first; 00, 01 missing, 10, 11), not with the engine's code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MISSING, type GenotypeData } from '../../engine/data/genotype-data.ts';
import { locusRepacker, packedGenotypeData } from '../../engine/data/packed-calls.ts';
import { datasetFingerprint } from '../../engine/data/fingerprint.ts';
import { summarize } from '../../engine/data/summary.ts';
import {
  buildPreparedData,
  everyLocus,
  postedDataset,
  receivedDataset,
} from '../../engine/model/prepared/prepared-data.ts';
import { createRng } from '../../engine/util/rng.ts';

const COPIES = [
  [0, 0],
  [MISSING, MISSING],
  [0, 1],
  [1, 1],
];

/** N × L genotypes (values 0..3, missing at rate `missing`) as packed bytes with random padding bits, and as calls. */
function genotypes(N: number, L: number, seed: number, missing = 0.05) {
  const rng = createRng(seed);
  const per = Math.ceil(N / 4);
  const bytes = new Uint8Array(L * per);
  const calls = new Int8Array(N * L * 2);
  for (let l = 0; l < L; l++) {
    // Some loci monomorphic, some without missing data.
    const kind = l % 5;
    for (let slot = 0; slot < per * 4; slot++) {
      let v: number;
      if (slot >= N) v = Math.floor(rng.uniform() * 4);
      else if (rng.uniform() < (kind === 1 ? 0 : missing)) v = 1;
      else v = kind === 2 ? 0 : [0, 2, 3][Math.floor(rng.uniform() * 3)]!;
      bytes[l * per + (slot >> 2)]! |= v << (2 * (slot & 3));
      if (slot < N) {
        calls[(l * N + slot) * 2] = COPIES[v]![0]!;
        calls[(l * N + slot) * 2 + 1] = COPIES[v]![1]!;
      }
    }
  }
  const individuals = Array.from({ length: N }, (_, i) => ({ id: `i${i}` }));
  const loci = Array.from({ length: L }, (_, l) => ({
    name: `s${l}`,
    chrom: '1',
    pos: 10 * (l + 1),
    alleles: ['A', 'G'],
  }));
  const plain: GenotypeData = { ploidy: 2, individuals, loci, calls, phased: false };
  return { plain, packed: packedGenotypeData({ individuals, loci }, { bytes, bytesPerLocus: per }) };
}

test('packed calls: unpacked on first read into the calls of the same genotypes (N not a multiple of 4, padding bits ignored)', () => {
  for (const N of [1, 4, 7, 161]) {
    const { plain, packed } = genotypes(N, 23, N);
    assert.equal(packed.ploidy, 2);
    assert.deepEqual(Array.from(packed.calls), Array.from(plain.calls), `N = ${N}`);
    assert.equal(packed.calls, packed.calls, 'unpacked once');
  }
});

test('packed calls: the preparation coded from the bits equals the one from the calls (codes, tables, groups, windows)', () => {
  for (const N of [9, 203, 1000]) {
    const { plain, packed } = genotypes(N, 61, 100 + N);
    const a = buildPreparedData(packed);
    const b = buildPreparedData(plain);
    assert.deepEqual(Array.from(a.genotypeAlleles), Array.from(b.genotypeAlleles), `N = ${N}: genotypes`);
    assert.deepEqual(Array.from(a.genotypeOffsets), Array.from(b.genotypeOffsets), `N = ${N}: offsets`);
    assert.deepEqual(Array.from(a.locusCodes), Array.from(b.locusCodes), `N = ${N}: locus rows`);
    assert.deepEqual(Array.from(a.groups.first), Array.from(b.groups.first), `N = ${N}: groups`);
    assert.deepEqual(Array.from(a.groups.codes), Array.from(b.groups.codes), `N = ${N}: combined codes`);
    assert.deepEqual(
      Array.from(everyLocus(a).genotypeOf),
      Array.from(everyLocus(b).genotypeOf),
      `N = ${N}: every locus`,
    );
    assert.ok(Array.from(a.groups.row).some((r) => r >= 0) || N < 16, `N = ${N}: some loci grouped`);
  }
});

test('packed calls: posted to workers as the shared packed bytes alone, received as the same genotypes', () => {
  const { plain, packed } = genotypes(57, 12, 7);
  const posted = postedDataset(packed);
  assert.equal(posted.calls, undefined, 'the calls are not unpacked to post them');
  assert.ok(posted.packed!.bytes.buffer instanceof SharedArrayBuffer);
  const received = receivedDataset(structuredClone(posted));
  assert.deepEqual(Array.from(received.calls), Array.from(plain.calls));
  assert.deepEqual(
    received.individuals.map((d) => d.id),
    plain.individuals.map((d) => d.id),
  );
});

test('packed calls: refused for loci with more than two alleles and for bytes that do not fit the shape', () => {
  const individuals = [{ id: 'a' }, { id: 'b' }];
  const locus = { name: 'm', alleles: ['1', '2', '3'] };
  assert.throws(
    () => packedGenotypeData({ individuals, loci: [locus] }, { bytes: new Uint8Array(1), bytesPerLocus: 1 }),
    /more than two alleles/,
  );
  assert.throws(
    () =>
      packedGenotypeData(
        { individuals, loci: [{ name: 's', alleles: ['A', 'C'] }] },
        { bytes: new Uint8Array(2), bytesPerLocus: 1 },
      ),
    /2 bytes for 1 loci × 2 individuals/,
  );
});

test('packed calls: prepared, decoded and posted where there is no SharedArrayBuffer (a browser without cross-origin isolation)', () => {
  const { plain, packed } = genotypes(41, 9, 3);
  const g = globalThis as { SharedArrayBuffer?: SharedArrayBufferConstructor };
  const saved = g.SharedArrayBuffer;
  delete g.SharedArrayBuffer;
  try {
    const md = buildPreparedData(packed);
    assert.deepEqual(
      Array.from(everyLocus(md).genotypeOf),
      Array.from(everyLocus(buildPreparedData(plain)).genotypeOf),
    );
    const posted = postedDataset(packed);
    assert.equal(posted.packed!.bytes, packed.packed!.bytes, 'posted as they are, copied by the message');
    assert.deepEqual(Array.from(receivedDataset(posted).calls), Array.from(plain.calls));
  } finally {
    g.SharedArrayBuffer = saved;
  }
});

/** Packed data whose calls throw when read: what passes it never unpacks them. */
function refusingCalls(packed: GenotypeData): GenotypeData {
  return {
    ...packed,
    get calls(): Int8Array {
      throw new Error('unpacked');
    },
  };
}

test("packed calls: the dataset fingerprint (sweep pieces) equals the plain calls' without unpacking them", () => {
  const { plain, packed } = genotypes(37, 11, 5);
  const untouched = refusingCalls(packed);
  assert.equal(datasetFingerprint(untouched), datasetFingerprint(plain));
  const other = genotypes(37, 11, 6).plain;
  assert.notEqual(datasetFingerprint(other), datasetFingerprint(plain));
});

test("packed calls: the dataset summary (Data screen, stratify inspect) equals the plain calls' without unpacking them", () => {
  const { plain, packed } = genotypes(53, 17, 9);
  const untouched = refusingCalls(packed);
  assert.deepEqual(summarize(untouched), summarize(plain));
});

test('packed calls: a locus repacked for some individuals holds their codes in their order, the padding zero', () => {
  const rng = createRng(11);
  for (const N of [1, 4, 7, 64, 203]) {
    const per = Math.ceil(N / 4);
    const source = Uint8Array.from({ length: 3 * per + 2 }, () => Math.floor(rng.uniform() * 256));
    const code = (i: number, from: number) => (source[from + (i >> 2)]! >> (2 * (i & 3))) & 3;
    const all = Array.from({ length: N }, (_, i) => i);
    const subsets = [
      all,
      [],
      [N - 1],
      all.filter((i) => i % 2 === 1),
      all.filter(() => rng.uniform() < 0.9),
      all.filter(() => rng.uniform() < 0.3),
      // Any order (the ascending ones take another path).
      [...all].reverse(),
      all.filter(() => rng.uniform() < 0.5).sort(() => rng.uniform() - 0.5),
    ];
    for (const kept of subsets) {
      const n = kept.length;
      const out = Math.ceil(n / 4);
      const target = new Uint8Array(2 + 2 * out).fill(0xaa);
      const repack = locusRepacker(kept);
      for (const l of [0, 2]) repack(source, 1 + l * per, target, 1 + (l / 2) * out);
      for (const l of [0, 2]) {
        const expected = new Uint8Array(out);
        kept.forEach((i, j) => (expected[j >> 2]! |= code(i, 1 + l * per) << (2 * (j & 3))));
        assert.deepEqual(target.subarray(1 + (l / 2) * out, 1 + (l / 2 + 1) * out), expected, `N ${N}, ${n} kept`);
      }
      // Nothing written outside the loci's bytes.
      assert.equal(target[0], 0xaa);
      assert.equal(target[1 + 2 * out], 0xaa);
    }
  }
});
