// buildPreparedData tabulates each locus's distinct genotypes with numeric keys (a flat array or a Map,
// text keys beyond 2^53); checked against the plain definition: genotypes numbered in order of
// first appearance, each the sorted list of its copies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildPreparedData,
  everyLocus,
  genotypeCode,
  genotypeCounts,
  locusRow,
  postedDataset,
  preparedData,
} from '../../engine/model/prepared/prepared-data.ts';
import { createRng } from '../../engine/util/rng.ts';
import { makeData } from './synthetic.ts';

function reference(calls: ArrayLike<number>, N: number, L: number, P: number) {
  const genotypeOf: number[] = [];
  const table: number[][] = [];
  for (let l = 0; l < L; l++) {
    const seen = new Map<string, number>();
    for (let d = 0; d < N; d++) {
      const copies = Array.from({ length: P }, (_, p) => calls[(l * N + d) * P + p]!).sort((a, b) => a - b);
      const key = copies.join(' ');
      if (!seen.has(key)) {
        seen.set(key, seen.size);
        table.push(copies);
      }
      genotypeOf.push(seen.get(key)!);
    }
  }
  return { genotypeOf, table };
}

test('buildPreparedData: genotype codes and tables equal the plain definition for SNPs, microsatellites, many alleles at ploidy 8, and missing copies', () => {
  const rng = createRng(11);
  for (const [P, r] of [
    [1, 2],
    [2, 2],
    [2, 30],
    [4, 12],
    [2, 600],
    [8, 300],
  ] as const) {
    const N = 40;
    const L = 3;
    const data = makeData(N, L, P, Array(L).fill(r), () =>
      rng.uniform() < 0.1 ? -1 : Math.floor(rng.uniform() * Math.min(r, 6)) * Math.max(1, Math.floor(r / 6)),
    );
    const md = buildPreparedData(data);
    const ref = reference(data.calls, N, L, P);
    assert.deepEqual(Array.from(everyLocus(md).genotypeOf), ref.genotypeOf, `P = ${P}, r = ${r}: codes`);
    assert.deepEqual(Array.from(md.genotypeAlleles), ref.table.flat(), `P = ${P}, r = ${r}: table`);
  }
});

test('buildPreparedData: genotype codes widen from one byte to two and four when a locus has more than 255 or 65,535 genotypes', () => {
  const rng = createRng(12);
  for (const [N, L, r, type] of [
    [700, 3, 60, Uint16Array],
    [90000, 2, 1000, Int32Array],
  ] as const) {
    const data = makeData(N, L, 2, Array(L).fill(r), (l) =>
      // The first locus has few genotypes, so the widening happens at a later one.
      l === 0 ? Math.floor(rng.uniform() * 2) : Math.floor(rng.uniform() * r),
    );
    const md = buildPreparedData(data);
    assert.ok(
      everyLocus(md).genotypeOf instanceof type,
      `N = ${N}, r = ${r}: ${everyLocus(md).genotypeOf.constructor.name}`,
    );
    const ref = reference(data.calls, N, L, 2);
    assert.deepEqual(Array.from(everyLocus(md).genotypeOf), ref.genotypeOf, `N = ${N}, r = ${r}: codes`);
    assert.deepEqual(Array.from(md.genotypeAlleles), ref.table.flat(), `N = ${N}, r = ${r}: table`);
  }
});

test('preparedData: one preparation per dataset, equal to buildPreparedData, with the codes and (for worker threads) the calls in shared memory', () => {
  const rng = createRng(13);
  const data = makeData(50, 4, 2, [2, 3, 5, 2], () => Math.floor(rng.uniform() * 2));
  const md = preparedData(data);
  assert.equal(preparedData(data), md);
  const plain = buildPreparedData(data);
  assert.deepEqual(Array.from(everyLocus(md).genotypeOf), Array.from(everyLocus(plain).genotypeOf));
  assert.deepEqual(Array.from(md.genotypeAlleles), Array.from(plain.genotypeAlleles));
  assert.ok(everyLocus(md).genotypeOf.buffer instanceof SharedArrayBuffer);
  assert.ok(!(everyLocus(plain).genotypeOf.buffer instanceof SharedArrayBuffer));
  const posted = postedDataset(data);
  assert.ok(posted.calls!.buffer instanceof SharedArrayBuffer);
  assert.equal(postedDataset(data), posted);
  assert.deepEqual(Array.from(posted.calls!), Array.from(data.calls));
});

