import { allocate, sharedMemory, type ArrayType } from '../../util/shared-memory.ts';
import {
  GroupBuilder,
  groupSpansBlocks,
  MAX_COMBINED,
  subsetGroups,
  subsetRows,
  type LocusGroups,
} from './locus-groups.ts';
import { genomeWindows, type LocusBlocks } from './genome-windows.ts';
import { CODE_COPIES, packedGenotypeData } from '../../data/packed-calls.ts';
import { alleleOffsets, type AlleleCalls, type GenotypeData, type PackedCalls } from '../../data/genotype-data.ts';

/**
 * What the clustering loops read: each individual's genotype at each locus as a code into the
 * locus's distinct genotypes (not the calls themselves), plus the per-locus allele offsets that
 * index the parameter arrays.
 *   alleles: shape (L,), r_i = number of alleles of locus i (at least 1)
 *   offsets: shape (L + 1,), offsets[i] = Σ_{i' < i} r_i'; a (locus, allele) pair is row offsets[i] + a
 */
export interface PreparedData {
  readonly N: number;
  readonly L: number;
  readonly P: number;
  readonly alleles: Int32Array;
  readonly offsets: Int32Array;
  /** Σ_i r_i. */
  readonly totalAlleles: number;
  /**
   * Distinct genotypes per locus, so the hot loops touch each individual once per locus rather
   * than once per copy (half the work for diploids):
   *   genotypeOffsets: shape (L + 1,), locus i's genotypes are rows genotypeOffsets[i] ..
   *   genotypeAlleles: shape (Σ G_i, P), the copies of each genotype (sorted, MISSING = -1)
   */
  readonly genotypeOffsets: Int32Array;
  readonly genotypeAlleles: Int16Array;
  /**
   * shape (L, N): individual d's genotype code at locus i for the loci the hot loops read one at
   * a time ({@link readByLocus}: one-locus groups, and the loci of a group that spans two genome
   * windows). The rows of the other loci are zero and never written, so they take no memory
   * (untouched pages): those loci live only in groups.codes, four SNPs to a byte, as compact as
   * PLINK's .bed. {@link everyLocus} decodes every row for what reads loci one by one.
   */
  readonly locusCodes: Codes;
  /** Consecutive loci with few genotypes taken together by the hot loops (locus-groups.ts). */
  readonly groups: LocusGroups;
  /** Windows of consecutive markers along the genome when every locus has a position (genome-windows.ts). */
  readonly windows?: LocusBlocks;
}

/** Prepared data with every locus's genotype codes: genotypeOf shape (L, N), as locusCodes for every row. */
export interface EveryLocusData extends PreparedData {
  readonly genotypeOf: Codes;
}

/** Whether group q's loci have their rows in locusCodes (a one-locus group, or one spanning two windows). */
export function readByLocus(md: Pick<PreparedData, 'groups' | 'windows'>, q: number): boolean {
  return md.groups.row[q]! < 0 || (md.windows !== undefined && groupSpansBlocks(md.groups, q, md.windows.of));
}

const everyLocusCache = new WeakMap<PreparedData, EveryLocusData>();

/**
 * The prepared data with every locus's codes (cached per prepared data): locusCodes itself where
 * no group of several loci is stored combined only, else a copy with those loci decoded from
 * groups.codes (in shared memory when locusCodes is). For loops that read every locus many times
 * (the admixture model's passes); a single pass over the loci decodes one at a time ({@link locusRow}).
 */
