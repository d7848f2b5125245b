/**
 * Consecutive loci with few genotypes (SNPs: at most 4 with missing) taken together: an
 * individual's genotypes at the m loci of a group are one combined code
 * Σ_j g_j · Π_{j' > j} G_j', and the hot loops (E step, expected counts) visit each individual
 * once per group instead of once per locus, against a table of Π G_j rows built per iteration.
 * Grouping stops where the table would cost more than a fraction of the individuals' rows
 * (Π G ≤ min(256, N / 8)), so microsatellites with many genotypes stay one locus per group.
 */
export interface LocusGroups {
  /** shape (groups + 1,): group q holds loci first[q] .. first[q + 1] − 1. */
  readonly first: Int32Array;
  /** shape (groups,): the row of group q in `codes`, or −1 for a group of one locus (its genotypeOf row is used). */
  readonly row: Int32Array;
  /** shape (groups,): Π G_j over the group's loci, the number of its combined genotypes. */
  readonly size: Int32Array;
  /** shape (rows, N): combined genotype codes of the groups of several loci. */
  readonly codes: Uint8Array;
  /** The largest group size (the size of a table). */
  readonly maxCombined: number;
}

/** Largest table of a group: a combined code must fit in a byte. */
const MAX_COMBINED = 256;

/** Groups consecutive loci (see {@link LocusGroups}); `shared` puts the codes in a SharedArrayBuffer. */
export function locusGroups(
  N: number,
  L: number,
  genotypeOf: ArrayLike<number>,
  genotypeOffsets: Int32Array,
  shared: boolean,
): LocusGroups {
  const limit = Math.min(MAX_COMBINED, Math.max(1, Math.floor(N / 8)));
  const first: number[] = [0];
  const size: number[] = [1];
  for (let i = 0; i < L; i++) {
    const G = genotypeOffsets[i + 1]! - genotypeOffsets[i]!;
    if (i > first[first.length - 1]! && size[size.length - 1]! * G > limit) {
      first.push(i);
      size.push(1);
    }
    size[size.length - 1]! *= G;
  }
  first.push(L);
  const groups = size.length;
  const row = new Int32Array(groups).fill(-1);
  let rows = 0;
  for (let q = 0; q < groups; q++) if (first[q + 1]! - first[q]! > 1) row[q] = rows++;
  const codes = shared ? new Uint8Array(new SharedArrayBuffer(rows * N)) : new Uint8Array(rows * N);
  for (let q = 0; q < groups; q++) {
    if (row[q]! < 0) continue;
    const out = row[q]! * N;
    for (let i = first[q]!; i < first[q + 1]!; i++) {
      const G = genotypeOffsets[i + 1]! - genotypeOffsets[i]!;
      const base = i * N;
      for (let d = 0; d < N; d++) codes[out + d] = codes[out + d]! * G + genotypeOf[base + d]!;
    }
  }
  return {
    first: Int32Array.from(first),
    row,
    size: Int32Array.from(size),
    codes,
    maxCombined: size.reduce((m, x) => Math.max(m, x), 1),
  };
}

/**
 * acc[g, :] = Σ of the rows of `table` (size × K, one per combined code) whose code holds genotype g
 * of a locus with G genotypes and `stride` (the product of the later loci's genotype counts):
 * codes c = (b·G + g)·stride + r visited in increasing order, so each genotype's sum takes its codes
 * in the same order as a loop over c with g = ⌊c / stride⌋ mod G, without the division.
 */
export function locusMarginal(
  table: Float64Array,
  size: number,
  stride: number,
  G: number,
  K: number,
  acc: Float64Array,
): void {
  acc.fill(0, 0, G * K);
  const run = stride * K;
  for (let at = 0; at < size * K;) {
    for (let o = 0; o < G * K; o += K) {
      for (let end = at + run; at < end; at += K) for (let k = 0; k < K; k++) acc[o + k]! += table[at + k]!;
    }
  }
}

/**
 * Extends a group's table (size × K rows, one per combined code) by a locus of G genotypes whose
 * rows are `locus` (G × K): row c·G + g becomes row c + locus row g. Returns the new size.
 */
export function extendGroupTable(table: Float64Array, size: number, locus: Float64Array, G: number, K: number): number {
  for (let c = size - 1; c >= 0; c--)
    for (let g = G - 1; g >= 0; g--)
      for (let k = 0; k < K; k++) table[(c * G + g) * K + k] = table[c * K + k]! + locus[g * K + k]!;
  return size * G;
}

/** Whether group q's loci lie in more than one block (`blockOf`: each locus's block). */
export function groupSpansBlocks(groups: LocusGroups, q: number, blockOf: ArrayLike<number>): boolean {
  const i0 = groups.first[q]!;
  for (let i = i0 + 1; i < groups.first[q + 1]!; i++) if (blockOf[i] !== blockOf[i0]) return true;
  return false;
}

/** The groups of a subset of individuals (`rows`, in that order): same grouping, codes taken over. */
export function subsetGroups(groups: LocusGroups, N: number, rows: readonly number[]): LocusGroups {
  const n = rows.length;
  const count = groups.codes.length / Math.max(1, N);
  const codes = new Uint8Array(count * n);
  subsetRows(groups.codes, codes, Int32Array.from(rows), count, N);
  return { ...groups, codes };
}

/** to[r · n + k] = from[r · N + rows[k]] for every row r < count: columns `rows` of a (count, N) table. */
export function subsetRows<T extends Uint8Array | Uint16Array | Int32Array>(
  from: T,
  to: T,
  rows: Int32Array,
  count: number,
  N: number,
): void {
  const n = rows.length;
  for (let r = 0; r < count; r++) {
    const a = r * N;
    const b = r * n;
    for (let k = 0; k < n; k++) to[b + k] = from[a + rows[k]!]!;
  }
}
