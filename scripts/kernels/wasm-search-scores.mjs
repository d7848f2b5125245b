// The structure searches' kernels, compiled to WebAssembly from their AssemblyScript form
// (scripts/kernels/assembly/search-scores.ts): ACL's local score with maximum-likelihood parameters
// for dense tables of at most two parents (local-scores.ts's conditionalScore, its written-out case:
// the same operations in the same order, so the same bits), and BCkG's whole search for one feature
// counting rows (ACL, the same bits) or on bit sets (ACL, LL, BIC, K2; the same scores to rounding).
// tests/classify/local-scores.test.ts checks them against the JavaScript scorer.
// The module imports its memory ("env" "memory") and keeps no data of its own.
import { readFileSync } from 'node:fs';
import { assembleBase64 } from './asc.mjs';

const SOURCE = new URL('./assembly/search-scores.ts', import.meta.url);

/** The compiled module, base64. */
export async function searchScoresBase64() {
  return assembleBase64('search-scores', readFileSync(SOURCE, 'utf8'));
}