export function everyLocus(md: PreparedData): EveryLocusData {
  if ('genotypeOf' in md) return md as EveryLocusData;
  const known = everyLocusCache.get(md);
  if (known) return known;
  const { N, groups, genotypeOffsets } = md;
  const shared = sharedMemory() && md.locusCodes.buffer instanceof SharedArrayBuffer;
  let genotypeOf = md.locusCodes;
  let copied = false;
  const digits = new Uint8Array(MAX_COMBINED);
  for (let q = 0; q + 1 < groups.first.length; q++) {
    if (readByLocus(md, q)) continue;
    if (!copied) {
      genotypeOf = allocate(md.locusCodes.constructor as ArrayType<Codes>, md.locusCodes.length, shared);
      genotypeOf.set(md.locusCodes);
      copied = true;
    }
    const codes = groups.codes.subarray(groups.row[q]! * N, (groups.row[q]! + 1) * N);
    let stride = groups.size[q]!;
    for (let i = groups.first[q]!; i < groups.first[q + 1]!; i++) {
      const G = genotypeOffsets[i + 1]! - genotypeOffsets[i]!;
      stride /= G;
      // Locus i's digit of each combined code c = Σ_j g_j · Π_{j' > j} G_j', looked up per code.
      for (let c = 0; c < groups.size[q]!; c++) digits[c] = Math.floor(c / stride) % G;
      const out = genotypeOf.subarray(i * N, (i + 1) * N);
      for (let d = 0; d < N; d++) out[d] = digits[codes[d]!]!;
    }
  }
  const full = { ...md, genotypeOf };
  everyLocusCache.set(md, full);
  return full;
}

/**
 * How many individuals have each genotype: shape (Σ G_i,), indexed as genotypeAlleles' rows.
 * A group stored combined is counted once per combined code (a histogram of at most 256 bins
 * over N codes for its loci together), then each locus's counts are summed from it.
 */
export function genotypeCounts(md: PreparedData): Int32Array {
  const { N, groups, genotypeOffsets } = md;
  const counts = new Int32Array(genotypeOffsets[md.L]!);
  const hist = new Int32Array(MAX_COMBINED);
  for (let q = 0; q + 1 < groups.first.length; q++) {
    const i0 = groups.first[q]!;
    const i1 = groups.first[q + 1]!;
    if (groups.row[q]! < 0) {
      const g0 = genotypeOffsets[i0]!;
      const codes = md.locusCodes;
      for (let d = 0, at = i0 * N; d < N; d++) counts[g0 + codes[at + d]!]!++;
      continue;
    }
    const size = groups.size[q]!;
    hist.fill(0, 0, size);
    const codes = groups.codes.subarray(groups.row[q]! * N, (groups.row[q]! + 1) * N);
    for (let d = 0; d < N; d++) hist[codes[d]!]!++;
    let stride = size;
    for (let i = i0; i < i1; i++) {
      const g0 = genotypeOffsets[i]!;
      const G = genotypeOffsets[i + 1]! - g0;
      stride /= G;
      for (let c = 0; c < size; c++) counts[g0 + (Math.floor(c / stride) % G)]! += hist[c]!;
    }
  }
  return counts;
}

/**
 * Locus i's codes of every individual (shape (N,)): its row of locusCodes where stored, else
 * decoded from its group's combined codes into `scratch` (length N). For loops that visit each
 * locus once and would not keep every row ({@link everyLocus} holds them all: N·L more bytes).
 */
export function locusRow(md: PreparedData, i: number, scratch: Int32Array): ArrayLike<number> {
  const { N, groups, genotypeOffsets } = md;
  const q = groupOf(groups, i);
  if (readByLocus(md, q)) return md.locusCodes.subarray(i * N, (i + 1) * N);
  let stride = 1;
  for (let j = groups.first[q + 1]! - 1; j > i; j--) stride *= genotypeOffsets[j + 1]! - genotypeOffsets[j]!;
  const G = genotypeOffsets[i + 1]! - genotypeOffsets[i]!;
  const digits = new Uint8Array(groups.size[q]!);
  for (let c = 0; c < digits.length; c++) digits[c] = Math.floor(c / stride) % G;
  const codes = groups.codes.subarray(groups.row[q]! * N, (groups.row[q]! + 1) * N);
  for (let d = 0; d < N; d++) scratch[d] = digits[codes[d]!]!;
  return scratch;
}

/** Individual d's genotype code at locus i (from locusCodes or its group's combined code). */
export function genotypeCode(md: PreparedData, i: number, d: number): number {
  const { N, groups, genotypeOffsets } = md;
  const q = groupOf(groups, i);
  if (readByLocus(md, q)) return md.locusCodes[i * N + d]!;
  let stride = 1;
  for (let j = groups.first[q + 1]! - 1; j > i; j--) stride *= genotypeOffsets[j + 1]! - genotypeOffsets[j]!;
  const G = genotypeOffsets[i + 1]! - genotypeOffsets[i]!;
  return Math.floor(groups.codes[groups.row[q]! * N + d]! / stride) % G;
}

