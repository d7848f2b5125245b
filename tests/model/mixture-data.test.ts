// mixtureData tabulates each locus's distinct genotypes with numeric keys (a flat array or a Map,
// text keys beyond 2^53); checked against the plain definition: genotypes numbered in order of
// first appearance, each the sorted list of its copies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mixtureData } from '../../engine/model/mixture/mixture-data.ts';
import { createRng } from '../../engine/util/rng.ts';
import { makeData } from './synthetic.ts';

function reference(calls: ArrayLike<number>, N: number, L: number, P: number) {
  const genotypeOf: number[] = [];
  const table: number[][] = [];
  for (let l = 0; l < L; l++) {
    const seen: string[] = [];
    for (let d = 0; d < N; d++) {
      const copies = Array.from({ length: P }, (_, p) => calls[(l * N + d) * P + p]!).sort((a, b) => a - b);
      const key = copies.join(' ');
      if (!seen.includes(key)) {
        seen.push(key);
        table.push(copies);
      }
      genotypeOf.push(seen.indexOf(key));
    }
  }
  return { genotypeOf, table };
}

test('mixtureData: genotype codes and tables equal the plain definition for SNPs, microsatellites, many alleles at ploidy 8, and missing copies', () => {
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
    const md = mixtureData(data);
    const ref = reference(data.calls, N, L, P);
    assert.deepEqual(Array.from(md.genotypeOf), ref.genotypeOf, `P = ${P}, r = ${r}: codes`);
    assert.deepEqual(Array.from(md.genotypeAlleles), ref.table.flat(), `P = ${P}, r = ${r}: table`);
  }
});
