import { allocate } from '../../util/shared-memory.ts';

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

/** A locus of the open group whose row is written if the group is read locus by locus. */
interface PendingLocus {
  readonly locus: number;
  /** Its codes (the general path), or how to decode them into a buffer (packed calls). */
  readonly codes?: Int32Array;
  readonly decode?: (out: Int32Array) => void;
}

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
  /**
   * Room for the most rows the loci can need (a group of several loci has at least two, so at most
   * ⌊L / 2⌋), written in place: pages past the rows written are never touched, so they take no
   * memory (as locusCodes' unread rows), and no second copy of the codes is made at the end.
   * Where a runtime refuses so large a reservation, it starts smaller and doubles as rows come.
   */
  private codes: Uint8Array;
  private rows = 0;
  /** The open group: its first locus, Π G so far, and the loci with G > 1 (see PendingLocus). */
  private start = -1;
  private product = 1;
  private end = 0;
  private readonly pending: PendingLocus[] = [];
  /** The open group's combined codes, one byte per individual (padded to whole words), and as words. */
  private readonly combined: Uint8Array;
  private readonly words: Int32Array;
  private readonly free: Int32Array[] = [];

  constructor(
    private readonly N: number,
    L: number,
    private readonly windows: { readonly of: Int32Array } | undefined,
    private readonly shared: boolean,
    /** Rows reserved at first (tests make it small to exercise the growth). */
    reserveRows = Math.floor(L / 2),
  ) {
    const most = reserveRows * N;
    try {
      this.codes = allocate(Uint8Array, most, shared);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      this.codes = allocate(Uint8Array, Math.min(most, 1024 * N), shared);
    }
    this.limit = Math.min(MAX_COMBINED, Math.max(1, Math.floor(N / 8)));
    this.words = new Int32Array(Math.ceil(N / 4));
    this.combined = new Uint8Array(this.words.buffer);
  }

  /** A buffer of N codes for the next locus (handed back to {@link add}). */
  scratch(): Int32Array {
    return this.free.pop() ?? new Int32Array(this.N);
  }

  /** Opens a group at locus i where its G genotypes do not fit the open one; true when i starts the group. */
  private join(i: number, G: number, writeRow: (locus: number, codes: Int32Array) => void): boolean {
    if (this.start >= 0 && i > this.start && this.product * G > this.limit) this.close(writeRow);
    const first = this.start < 0;
    if (first) {
      this.start = i;
      this.product = 1;
    }
    this.product *= G;
    this.end = i + 1;
    return first;
  }

  /**
   * Locus i, the next one, with G genotypes and its codes in the last {@link scratch} buffer.
   * (A one-locus group's combined codes may wrap past a byte: they are never stored; a group of
   * several has Π G ≤ 256, so its codes fit.)
   */
  add(i: number, G: number, codes: Int32Array, writeRow: (locus: number, codes: Int32Array) => void): void {
    const N = this.N;
    const combined = this.combined;
    if (this.join(i, G, writeRow)) combined.set(codes.subarray(0, N));
    else if (G > 1) for (let d = 0; d < N; d++) combined[d] = combined[d]! * G + codes[d]!;
    // A locus with one genotype has codes 0: its row stays zero without a write.
    if (G > 1) this.pending.push({ locus: i, codes });
    else this.free.push(codes);
  }

  /**
   * Locus i of packed calls (packed-calls.ts) with G genotypes: `lut[b]` holds, byte t of the
   * word, the code of the t-th genotype of a packed byte b; the locus's bytes are
   * bytes[base .. base + ⌈N/4⌉). Four individuals are combined per step: x · G + g stays below 256
   * in each byte (Π G ≤ 256), so no byte carries into the next; padding bytes past individual N
   * may, but only upward, out of the word. `decode` writes the locus's codes when its row is needed.
   */
  addPacked(
    i: number,
    G: number,
    lut: Int32Array,
    bytes: Uint8Array,
    base: number,
    decode: (out: Int32Array) => void,
    writeRow: (locus: number, codes: Int32Array) => void,
  ): void {
    const words = this.words;
    const W = words.length;
    if (this.join(i, G, writeRow)) for (let j = 0; j < W; j++) words[j] = lut[bytes[base + j]!]!;
    else if (G > 1) for (let j = 0; j < W; j++) words[j] = Math.imul(words[j]!, G) + lut[bytes[base + j]!]!;
    if (G > 1) this.pending.push({ locus: i, decode });
  }

  /** Ends the open group. */
  close(writeRow: (locus: number, codes: Int32Array) => void): void {
    if (this.start < 0) return;
    const { N, start, end } = this;
    let byLocus = end - start === 1;
    if (!byLocus) {
      if ((this.rows + 1) * N > this.codes.length) {
        const wider = allocate(Uint8Array, Math.max(2 * this.codes.length, (this.rows + 1) * N), this.shared);
        wider.set(this.codes);
        this.codes = wider;
      }
      this.codes.set(this.combined.subarray(0, N), this.rows * N);
      this.rows++;
      const of = this.windows?.of;
      if (of) for (let i = start + 1; i < end && !byLocus; i++) byLocus = of[i] !== of[start];
    }
    for (const p of this.pending) {
      if (byLocus) {
        let codes = p.codes;
        if (!codes) p.decode!((codes = this.scratch()));
        writeRow(p.locus, codes);
        this.free.push(codes);
      } else if (p.codes) this.free.push(p.codes);
    }
    this.pending.length = 0;
    this.first.push(start);
    this.size.push(this.product);
    this.start = -1;
  }

  /**
   * The groups of the loci added so far (all closed). Shared codes are a view of the rows written
   * (posting it shares the buffer); others are copied to their length, since posting a view
   * would clone the whole buffer.
   */
  groups(): LocusGroups {
    const N = this.N;
    const first = Int32Array.from([...this.first, this.end]);
    const count = this.size.length;
    const row = new Int32Array(count).fill(-1);
    let r = 0;
    for (let q = 0; q < count; q++) if (first[q + 1]! - first[q]! > 1) row[q] = r++;
    const written = this.codes.subarray(0, this.rows * N);
    const codes = this.shared ? written : written.slice();
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
