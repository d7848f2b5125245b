/**
 * The two hot loops of the mixture model's iterations, for one locus: every individual's row of an
 * (N, K) matrix meets the row of its genotype in a (G, K) table. The columns are taken in blocks of
 * up to 8 with the block's additions written out, so that V8 keeps the row in registers: about
 * twice as fast as a loop over the K columns (bench/clustering.ts: E step on eHGDP, K = 2..8).
 *
 *   codes: genotype index of individual d at this locus is codes[start + d] (MixtureData.genotypeOf)
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
  for (let c0 = 0; c0 < K; c0 += 8) {
    switch (Math.min(8, K - c0)) {
      case 1:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          rows[o]! += table[t]!;
        }
        break;
      case 2:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          rows[o]! += table[t]!;
          rows[o + 1]! += table[t + 1]!;
        }
        break;
      case 3:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          rows[o]! += table[t]!;
          rows[o + 1]! += table[t + 1]!;
          rows[o + 2]! += table[t + 2]!;
        }
        break;
      case 4:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          rows[o]! += table[t]!;
          rows[o + 1]! += table[t + 1]!;
          rows[o + 2]! += table[t + 2]!;
          rows[o + 3]! += table[t + 3]!;
        }
        break;
      case 5:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          rows[o]! += table[t]!;
          rows[o + 1]! += table[t + 1]!;
          rows[o + 2]! += table[t + 2]!;
          rows[o + 3]! += table[t + 3]!;
          rows[o + 4]! += table[t + 4]!;
        }
        break;
      case 6:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          rows[o]! += table[t]!;
          rows[o + 1]! += table[t + 1]!;
          rows[o + 2]! += table[t + 2]!;
          rows[o + 3]! += table[t + 3]!;
          rows[o + 4]! += table[t + 4]!;
          rows[o + 5]! += table[t + 5]!;
        }
        break;
      case 7:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          rows[o]! += table[t]!;
          rows[o + 1]! += table[t + 1]!;
          rows[o + 2]! += table[t + 2]!;
          rows[o + 3]! += table[t + 3]!;
          rows[o + 4]! += table[t + 4]!;
          rows[o + 5]! += table[t + 5]!;
          rows[o + 6]! += table[t + 6]!;
        }
        break;
      case 8:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          rows[o]! += table[t]!;
          rows[o + 1]! += table[t + 1]!;
          rows[o + 2]! += table[t + 2]!;
          rows[o + 3]! += table[t + 3]!;
          rows[o + 4]! += table[t + 4]!;
          rows[o + 5]! += table[t + 5]!;
          rows[o + 6]! += table[t + 6]!;
          rows[o + 7]! += table[t + 7]!;
        }
        break;
    }
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
  for (let c0 = 0; c0 < K; c0 += 8) {
    switch (Math.min(8, K - c0)) {
      case 1:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          table[t]! += rows[o]!;
        }
        break;
      case 2:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          table[t]! += rows[o]!;
          table[t + 1]! += rows[o + 1]!;
        }
        break;
      case 3:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          table[t]! += rows[o]!;
          table[t + 1]! += rows[o + 1]!;
          table[t + 2]! += rows[o + 2]!;
        }
        break;
      case 4:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          table[t]! += rows[o]!;
          table[t + 1]! += rows[o + 1]!;
          table[t + 2]! += rows[o + 2]!;
          table[t + 3]! += rows[o + 3]!;
        }
        break;
      case 5:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          table[t]! += rows[o]!;
          table[t + 1]! += rows[o + 1]!;
          table[t + 2]! += rows[o + 2]!;
          table[t + 3]! += rows[o + 3]!;
          table[t + 4]! += rows[o + 4]!;
        }
        break;
      case 6:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          table[t]! += rows[o]!;
          table[t + 1]! += rows[o + 1]!;
          table[t + 2]! += rows[o + 2]!;
          table[t + 3]! += rows[o + 3]!;
          table[t + 4]! += rows[o + 4]!;
          table[t + 5]! += rows[o + 5]!;
        }
        break;
      case 7:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          table[t]! += rows[o]!;
          table[t + 1]! += rows[o + 1]!;
          table[t + 2]! += rows[o + 2]!;
          table[t + 3]! += rows[o + 3]!;
          table[t + 4]! += rows[o + 4]!;
          table[t + 5]! += rows[o + 5]!;
          table[t + 6]! += rows[o + 6]!;
        }
        break;
      case 8:
        for (let d = 0, o = c0; d < N; d++, o += K) {
          const t = codes[start + d]! * K + c0;
          table[t]! += rows[o]!;
          table[t + 1]! += rows[o + 1]!;
          table[t + 2]! += rows[o + 2]!;
          table[t + 3]! += rows[o + 3]!;
          table[t + 4]! += rows[o + 4]!;
          table[t + 5]! += rows[o + 5]!;
          table[t + 6]! += rows[o + 6]!;
          table[t + 7]! += rows[o + 7]!;
        }
        break;
    }
  }
}