/** The group that holds locus i (binary search over groups.first). */
export function groupOf(groups: LocusGroups, i: number): number {
  let lo = 0;
  let hi = groups.first.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (groups.first[mid]! <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The most distinct genotypes at any locus (the size of per-locus genotype scratch). */
export function maxGenotypes(data: PreparedData): number {
  let m = 0;
  for (let i = 0; i < data.L; i++) m = Math.max(m, data.genotypeOffsets[i + 1]! - data.genotypeOffsets[i]!);
  return m;
}

/** Genotype keys looked up in a flat array (1 MB) rather than a Map. */
const DIRECT_KEYS = 1 << 18;

export { sharedMemory } from '../../util/shared-memory.ts';

type Codes = Uint8Array | Uint16Array | Int32Array;

const preparedCache = new WeakMap<GenotypeData, PreparedData>();

/**
 * The dataset prepared for clustering once (cached per dataset), its genotype codes in shared
 * memory where the platform has it, so that every worker thread reads the same copy
 * (engine/runtime/pool.ts posts it with {@link sharedCalls}).
 */
export function preparedData(data: GenotypeData): PreparedData {
  let md = preparedCache.get(data);
  if (!md) {
    md = buildPreparedData(data, sharedMemory());
    preparedCache.set(data, md);
  }
  return md;
}

/**
 * Prepares a dataset for clustering: allele offsets, the distinct genotypes of each locus, and
 * the loci grouped as they are coded (locus-groups.ts), so a group's loci go straight into its
 * combined codes and only the loci read one at a time get a row of locusCodes. With `shared`, the
 * codes are built in SharedArrayBuffers.
 */
export function buildPreparedData(data: GenotypeData, shared = false): PreparedData {
  const L = data.loci.length;
  const N = data.individuals.length;
  const P = data.ploidy;
  const offsets = alleleOffsets(data);
  const alleles = Int32Array.from({ length: L }, (_, i) => offsets[i + 1]! - offsets[i]!);
  const windows = genomeWindows(data.loci);
  // Genotype codes in the narrowest array that holds them, widened when a locus needs more
  // (no L × N Int32 buffer: for 2,000 × 100,000 SNPs it was 800 MB at the peak).
  let locusCodes: Codes = allocate(Uint8Array, L * N, shared);
  let capacity = 0xff;
  const genotypeOffsets = new Int32Array(L + 1);
  const table: number[] = [];
  const copy = new Int16Array(P);
  const packed = data.packed;
  // Packed data are coded from their two-bit codes (packedLocus): the calls are never unpacked.
  const calls = packed ? new Int8Array(0) : data.calls;
  const grouping = new GroupBuilder(N, L, windows, shared);
  const packedLocus = packed ? new PackedLocusCoder(packed, N) : undefined;
  // A genotype's key is its sorted copies read as digits in base r + 1 (missing = 0): looked up
  // in a flat array when there are few possible keys (SNPs, most microsatellites), else in a Map.
  // Each locus is coded into `codes` by a loop that sees one array type.
  let direct = new Int32Array(0);
  const touched = new Int32Array(2 * N);
  const writeRow = (i: number, codes: Int32Array) => locusCodes.set(codes, i * N);
  for (let i = 0; i < L; i++) {
    if (packedLocus) {
      const count = packedLocus.code(i, table);
      packedLocus.add(grouping, i, count, writeRow);
      genotypeOffsets[i + 1] = genotypeOffsets[i]! + count;
      continue;
    }
    const radix = alleles[i]! + 1;
    const keys = radix ** P;
    const flat = keys <= DIRECT_KEYS;
    if (flat && direct.length < keys) direct = new Int32Array(keys).fill(-1);
    const codes = grouping.scratch();
    const { genotypes: count, keys: set } =
      flat && P === 2
        ? diploidCodes(calls, i * N * 2, N, radix, direct, touched, table, codes)
        : generalCodes(calls, i * N * P, N, P, radix, flat ? direct : undefined, touched, table, copy, codes);
    for (let k = 0; k < set; k++) direct[touched[k]!] = -1;
    while (count - 1 > capacity) {
      const wider = allocate<Codes>((capacity === 0xff ? Uint16Array : Int32Array) as ArrayType<Codes>, L * N, shared);
      wider.set(locusCodes.subarray(0, i * N));
      locusCodes = wider;
      capacity = capacity === 0xff ? 0xffff : 0x7fffffff;
    }
    grouping.add(i, count, codes, writeRow);
    genotypeOffsets[i + 1] = genotypeOffsets[i]! + count;
  }
  grouping.close(writeRow);
  return {
    ...(windows ? { windows } : {}),
    groups: grouping.groups(),
    N,
    L,
    P,
    alleles,
    offsets,
    totalAlleles: offsets[L]!,
    locusCodes,
    genotypeOffsets,
    genotypeAlleles: Int16Array.from(table),
  };
}

/** Which of the four two-bit values occur in each byte (bit v set for value v). */
const BYTE_VALUES = Uint8Array.from({ length: 256 }, (_, b) => {
  let mask = 0;
  for (let t = 0; t < 4; t++) mask |= 1 << ((b >> (2 * t)) & 3);
  return mask;
});

/**
 * Codes loci of packed calls: genotypes numbered in order of first appearance, as
 * {@link diploidCodes} numbers the same calls unpacked (so both give the same preparation), and
 * the per-byte tables GroupBuilder.addPacked combines with (cached per numbering: loci share few).
 */
class PackedLocusCoder {
  /** The last locus's genotype per two-bit value (−1: absent). */
  private readonly codeOf = new Int32Array(4);
  private readonly luts = new Map<number, Int32Array>();

  constructor(
    private readonly packed: PackedCalls,
    private readonly N: number,
  ) {}

  /** Numbers locus l's genotypes, appending each new one's copies to `table`; returns their count. */
  code(l: number, table: number[]): number {
    const { bytes, bytesPerLocus } = this.packed;
    const N = this.N;
    const codeOf = this.codeOf.fill(-1);
    const base = l * bytesPerLocus;
    const whole = N >> 2;
    let seen = 0;
    let count = 0;
    const visit = (b: number, slots: number) => {
      for (let t = 0; t < slots; t++) {
        const v = (b >> (2 * t)) & 3;
        if (codeOf[v]! >= 0) continue;
        codeOf[v] = count++;
        seen |= 1 << v;
        table.push(...CODE_COPIES[v]!);
      }
    };
    // Whole bytes are skipped while they hold no new value; the last byte's padding is not read.
    for (let j = 0; j < whole && seen !== 15; j++) {
      const b = bytes[base + j]!;
      if ((BYTE_VALUES[b]! & ~seen) !== 0) visit(b, 4);
    }
    if (N & 3 && seen !== 15) visit(bytes[base + whole]!, N & 3);
    return count;
  }

  /** The per-byte table of the last locus coded: byte t of lut[b] = the code of b's t-th genotype. */
  private lut(): Int32Array {
    const c = this.codeOf;
    const key = ((c[0]! + 1) << 12) | ((c[1]! + 1) << 8) | ((c[2]! + 1) << 4) | (c[3]! + 1);
    let lut = this.luts.get(key);
    if (!lut) {
      // Absent values (only in padding) get 0: padding is never stored.
      const g = Array.from(c, (x) => Math.max(0, x));
      lut = Int32Array.from({ length: 256 }, (_, b) => {
        let w = 0;
        for (let t = 0; t < 4; t++) w |= g[(b >> (2 * t)) & 3]! << (8 * t);
        return w;
      });
      this.luts.set(key, lut);
    }
    return lut;
  }

  /** Adds locus l, the last one coded, with its `count` genotypes to `grouping`. */
  add(grouping: GroupBuilder, l: number, count: number, writeRow: (locus: number, codes: Int32Array) => void): void {
    const { bytes, bytesPerLocus } = this.packed;
    grouping.addPacked(l, count, this.lut(), bytes, l * bytesPerLocus, this.decoder(l), writeRow);
  }

  /** Writes locus l's codes (under the numbering of the last locus coded, which must be l). */
  private decoder(l: number): (out: Int32Array) => void {
    const codeOf = Int32Array.from(this.codeOf);
    const { bytes, bytesPerLocus } = this.packed;
    const N = this.N;
    return (out) => {
      for (let d = 0; d < N; d++) out[d] = codeOf[(bytes[l * bytesPerLocus + (d >> 2)]! >> (2 * (d & 3))) & 3]!;
    };
  }
}

/**
 * Locus codes of diploids with few possible keys (SNPs, most microsatellites): the key of the
 * copies as read, (a + 1) · radix + b + 1, looked up in `direct`, where a new genotype enters under
 * both orders of its copies (no sort per individual: its branches cost more than the lookup).
 * New genotypes get the next code, their keys go to `touched` (to clear `direct` after) and their
 * sorted copies to `table`. Writes individual d's code to out[d]; returns the number of keys set.
 */
function diploidCodes(
  calls: AlleleCalls,
  base: number,
  N: number,
  radix: number,
  direct: Int32Array,
  touched: Int32Array,
  table: number[],
  out: Int32Array,
): { genotypes: number; keys: number } {
  let count = 0;
  let keys = 0;
  for (let d = 0; d < N; d++) {
    const a = calls[base + 2 * d]!;
    const b = calls[base + 2 * d + 1]!;
    let g = direct[(a + 1) * radix + b + 1]!;
    if (g < 0) {
      const lo = a < b ? a : b;
      const hi = a < b ? b : a;
      g = count++;
      touched[keys++] = (lo + 1) * radix + hi + 1;
      direct[(lo + 1) * radix + hi + 1] = g;
      if (lo !== hi) {
        touched[keys++] = (hi + 1) * radix + lo + 1;
        direct[(hi + 1) * radix + lo + 1] = g;
      }
      table.push(lo, hi);
    }
    out[d] = g;
  }
  return { genotypes: count, keys };
}

/**
 * Locus codes at any ploidy: the copies sorted, their key their digits in base radix (missing =
 * 0), looked up in `direct` when given, else in a Map (of numbers, or of text beyond 2^53 where
 * numbers are not exact). As {@link diploidCodes} otherwise.
 */
function generalCodes(
  calls: AlleleCalls,
  base: number,
  N: number,
  P: number,
  radix: number,
  direct: Int32Array | undefined,
  touched: Int32Array,
  table: number[],
  copy: Int16Array,
  out: Int32Array,
): { genotypes: number; keys: number } {
  const exact = radix ** P <= Number.MAX_SAFE_INTEGER;
  const seen = direct ? undefined : new Map<number | string, number>();
  let count = 0;
  for (let d = 0; d < N; d++) {
    const at = base + d * P;
    for (let p = 0; p < P; p++) {
      // Insertion sort: P ≤ 8 copies.
      const a = calls[at + p]!;
      let q = p;
      while (q > 0 && copy[q - 1]! > a) {
        copy[q] = copy[q - 1]!;
        q--;
      }
      copy[q] = a;
    }
    let key = 0;
    for (let p = 0; p < P; p++) key = key * radix + (copy[p]! + 1);
    const mapKey = exact ? key : copy.join(',');
    let g = direct ? direct[key]! : (seen!.get(mapKey) ?? -1);
    if (g < 0) {
      g = count++;
      if (direct) {
        direct[key] = g;
        touched[g] = key;
      } else seen!.set(mapKey, g);
      for (let p = 0; p < P; p++) table.push(copy[p]!);
    }
    out[d] = g;
  }
  return { genotypes: count, keys: direct ? count : 0 };
}

const postedCache = new WeakMap<GenotypeData, PostedDataset>();

/** A dataset as posted to a worker: packed data without their unpacked calls. */
export type PostedDataset = Omit<GenotypeData, 'calls'> & { readonly calls?: AlleleCalls };

/**
 * The dataset to post to worker threads (cached per dataset): its calls, or its packed calls
 * (never unpacked for this), copied once into shared memory where the platform has it, so that
 * every worker reads the same copy; a plain copy each elsewhere. {@link receivedDataset} undoes it.
 */
export function postedDataset(data: GenotypeData): PostedDataset {
  let posted = postedCache.get(data);
  if (posted) return posted;
  const { individuals, loci, ploidy, phased, source, packed } = data;
  const fields = { individuals, loci, ploidy, phased, ...(source ? { source } : {}) };
  const toShared = <T extends AlleleCalls | Uint8Array>(a: T): T => {
    if (!sharedMemory() || a.buffer instanceof SharedArrayBuffer) return a;
    const copy = allocate(a.constructor as ArrayType<T>, a.length, true);
    copy.set(a);
    return copy;
  };
  posted = packed
    ? { ...fields, packed: { bytes: toShared(packed.bytes), bytesPerLocus: packed.bytesPerLocus } }
    : { ...fields, calls: toShared(data.calls) };
  postedCache.set(data, posted);
  return posted;
}

/** The dataset a worker was posted ({@link postedDataset}). */
export function receivedDataset(posted: PostedDataset): GenotypeData {
  if (posted.calls) return { ...posted, calls: posted.calls };
  if (!posted.packed) throw new Error('A posted dataset has neither calls nor packed calls');
  return packedGenotypeData(posted, posted.packed);
}

/**
 * The individuals `rows` of prepared data (in that order), sharing the allele and genotype
 * tables: for fitting on part of the individuals and scoring the rest (cross-validation). The
 * rows of locusCodes that are stored ({@link readByLocus}) and the groups' combined codes are
 * taken over; the other rows stay untouched zero pages, as in the whole data.
 */
export function individualSubset(md: PreparedData, rows: readonly number[]): PreparedData {
  const { L, N, groups } = md;
  const n = rows.length;
  const locusCodes = new (md.locusCodes.constructor as new (length: number) => Codes)(L * n);
  const take = Int32Array.from(rows);
  for (let q = 0; q + 1 < groups.first.length; q++) {
    if (!readByLocus(md, q)) continue;
    const i0 = groups.first[q]!;
    const i1 = groups.first[q + 1]!;
    subsetRows(md.locusCodes.subarray(i0 * N, i1 * N), locusCodes.subarray(i0 * n, i1 * n), take, i1 - i0, N);
  }
  return {
    L,
    P: md.P,
    alleles: md.alleles,
    offsets: md.offsets,
    totalAlleles: md.totalAlleles,
    genotypeOffsets: md.genotypeOffsets,
    genotypeAlleles: md.genotypeAlleles,
    ...(md.windows ? { windows: md.windows } : {}),
    N: n,
    locusCodes,
    groups: subsetGroups(groups, N, rows),
  };
}

/**
 * The loci `loci` of prepared data (in that order), each read one at a time (a one-locus group with
 * its row of locusCodes, decoded once here): for fitting on part of the markers first (the admixture
 * model's subset stage). Genotype tables and allele offsets are those loci's; no genome windows.
 */
export function locusSubset(md: PreparedData, loci: readonly number[]): PreparedData {
  const { N, P } = md;
  const L = loci.length;
  const alleles = new Int32Array(L);
  const offsets = new Int32Array(L + 1);
  const genotypeOffsets = new Int32Array(L + 1);
  loci.forEach((l, j) => {
    alleles[j] = md.alleles[l]!;
    offsets[j + 1] = offsets[j]! + alleles[j]!;
    genotypeOffsets[j + 1] = genotypeOffsets[j]! + md.genotypeOffsets[l + 1]! - md.genotypeOffsets[l]!;
  });
  const genotypeAlleles = new Int16Array(genotypeOffsets[L]! * P);
  const locusCodes = new (md.locusCodes.constructor as new (length: number) => Codes)(L * N);
  const scratch = new Int32Array(N);
  let maxCombined = 1;
  const size = new Int32Array(L);
  loci.forEach((l, j) => {
    const g0 = md.genotypeOffsets[l]!;
    const g1 = md.genotypeOffsets[l + 1]!;
    genotypeAlleles.set(md.genotypeAlleles.subarray(g0 * P, g1 * P), genotypeOffsets[j]! * P);
    locusCodes.set(locusRow(md, l, scratch), j * N);
    size[j] = g1 - g0;
    maxCombined = Math.max(maxCombined, g1 - g0);
  });
  return {
    N,
    L,
    P,
    alleles,
    offsets,
    totalAlleles: offsets[L]!,
    genotypeOffsets,
    genotypeAlleles,
    locusCodes,
    groups: {
      first: Int32Array.from({ length: L + 1 }, (_, j) => j),
      row: new Int32Array(L).fill(-1),
      size,
      codes: new Uint8Array(0),
      maxCombined,
    },
  };
}
