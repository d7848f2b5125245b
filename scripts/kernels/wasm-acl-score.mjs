// ACL's local score with maximum-likelihood parameters for dense tables of at most two parents
// (engine/classify/local-scores.ts's conditionalScore, its written-out case), compiled to
// WebAssembly from its AssemblyScript form (scripts/kernels/assembly/acl-score.ts: the same
// operations in the same order, so the same bits; tests/classify/acl-kernel.test.ts checks them).
// The module imports its memory ("env" "memory") and keeps no data of its own.
import { readFileSync } from 'node:fs';
import { assembleBase64 } from './asc.mjs';

const SOURCE = new URL('./assembly/acl-score.ts', import.meta.url);

/** The compiled module, base64. */
export async function aclScoreBase64() {
  return assembleBase64('acl-score', readFileSync(SOURCE, 'utf8'));
}
