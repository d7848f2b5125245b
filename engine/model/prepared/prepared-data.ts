import { groupSpansBlocks, locusGroups, subsetGroups, subsetRows, type LocusGroups } from './locus-groups.ts';
import { genomeWindows, type LocusBlocks } from './genome-windows.ts';
import { alleleOffsets, type AlleleCalls, type GenotypeData } from '../../data/genotype-data.ts';

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
   *   genotypeOf:      shape (L, N), index of individual d's genotype among locus i's genotypes
   *   genotypeOffsets: shape (L + 1,), locus i's genotypes are rows genotypeOffsets[i] ..
   *   genotypeAlleles: shape (Σ G_i, P), the copies of each genotype (sorted, MISSING = -1)
   */
  readonly genotypeOf: Uint8Array | Uint16Array | Int32Array;
  readonly genotypeOffsets: Int32Array;
  readonly genotypeAlleles: Int16Array;
  /** Consecutive loci with few genotypes taken together by the hot loops (locus-groups.ts). */
  readonly groups: LocusGroups;
  /** Windows of consecutive markers along the genome when every locus has a position (genome-windows.ts). */
  readonly windows?: LocusBlocks;
  /**
   * true in an individual subset (individualSubset): genotypeOf holds only the loci of one-locus
   * groups, the rows of loci in groups of several are zero (the E step, expected counts and
   * block deletion read those loci from groups.codes alone). Whatever reads every locus's codes
   * refuses such data (requireEveryLocus).
   */
  readonly groupedLociOmitted?: true;
}

/** Throws where `data` is an individual subset whose grouped loci's codes were not copied. */
export function requireEveryLocus(data: PreparedData, what: string): void {
  if (data.groupedLociOmitted)
    throw new Error(`${what} reads every locus's genotype codes; this subset holds only ungrouped loci`);
}

/** The most distinct genotypes at any locus (the size of per-locus genotype scratch). */
export function maxGenotypes(data: PreparedData): number {
  let m = 0;
  for (let i = 0; i < data.L; i++) m = Math.max(m, data.genotypeOffsets[i + 1]! - data.genotypeOffsets[i]!);
  return m;
}

/** Genotype keys looked up in a flat array (1 MB) rather than a Map. */
const DIRECT_KEYS = 1 << 18;

