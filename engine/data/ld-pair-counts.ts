import { compileBase64, WASM_MAX_PAGES, WASM_PAGE } from '../util/wasm-module.ts';
import { LD_PAIRS_WASM } from './generated/ld-pairs-wasm.ts';
import type { PackedCalls } from './genotype-data.ts';

/** 32-bit words a bit plane of N individuals takes: whole 128-bit steps of the kernel. */
export const planeWords = (N: number): number => 4 * Math.ceil(N / 128);

/**
 * Diploid loci as bit planes (called, homozygous, homozygous for the major allele; planeWords(N)
 * 32-bit words a plane; `put` takes individual i at bit i mod 32 of word ⌊i / 32⌋, `putPacked`
 * orders the individuals as the kernel reads the codes, the same for every locus) held in slots,
 * and the popcounts r² needs for a pair of them:
 * |Ca∧Cb|, |Ha∧Cb|, |Hb∧Ca|, |Pa∧Cb|, |Pb∧Ca|, |Ha∧Hb|, |Ha∧Hb∧(Pa⊕Pb)|. In WebAssembly memory
 * where it can be had (scripts/kernels/assembly/ld-pairs.ts), else in JavaScript: the same integers.
 */
export interface PairCounter {
  /** Whether put copies the planes (WebAssembly memory) rather than holding the array given. */
  readonly copies: boolean;
  /** Stores a locus's planes (3 · planeWords(N) 32-bit words); returns its slot. */
  put(planes: Uint32Array): number;
  /**
   * Where the counter has it: stores locus l straight from a PLINK .bed's two-bit codes (the
   * major allele being allele 1 when it has more copies) and returns its slot; `packedCounts` then
   * holds its called individuals and the homozygotes of allele 0 and of allele 1.
   */
  putPacked?(packed: PackedCalls, l: number): number;
  readonly packedCounts?: Int32Array;
  /** Frees a slot for the next locus. */
  free(slot: number): void;
  /** The seven counts of the loci in slots a and b (valid until the next call). */
  counts(a: number, b: number): Int32Array;
  /** Whether r² of the loci in slots a and b exceeds `r2` (exceedsCounts of their counts). */
  linked(a: number, b: number, r2: number): boolean;
}

/** exceedsSums from the pair counter's seven counts of two diploid loci (x ∈ {−1, 0, 1}). */
export function exceedsCounts(c: Int32Array, r2: number): boolean {
  const qa = c[1]!;
  const qb = c[2]!;
  return exceedsSums(c[0]!, 2 * c[3]! - qa, 2 * c[4]! - qb, qa, qb, c[5]! - 2 * c[6]!, r2);
}

/** PLINK's test in integers: (n·Σxy − ΣxΣy)² > r2 · (n·Σx² − (Σx)²)(n·Σy² − (Σy)²). */
export function exceedsSums(
  n: number,
  sa: number,
  sb: number,
  qa: number,
  qb: number,
  dot: number,
  r2: number,
): boolean {
  const cov = dot * n - sa * sb;
  const va = qa * n - sa * sa;
  const vb = qb * n - sb * sb;
  return cov * cov > r2 * va * vb;
}

let compiled: WebAssembly.Module | null | undefined;

/** Set bits of a 32-bit word. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** The seven counts in JavaScript, 32 individuals a word. */
export function jsPairCounts(pa: Uint32Array, pb: Uint32Array, out: Int32Array): Int32Array {
  const W = pa.length / 3;
  out.fill(0);
  for (let w = 0; w < W; w++) {
    const ca = pa[w]!;
    const cb = pb[w]!;
    const ha = pa[W + w]!;
    const hb = pb[W + w]!;
    const hh = ha & hb;
    out[0]! += popcount(ca & cb);
    out[1]! += popcount(ha & cb);
    out[2]! += popcount(hb & ca);
    out[3]! += popcount(pa[2 * W + w]! & cb);
    out[4]! += popcount(pb[2 * W + w]! & ca);
    out[5]! += popcount(hh);
    out[6]! += popcount(hh & (pa[2 * W + w]! ^ pb[2 * W + w]!));
  }
  return out;
}

/**
 * The valid bits of the last 128 genotypes' planes as the kernel orders them from PLINK's codes
 * (of 32 bytes of codes, the first 16 bytes' genotypes at the even bits, the next 16's at the odd).
 */
function lastPlaneMask(N: number): Uint8Array {
  const first = 128 * (Math.ceil(N / 128) - 1);
  const mask = new Uint8Array(16);
  for (let p = 0; p < 128; p++) {
    const genotype = first + (p & 1 ? 64 : 0) + 4 * (p >>> 3) + ((p & 7) >>> 1);
    if (genotype < N) mask[p >>> 3]! |= 1 << (p & 7);
  }
  return mask;
}

/** Slots numbered from 0, reused once freed. */
class Slots {
  private readonly freed: number[] = [];
  private next = 0;
  take(): number {
    return this.freed.pop() ?? this.next++;
  }
  free(slot: number): void {
    this.freed.push(slot);
  }
}

