// The mixture model's per-locus loops (engine/model/mixture/genotype-rows.ts and e-step.ts),
// compiled to WebAssembly from their AssemblyScript form (scripts/kernels/assembly/row-kernels.ts:
// the same additions in the same order, so the same bits). The module imports its memory
// ("env" "memory") and keeps no data of its own.
import { readFileSync } from 'node:fs';
import { assembleBase64 } from './asc.mjs';

const SOURCE = new URL('./assembly/row-kernels.ts', import.meta.url);

/** The compiled module, base64. */
export async function rowKernelsBase64() {
  return assembleBase64('row-kernels', readFileSync(SOURCE, 'utf8'), { simd: true });
}