/** Whether this platform has shared memory (Node; browsers only when cross-origin isolated). */
export function sharedMemory(): boolean {
  return (
    typeof SharedArrayBuffer !== 'undefined' &&
    (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false
  );
}

type Codes = Uint8Array | Uint16Array | Int32Array;
/** A typed array's constructor. */
type ArrayType<T> = { new (length: number): T; new (buffer: ArrayBufferLike): T; readonly BYTES_PER_ELEMENT: number };

/** A typed array of `length` elements, in a SharedArrayBuffer when `shared`. */
function allocate<T extends Codes | AlleleCalls>(Type: ArrayType<T>, length: number, shared: boolean): T {
  return shared ? new Type(new SharedArrayBuffer(length * Type.BYTES_PER_ELEMENT)) : new Type(length);
}

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
 * Prepares a dataset for clustering: allele offsets and the distinct genotypes of each locus.
 * With `shared`, the genotype codes are built in a SharedArrayBuffer.
 */
export function buildPreparedData(data: GenotypeData, shared = false): PreparedData {
  const L = data.loci.length;
  const N = data.individuals.length;
  const P = data.ploidy;
  const offsets = alleleOffsets(data);
  const alleles = Int32Array.from({ length: L }, (_, i) => offsets[i + 1]! - offsets[i]!);
  // Genotype codes in the narrowest array that holds them, widened when a locus needs more
  // (no L × N Int32 buffer: for 2,000 × 100,000 SNPs it was 800 MB at the peak).
  let genotypeOf: Codes = allocate(Uint8Array, L * N, shared);
  let capacity = 0xff;
  const genotypeOffsets = new Int32Array(L + 1);
  const table: number[] = [];
  const copy = new Int16Array(P);
  const calls = data.calls;
  // A genotype's key is its sorted copies read as digits in base r + 1 (missing = 0): looked up
  // in a flat array when there are few possible keys (SNPs, most microsatellites), else in a Map.
  // Each locus is coded into `codes` by a loop that sees one array type, then copied over.
  let direct = new Int32Array(0);
  const touched = new Int32Array(2 * N);
  const codes = new Int32Array(N);
  for (let i = 0; i < L; i++) {
    const radix = alleles[i]! + 1;
    const keys = Math.pow(radix, P);
    const flat = keys <= DIRECT_KEYS;
    if (flat && direct.length < keys) direct = new Int32Array(keys).fill(-1);
    const { genotypes: count, keys: set } =
      flat && P === 2
        ? diploidCodes(calls, i * N * 2, N, radix, direct, touched, table, codes)
        : generalCodes(calls, i * N * P, N, P, radix, flat ? direct : undefined, touched, table, copy, codes);
    for (let k = 0; k < set; k++) direct[touched[k]!] = -1;
    while (count - 1 > capacity) {
      const wider = allocate<Codes>((capacity === 0xff ? Uint16Array : Int32Array) as ArrayType<Codes>, L * N, shared);
      wider.set(genotypeOf.subarray(0, i * N));
      genotypeOf = wider;
      capacity = capacity === 0xff ? 0xffff : 0x7fffffff;
    }
    genotypeOf.set(codes, i * N);
    genotypeOffsets[i + 1] = genotypeOffsets[i]! + count;
  }
  const windows = genomeWindows(data.loci);
  return {
    ...(windows ? { windows } : {}),
    groups: locusGroups(N, L, genotypeOf, genotypeOffsets, shared),
    N,
    L,
    P,
    alleles,
    offsets,
    totalAlleles: offsets[L]!,
    genotypeOf,
    genotypeOffsets,
    genotypeAlleles: Int16Array.from(table),
  };
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
  const exact = Math.pow(radix, P) <= Number.MAX_SAFE_INTEGER;
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

const sharedCallsCache = new WeakMap<GenotypeData, AlleleCalls>();

/**
 * The dataset's calls copied once into shared memory (cached per dataset), for posting to worker
 * threads without a copy each; undefined where the platform has no shared memory.
 */
export function sharedCalls(data: GenotypeData): AlleleCalls | undefined {
  if (!sharedMemory()) return undefined;
  if (data.calls.buffer instanceof SharedArrayBuffer) return data.calls;
  let calls = sharedCallsCache.get(data);
  if (!calls) {
    calls = allocate(data.calls.constructor as ArrayType<AlleleCalls>, data.calls.length, true);
    calls.set(data.calls);
    sharedCallsCache.set(data, calls);
  }
  return calls;
}

/**
 * The individuals `rows` of prepared data (in that order), sharing the allele and genotype
 * tables: for fitting on part of the individuals and scoring the rest (cross-validation). Only
 * the loci the hot loops read from genotypeOf are copied there: those of one-locus groups, and
 * of groups that span two of `blocks` (block deletion takes those locus by locus); the others
 * are read from the groups' combined codes (groupedLociOmitted). On SNP data, where loci are
 * grouped in fours, that copies about a fifth of the bytes (five folds of a 2,000 × 100,000 set
 * gathered 1.2 G codes) and leaves the rest of genotypeOf as untouched zero pages.
 */
export function individualSubset(md: PreparedData, rows: readonly number[], blocks?: LocusBlocks): PreparedData {
  const { L, N, groups } = md;
  const n = rows.length;
  const genotypeOf = new (md.genotypeOf.constructor as new (length: number) => PreparedData['genotypeOf'])(L * n);
  const take = Int32Array.from(rows);
  for (let q = 0; q + 1 < groups.first.length; q++) {
    if (groups.row[q]! >= 0 && !(blocks && groupSpansBlocks(groups, q, blocks.of))) continue;
    const i0 = groups.first[q]!;
    const i1 = groups.first[q + 1]!;
    subsetRows(md.genotypeOf.subarray(i0 * N, i1 * N), genotypeOf.subarray(i0 * n, i1 * n), take, i1 - i0, N);
  }
  return { ...md, N: n, genotypeOf, groups: subsetGroups(groups, N, rows), groupedLociOmitted: true };
}
