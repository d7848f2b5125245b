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
  /** shape (groups,): the row of group q in `codes`, or −1 for a group of one locus (its locusCodes row is used). */
  readonly row: Int32Array;
  /** shape (groups,): Π G_j over the group's loci, the number of its combined genotypes. */
  readonly size: Int32Array;
  /** shape (rows, N): combined genotype codes of the groups of several loci. */
  readonly codes: Uint8Array;
  /** The largest group size (the size of a table). */
  readonly maxCombined: number;
}

/** Largest table of a group: a combined code must fit in a byte. */
export const MAX_COMBINED = 256;

/** Rows of combined codes per chunk while the number of groups is not yet known. */
const CHUNK_ROWS = 1024;

/**
 * Groups consecutive loci as they are coded (see {@link LocusGroups}): each locus's codes are
 * folded into its group's combined codes, and kept only where the group's loci are read one at a
 * time (a group of one locus, or one whose loci lie in two genome windows), when `writeRow` gets
 * them. A group grows while Π G ≤ min(256, N / 8).
 */
export class GroupBuilder {
  private readonly limit: number;
  private readonly first: number[] = [];
  private readonly size: number[] = [];
  private readonly chunks: Uint8Array[] = [];
  private rows = 0;
  /** The open group: its first locus, Π G so far, and the loci with G > 1 with their codes. */
  private start = -1;
  private product = 1;
  private end = 0;
  private readonly pending: { locus: number; codes: Int32Array }[] = [];
  private readonly combined: Int32Array;
  private readonly free: Int32Array[] = [];

  constructor(
    private readonly N: number,
    private readonly windows: { readonly of: Int32Array } | undefined,
  ) {
    this.limit = Math.min(MAX_COMBINED, Math.max(1, Math.floor(N / 8)));
    this.combined = new Int32Array(N);
  }

  /** A buffer of N codes for the next locus (handed back to {@link add}). */
  scratch(): Int32Array {
    return this.free.pop() ?? new Int32Array(this.N);
  }

  /** Locus i, the next one, with G genotypes and its codes in the last {@link scratch} buffer. */
  add(i: number, G: number, codes: Int32Array, writeRow: (locus: number, codes: Int32Array) => void): void {
    if (this.start >= 0 && i > this.start && this.product * G > this.limit) this.close(writeRow);
    if (this.start < 0) {
      this.start = i;
      this.product = 1;
    }
    const N = this.N;
    const combined = this.combined;
    if (i === this.start) combined.set(codes);
    else if (G > 1) for (let d = 0; d < N; d++) combined[d] = combined[d]! * G + codes[d]!;
    this.product *= G;
    this.end = i + 1;
    // A locus with one genotype has codes 0: its row stays zero without a write.
    if (G > 1) this.pending.push({ locus: i, codes });
    else this.free.push(codes);
  }

  /** Ends the open group. */
  close(writeRow: (locus: number, codes: Int32Array) => void): void {
    if (this.start < 0) return;
    const { N, start, end } = this;
    let byLocus = end - start === 1;
    if (!byLocus) {
      const at = this.rows % CHUNK_ROWS;
      if (at === 0) this.chunks.push(new Uint8Array(CHUNK_ROWS * N));
      this.chunks[this.chunks.length - 1]!.set(this.combined, at * N);
      this.rows++;
      const of = this.windows?.of;
      if (of) for (let i = start + 1; i < end && !byLocus; i++) byLocus = of[i] !== of[start];
    }
    for (const p of this.pending) {
      if (byLocus) writeRow(p.locus, p.codes);
      this.free.push(p.codes);
    }
    this.pending.length = 0;
    this.first.push(start);
    this.size.push(this.product);
    this.start = -1;
  }

  /** The groups of the loci added so far (all closed); `shared` puts the codes in a SharedArrayBuffer. */
  groups(shared: boolean): LocusGroups {
    const N = this.N;
    const first = Int32Array.from([...this.first, this.end]);
    const count = this.size.length;
    const row = new Int32Array(count).fill(-1);
    let r = 0;
    for (let q = 0; q < count; q++) if (first[q + 1]! - first[q]! > 1) row[q] = r++;
    const codes = shared ? new Uint8Array(new SharedArrayBuffer(this.rows * N)) : new Uint8Array(this.rows * N);
    this.chunks.forEach((chunk, c) => {
      const rows = Math.min(CHUNK_ROWS, this.rows - c * CHUNK_ROWS);
      codes.set(chunk.subarray(0, rows * N), c * CHUNK_ROWS * N);
    });
    this.chunks.length = 0;
    return {
      first,
      row,
      size: Int32Array.from(this.size),
      codes,
      maxCombined: this.size.reduce((m, x) => Math.max(m, x), 1),
    };
  }
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
