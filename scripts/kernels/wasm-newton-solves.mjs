// The admixture model's Newton solves — F's per locus (engine/model/admixture/f-newton.ts's
// solveLocus), Q's per individual (q-newton.ts's solveStep and qNewtonStep's loop) — compiled to
// WebAssembly from their AssemblyScript form (scripts/kernels/assembly/newton-solves.ts: the same operations
// in the same order, so the same bits; tests/model/wasm-passes.test.ts checks them).
// The module imports the admixture passes' memory ("env" "memory") and keeps no data of its own.
import { readFileSync } from 'node:fs';
import { assembleBase64 } from './asc.mjs';

const SOURCE = new URL('./assembly/newton-solves.ts', import.meta.url);

/** The compiled module, base64. */
export async function newtonSolvesBase64() {
  return assembleBase64('newton-solves', readFileSync(SOURCE, 'utf8'));
}