/** A pair counter for N individuals (useWasm false: the JavaScript form, for tests). */
export function pairCounter(N: number, useWasm = true): PairCounter {
  const words = planeWords(N);
  const slotWords = 3 * words;
  const slots = new Slots();
  if (useWasm && compiled === undefined) compiled = compileBase64(LD_PAIRS_WASM);
  if (!useWasm || !compiled) {
    const held: Uint32Array[] = [];
    const out = new Int32Array(7);
    return {
      copies: false,
      put(planes) {
        const slot = slots.take();
        held[slot] = planes;
        return slot;
      },
      free: (slot) => slots.free(slot),
      counts: (a, b) => jsPairCounts(held[a]!, held[b]!, out),
      linked: (a, b, r2) => exceedsCounts(jsPairCounts(held[a]!, held[b]!, out), r2),
    };
  }
  // 64 bytes for the counts and the last planes' valid bits; a stage of consecutive loci's .bed
  // bytes (about a megabyte, read 32 bytes at a time past its end); then the slots: a header of 16
  // bytes, the planes, and room to list a locus's uncalled individuals, one per 128 individuals.
  // A pair of listed loci needs two popcounts of its planes instead of seven; beyond one in 128
  // the lists cost more than the popcounts they save (docs/notes/ld-prune.md).
  const per = Math.ceil(N / 4);
  const stageLoci = Math.max(1, Math.floor(2 ** 20 / per));
  const maskAt = 48;
  const stageAt = 64;
  const slotsAt = stageAt + 64 * Math.ceil((stageLoci * per + 32) / 64);
  const listed = Math.ceil(N / 128);
  const slotBytes = 16 * Math.ceil((16 + 4 * slotWords + 4 * listed) / 16);
  // The module declares a maximum (as every kernel compiled from AssemblyScript does); it may grow to it.
  const memory = new WebAssembly.Memory({
    initial: Math.ceil((slotsAt + slotBytes) / WASM_PAGE),
    maximum: WASM_MAX_PAGES,
  });
  const kernel = new WebAssembly.Instance(compiled, { env: { memory } }).exports as unknown as {
    pair(a: number, b: number, bytes: number, n: number, out: number): void;
    linked(a: number, b: number, bytes: number, n: number, r2: number, out: number): number;
    packedPlanes(src: number, n: number, dst: number, bytes: number, cap: number, mask: number, out: number): void;
  };
  new Uint8Array(memory.buffer, maskAt, 16).set(lastPlaneMask(N));
  const at = (slot: number) => slotsAt + slot * slotBytes;
  // Views of the memory, made again when it grows (its buffer is then a new one).
  let bytes8 = new Uint8Array(memory.buffer);
  let words32 = new Uint32Array(memory.buffer);
  let out = new Int32Array(memory.buffer, 0, 7);
  let packedCounts = new Int32Array(memory.buffer, 32, 3);
  const take = (): number => {
    const slot = slots.take();
    const need = at(slot + 1) - memory.buffer.byteLength;
    if (need > 0) {
      memory.grow(Math.max(Math.ceil(need / WASM_PAGE), memory.buffer.byteLength / WASM_PAGE));
      bytes8 = new Uint8Array(memory.buffer);
      words32 = new Uint32Array(memory.buffer);
      out = new Int32Array(memory.buffer, 0, 7);
      packedCounts = new Int32Array(memory.buffer, 32, 3);
    }
    return slot;
  };
  // The staged loci [stagedFrom, stagedTo) of the dataset last staged.
  let staged: PackedCalls | undefined;
  let stagedFrom = 0;
  let stagedTo = 0;
  return {
    copies: true,
    put(planes) {
      const slot = take();
      words32.set(planes, (at(slot) + 16) / 4);
      // No list of uncalled individuals: the pair's counts come from the planes.
      words32[at(slot) / 4 + 3] = -1 >>> 0;
      return slot;
    },
    putPacked(packed, l) {
      if (packed.bytesPerLocus !== per)
        throw new RangeError(`pair counter for ${N} individuals given ${packed.bytesPerLocus} bytes a locus`);
      const slot = take();
      if (packed !== staged || l < stagedFrom || l >= stagedTo) {
        staged = packed;
        stagedFrom = l;
        stagedTo = Math.min(packed.bytes.length / per, l + stageLoci);
        bytes8.set(packed.bytes.subarray(l * per, stagedTo * per), stageAt);
      }
      kernel.packedPlanes(stageAt + (l - stagedFrom) * per, N, at(slot), 4 * words, listed, maskAt, 32);
      return slot;
    },
    get packedCounts() {
      return packedCounts;
    },
    free: (slot) => slots.free(slot),
    counts(a, b) {
      kernel.pair(at(a), at(b), 4 * words, N, 0);
      return out;
    },
    linked: (a, b, r2) => kernel.linked(at(a), at(b), 4 * words, N, r2, 0) === 1,
  };
}
