// PCA's products over the genotypes (engine/analysis/pca.ts's GramProduct) for blocks of locus
// groups with byte codes, compiled to WebAssembly from their AssemblyScript form
// (scripts/kernels/assembly/pca-passes.ts: the same operations in the same order, so the same bits;
// tests/analysis/pca-kernel.test.ts checks them against the JavaScript products).
// The module imports its memory ("env" "memory") and keeps no data of its own.
import { readFileSync } from 'node:fs';
import { assembleBase64 } from './asc.mjs';

const SOURCE = new URL('./assembly/pca-passes.ts', import.meta.url);

/** The compiled module, base64. */
export async function pcaPassesBase64() {
  return assembleBase64('pca-passes', readFileSync(SOURCE, 'utf8'), { simd: true });
}
