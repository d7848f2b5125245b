// The fit check's dot products of residual rows (engine/analysis/pair-dots.ts), compiled to
// WebAssembly from their AssemblyScript form (scripts/kernels/assembly/pair-dots.ts: float32
// products summed by chunks of 256, then in float64 — not the JavaScript fallback's order).
// The module imports its memory ("env" "memory") and keeps no data of its own.
import { readFileSync } from 'node:fs';
import { assembleBase64 } from './asc.mjs';

const SOURCE = new URL('./assembly/pair-dots.ts', import.meta.url);

/** The compiled module, base64. */
export async function pairDotsBase64() {
  return assembleBase64('pair-dots', readFileSync(SOURCE, 'utf8'), { simd: true });
}
