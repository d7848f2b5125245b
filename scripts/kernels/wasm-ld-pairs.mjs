// Linkage pruning's pair counts (engine/data/ld-pair-counts.ts), compiled to WebAssembly from their
// AssemblyScript form (scripts/kernels/assembly/ld-pairs.ts: the same integers as the JavaScript
// fallback's 32-bit popcounts). The module imports its memory ("env" "memory") and keeps no data.
import { readFileSync } from 'node:fs';
import { assembleBase64 } from './asc.mjs';

const SOURCE = new URL('./assembly/ld-pairs.ts', import.meta.url);

/** The compiled module, base64. */
export async function ldPairsBase64() {
  return assembleBase64('ld-pairs', readFileSync(SOURCE, 'utf8'), { simd: true });
}
