/**
 * The two hot loops of the mixture model's iterations, for one locus: every individual's row of an
 * (N, K) matrix meets the row of its genotype in a (G, K) table. These are the JavaScript forms,
 * used where WebAssembly is missing; wasm-rows.ts runs the same additions in the same order.
 *
 *   codes: genotype index of individual d at this locus is codes[start + d] (PreparedData.locusCodes)
 */
type Codes = Uint8Array | Uint16Array | Int32Array;

/** rows[d, :] += table[codes[start + d], :] for d < N (the E step adds each genotype's ln p(g | c)). */
export function addGenotypeRows(
  codes: Codes,
  start: number,
  N: number,
  K: number,
  rows: Float64Array,
  table: Float64Array,
): void {
  for (let d = 0, o = 0; d < N; d++, o += K) {
    const t = codes[start + d]! * K;
    for (let c = 0; c < K; c++) rows[o + c]! += table[t + c]!;
  }
}

/** table[codes[start + d], :] += rows[d, :] for d < N (expected counts: posteriors summed per genotype). */
export function gatherGenotypeRows(
  codes: Codes,
  start: number,
  N: number,
  K: number,
  rows: Float64Array,
  table: Float64Array,
): void {
  for (let d = 0, o = 0; d < N; d++, o += K) {
    const t = codes[start + d]! * K;
    for (let c = 0; c < K; c++) table[t + c]! += rows[o + c]!;
  }
}
