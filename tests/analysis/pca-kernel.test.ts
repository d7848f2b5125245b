// PCA's products as WebAssembly (pca-kernel.ts) against the JavaScript products (gram-product.ts's
// GramProduct): the same operations in the same order, so every bit of Y = X Xᵀ Q is equal, for
// widths that take each of the kernel's column chunks (20, 8 and 4 doubles) and a padded one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { standardisedColumns } from '../../engine/analysis/pca-columns.ts';
import { GramProduct } from '../../engine/analysis/gram-product.ts';
import { wasmGramProduct } from '../../engine/analysis/pca-kernel.ts';
import { createRng } from '../../engine/util/rng.ts';
import { multiAllelicPopulations } from '../model/synthetic.ts';

const cases = [
  {
    name: 'microsatellites, missing calls',
    o: { pops: 3, perPop: 30, loci: 25, minAlleles: 3, maxAlleles: 9, fst: 0.1, missing: 0.05 },
  },
  // Enough individuals for groups of three SNPs (locus-groups.ts: tables of up to N / 8 rows).
  {
    name: 'SNPs in locus groups',
    o: { pops: 4, perPop: 130, loci: 301, minAlleles: 2, maxAlleles: 2, fst: 0.08, missing: 0.02 },
  },
];

for (const { name, o } of cases)
  test(`PCA products: WebAssembly equals JavaScript bit for bit (${name})`, (t) => {
    const md = buildPreparedData(multiAllelicPopulations(11, o).data);
    if (name.startsWith('SNPs')) assert.ok(md.groups.maxCombined >= 27, 'the SNPs are read in groups');
    const cols = standardisedColumns(md);
    for (const l of [20, 28, 13, 6, 1]) {
      const wasm = wasmGramProduct(md, cols, l);
      if (!wasm) return t.skip('WebAssembly SIMD is not available here');
      const rng = createRng(l);
      const Q = Float64Array.from({ length: md.N * l }, () => rng.normal());
      const expected = new Float64Array(md.N * l);
      const actual = new Float64Array(md.N * l);
      new GramProduct(md, cols, l).apply(Q, expected);
      wasm.apply(Q, actual);
      // Twice: the second product starts from the state the first left.
      wasm.apply(Q, actual);
      assert.deepEqual(actual, expected, `l = ${l}`);
      assert.ok(expected.some((y) => y !== 0));
    }
  });