test('buildPreparedData: grouped loci live only in their combined codes; everyLocus, genotypeCode, locusRow and genotypeCounts decode them as the plain definition', () => {
  const rng = createRng(14);
  const N = 200;
  // SNPs (grouped in fours and fives by Π G ≤ min(256, N / 8) = 25), a monomorphic SNP, a
  // microsatellite between them (a group of its own), and genome positions whose windows split a
  // group (its loci then keep their rows as well).
  const r = [2, 2, 2, 2, 1, 2, 2, 12, 2, 2, 2, 2, 2, 2];
  const L = r.length;
  const data = makeData(N, L, 2, r, (l) => (rng.uniform() < 0.05 ? -1 : Math.floor(rng.uniform() * r[l]!)));
  const width = Math.ceil(Math.cbrt(L) - 1e-9);
  const positioned = { ...data, loci: data.loci.map((locus, i) => ({ ...locus, chrom: '1', pos: 100 * (i + 1) })) };
  for (const d of [data, positioned]) {
    const md = buildPreparedData(d);
    const ref = reference(d.calls, N, L, 2);
    const G = Array.from({ length: L }, (_, i) => md.genotypeOffsets[i + 1]! - md.genotypeOffsets[i]!);
    // The grouping as first defined: a group grows while the product of its loci's G stays ≤ 25.
    const first = [0];
    let size = 1;
    for (let i = 0; i < L; i++) {
      if (i > first.at(-1)! && size * G[i]! > 25) {
        first.push(i);
        size = 1;
      }
      size *= G[i]!;
    }
    first.push(L);
    assert.deepEqual(Array.from(md.groups.first), first);
    const window = (i: number) => Math.floor(i / width);
    for (let q = 0; q + 1 < first.length; q++) {
      const loci = Array.from({ length: first[q + 1]! - first[q]! }, (_, j) => first[q]! + j);
      const combined = md.groups.row[q]! >= 0;
      assert.equal(combined, loci.length > 1, `group ${q}: combined codes only for groups of several loci`);
      const spans = d === positioned && loci.some((i) => window(i) !== window(loci[0]!));
      for (let n = 0; n < N; n++) {
        if (combined) {
          const code = loci.reduce((c, i) => c * G[i]! + ref.genotypeOf[i * N + n]!, 0);
          assert.equal(md.groups.codes[md.groups.row[q]! * N + n], code, `group ${q}, individual ${n}`);
        }
        for (const i of loci) {
          const stored = !combined || spans ? ref.genotypeOf[i * N + n]! : 0;
          assert.equal(
            md.locusCodes[i * N + n],
            stored,
            `locus ${i}, individual ${n}: row ${stored ? 'kept' : 'zero'}`,
          );
        }
      }
    }
    assert.ok(Array.from(md.groups.row).filter((x) => x >= 0).length >= 2, 'two groups of several loci');
    assert.deepEqual(Array.from(everyLocus(md).genotypeOf), ref.genotypeOf);
    for (let i = 0; i < L; i++)
      for (let n = 0; n < N; n++) assert.equal(genotypeCode(md, i, n), ref.genotypeOf[i * N + n]);
    const scratch = new Int32Array(N);
    for (let i = 0; i < L; i++)
      assert.deepEqual(
        Array.from(locusRow(md, i, scratch)),
        ref.genotypeOf.slice(i * N, (i + 1) * N),
        `locus ${i}: row`,
      );
    const counts = new Array<number>(md.genotypeOffsets[L]!).fill(0);
    for (let i = 0; i < L; i++)
      for (let n = 0; n < N; n++) counts[md.genotypeOffsets[i]! + ref.genotypeOf[i * N + n]!]!++;
    assert.deepEqual(Array.from(genotypeCounts(md)), counts);
  }
});

test('GroupBuilder: a small first reservation grows and gives the same groups as the full one', async () => {
  const { GroupBuilder } = await import('../../engine/model/prepared/locus-groups.ts');
  // N / 8 ≥ 256: groups of five three-genotype loci (3⁵ = 243 combined codes).
  const N = 2048;
  const L = 60;
  const rng = createRng(5);
  const loci = Array.from({ length: L }, () => Int32Array.from({ length: N }, () => Math.floor(rng.uniform() * 3)));
  const build = (reserve?: number) => {
    const b = new GroupBuilder(N, L, undefined, false, reserve);
    const rows: number[] = [];
    loci.forEach((codes, i) => {
      const s = b.scratch();
      s.set(codes);
      b.add(i, 3, s, (l) => rows.push(l));
    });
    b.close((l) => rows.push(l));
    return { groups: b.groups(), rows };
  };
  const full = build();
  const grown = build(1);
  assert.ok(full.groups.codes.length > 2 * N, 'several groups of several loci');
  assert.deepEqual(Array.from(grown.groups.codes), Array.from(full.groups.codes));
  assert.deepEqual(Array.from(grown.groups.first), Array.from(full.groups.first));
  assert.deepEqual(grown.rows, full.rows);
});
