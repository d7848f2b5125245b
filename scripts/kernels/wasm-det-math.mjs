// engine/util/det-math.ts's detLog and detLogGamma over arrays (engine/util/det-math-bulk.ts),
// compiled to WebAssembly from their AssemblyScript form (scripts/kernels/assembly/det-math.ts,
// which imports assembly/det-log.ts): the same operations in the same order, so the same bits.
// The module has a memory of its own ("memory"), which the caller grows.
import { readFileSync } from 'node:fs';
import { assembleBase64 } from './asc.mjs';

const SOURCE = new URL('./assembly/det-math.ts', import.meta.url);

/** The compiled module, base64. */
export async function detMathBase64() {
  return assembleBase64('det-math', readFileSync(SOURCE, 'utf8'), { ownMemory: true });
}
