// buildPreparedData tabulates each locus's distinct genotypes with numeric keys (a flat array or a Map,
// text keys beyond 2^53); checked against the plain definition: genotypes numbered in order of
// first appearance, each the sorted list of its copies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreparedData, preparedData, sharedCalls } from '../../engine/model/prepared/prepared-data.ts';
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
    assert.deepEqual(Array.from(md.genotypeOf), ref.genotypeOf, `P = ${P}, r = ${r}: codes`);
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
    assert.ok(md.genotypeOf instanceof type, `N = ${N}, r = ${r}: ${md.genotypeOf.constructor.name}`);
    const ref = reference(data.calls, N, L, 2);
    assert.deepEqual(Array.from(md.genotypeOf), ref.genotypeOf, `N = ${N}, r = ${r}: codes`);
    assert.deepEqual(Array.from(md.genotypeAlleles), ref.table.flat(), `N = ${N}, r = ${r}: table`);
  }
});

test('preparedData: one preparation per dataset, equal to buildPreparedData, with the codes and (for worker threads) the calls in shared memory', () => {
  const rng = createRng(13);
  const data = makeData(50, 4, 2, [2, 3, 5, 2], () => Math.floor(rng.uniform() * 2));
  const md = preparedData(data);
  assert.equal(preparedData(data), md);
  const plain = buildPreparedData(data);
  assert.deepEqual(Array.from(md.genotypeOf), Array.from(plain.genotypeOf));
  assert.deepEqual(Array.from(md.genotypeAlleles), Array.from(plain.genotypeAlleles));
  assert.ok(md.genotypeOf.buffer instanceof SharedArrayBuffer);
  assert.ok(!(plain.genotypeOf.buffer instanceof SharedArrayBuffer));
  const calls = sharedCalls(data)!;
  assert.ok(calls.buffer instanceof SharedArrayBuffer);
  assert.equal(sharedCalls(data), calls);
  assert.deepEqual(Array.from(calls), Array.from(data.calls));
});
