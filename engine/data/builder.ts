import { AlleleTable, sortedAlleleOrder } from './allele-table.ts';
import { GrowableCalls } from './growable-calls.ts';
import { packedGenotypeData, unpackLocus } from './packed-calls.ts';
import { allocate, sharedMemory } from '../util/shared-memory.ts';
import {
  allocateCalls,
  MISSING,
  type DatasetSource,
  type GenotypeData,
  type Individual,
  type Locus,
} from './genotype-data.ts';

/** Locus metadata without the allele table (the builder owns the alleles). */
export interface LocusInfo {
  readonly name: string;
  readonly chrom?: string;
  readonly pos?: number;
}

/**
 * Builds a dataset from files written one individual per record (STRUCTURE, GENEPOP,
 * PLINK .ped, genotype tables). Codes are kept individual-major while reading and transposed
 * to the locus-major layout once at the end. Allele tables are sorted (numerically where
 * possible) so that the same data read from two formats gives identical indices.
 */
export class IndividualMajorBuilder {
  readonly tables: AlleleTable[];
  private readonly rows = new GrowableCalls();
  readonly individuals: Individual[] = [];

  constructor(
    readonly loci: readonly LocusInfo[],
    readonly ploidy: number,
  ) {
    this.tables = loci.map(() => new AlleleTable());
  }

  /** Starts an individual's row; returns the offset of its (locus, copy) codes. */
  addIndividual(ind: Individual): number {
    this.individuals.push(ind);
    const at = this.rows.reserve(this.loci.length * this.ploidy);
    return at;
  }

  /** Sets copy p of locus l for the row starting at `row` to the named allele (undefined = missing). */
  setAllele(row: number, l: number, p: number, allele: string | undefined): void {
    this.rows.set(row + l * this.ploidy + p, allele === undefined ? MISSING : this.tables[l]!.code(allele));
  }

  /**
   * @param sortAlleles sort each locus's alleles (numerically where possible) so that the same
   *   data read from two formats gets the same indices; formats with a meaningful allele order
   *   (PLINK's A1/A2) keep the order in which alleles were met.
   */
  finish(source: DatasetSource, sortAlleles = true): GenotypeData {
    const N = this.individuals.length;
    const L = this.loci.length;
    const P = this.ploidy;
    let maxA = 0;
    for (const t of this.tables) maxA = Math.max(maxA, t.size);
    const calls = allocateCalls(N * L * P, maxA);
    const loci: Locus[] = [];
    for (let l = 0; l < L; l++) {
      const table = this.tables[l]!;
      const { order, remap } = sortAlleles ? sortedAlleleOrder(table.names) : identity(table.size);
      loci.push({ ...this.loci[l]!, alleles: order.map((o) => table.names[o]!) });
      for (let i = 0; i < N; i++) {
        const src = i * L * P + l * P;
        const dst = (l * N + i) * P;
        for (let p = 0; p < P; p++) {
          const c = this.rows.get(src + p);
          calls[dst + p] = c === MISSING ? MISSING : remap[c]!;
        }
      }
    }
    return { ploidy: P, individuals: this.individuals, loci, calls, phased: false, source };
  }
}

function identity(n: number): { order: number[]; remap: Int32Array } {
  const order = Array.from({ length: n }, (_, i) => i);
  return { order, remap: Int32Array.from(order) };
}

/**
 * Builds a dataset from files written one locus per record (VCF), appending each locus's block
 * of N × ploidy codes in the final layout: call (locus l, individual i, copy p) at offset
 * (l · N + i) · ploidy + p.
 *
 * With `pack`, diploid calls are held two bits a genotype, as PLINK's .bed holds them
 * (packed-calls.ts: a quarter of a byte where unpacked calls take two bytes), for as long as the
 * data allow: every site with at most two alleles, both copies called or both missing, and no
 * phased heterozygote written 1|0 (its order would be lost). The first call or site that does
 * not fit unpacks what was read and the rest is read unpacked, so any file reads as before; a
 * file whose calls are all phased is unpacked at the end (its copies are haplotypes).
 */
export class LocusMajorBuilder {
  private calls: GrowableCalls | undefined;
  private packed: GrowableBytes | undefined;
  readonly loci: Locus[] = [];
  private readonly bytesPerLocus: number;

  constructor(
    readonly individuals: readonly Individual[],
    readonly ploidy: number,
    expectedLoci = 1024,
    pack = false,
  ) {
    const N = individuals.length;
    this.bytesPerLocus = Math.ceil(N / 4);
    if (pack && ploidy === 2 && N > 0)
      this.packed = new GrowableBytes(Math.max(1, this.bytesPerLocus * expectedLoci), sharedMemory());
    else this.calls = new GrowableCalls(Math.max(1, N * ploidy * expectedLoci));
  }

  /** Appends a locus; returns the offset of its block, to be filled with {@link setCall} or {@link setCode}. */
  addLocus(locus: Locus): number {
    if (this.packed && locus.alleles.length > 2) this.unpack();
    this.loci.push(locus);
    const block = this.individuals.length * this.ploidy;
    if (this.packed) {
      this.packed.reserve(this.bytesPerLocus);
      return (this.loci.length - 1) * block;
    }
    return this.calls!.reserve(block);
  }

  /** Removes the locus added last (its block is released). */
  dropLastLocus(): void {
    this.loci.pop();
    if (this.packed) this.packed.truncate(this.loci.length * this.bytesPerLocus);
    else this.calls!.truncate(this.calls!.length - this.individuals.length * this.ploidy);
  }

  /** Sets one copy. Packed calls are unpacked first (a single copy has no two-bit code). */
  setCode(offset: number, code: number): void {
    if (this.packed) this.unpack();
    this.calls!.set(offset, code);
  }

  /**
   * Sets an individual's call: `copies[0 .. ploidy)` from `offset` (a multiple of ploidy);
   * `phased`: the file wrote it with '|' (a 1|0 heterozygote is then kept unpacked, in its order).
   */
  setCall(offset: number, copies: Int32Array, phased: boolean): void {
    const P = this.ploidy;
    if (this.packed) {
      const a = copies[0]!;
      const b = copies[1]!;
      const code = twoBitCode(a, b, phased);
      if (code >= 0) {
        const N = this.individuals.length;
        const l = Math.floor(offset / (2 * N));
        const d = (offset - l * 2 * N) / 2;
        this.packed.setBits(l * this.bytesPerLocus + (d >> 2), 2 * (d & 3), code);
        return;
      }
      this.unpack();
    }
    for (let p = 0; p < P; p++) this.calls!.set(offset + p, copies[p]!);
  }

  /** Moves every locus read so far to unpacked calls (the rest is read unpacked). */
  private unpack(): void {
    const packed = this.packed!;
    this.packed = undefined;
    const N = this.individuals.length;
    const L = packed.length / this.bytesPerLocus;
    this.calls = new GrowableCalls(Math.max(1, 2 * N * Math.max(L, 1024)));
    const block = new Int8Array(8 * this.bytesPerLocus);
    const view = { bytes: packed.bytes(), bytesPerLocus: this.bytesPerLocus };
    for (let l = 0; l < L; l++) {
      unpackLocus(view, l, block);
      this.calls.setBlock(this.calls.reserve(2 * N), block.subarray(0, 2 * N));
    }
  }

  /**
   * The dataset: packed calls (in shared memory where the platform has it, as PLINK's reader
   * keeps a .bed) when they were held packed and are not all phased, else the calls.
   */
  finish(source: DatasetSource, phased: boolean): GenotypeData {
    if (this.packed && phased) this.unpack();
    if (this.packed) {
      return packedGenotypeData(
        { individuals: this.individuals, loci: this.loci, source },
        { bytes: this.packed.toArray(), bytesPerLocus: this.bytesPerLocus },
      );
    }
    return {
      ploidy: this.ploidy,
      individuals: this.individuals,
      loci: this.loci,
      calls: this.calls!.toArray(),
      phased,
      source,
    };
  }
}

/**
 * The two-bit code of a diploid call (packed-calls.ts: 00 = (0, 0), 01 = missing, 10 = (0, 1),
 * 11 = (1, 1)), or −1 where it has none: one copy missing, an allele above 1, or a phased 1|0.
 */
function twoBitCode(a: number, b: number, phased: boolean): number {
  if (a === MISSING || b === MISSING) return a === b ? 1 : -1;
  if (a > 1 || b > 1) return -1;
  if (a === b) return a === 0 ? 0 : 3;
  return phased && a > b ? -1 : 2;
}

/**
 * An append-only byte buffer (zeroed as it grows, in shared memory when `shared`) whose two-bit
 * fields are set in place.
 */
class GrowableBytes {
  private buf: Uint8Array;
  length = 0;

  constructor(
    capacity: number,
    private readonly shared: boolean,
  ) {
    this.buf = allocate(Uint8Array, capacity, shared);
  }

  reserve(n: number): void {
    const need = this.length + n;
    if (need > this.buf.length) {
      let cap = this.buf.length;
      while (cap < need) cap *= 2;
      const next = allocate(Uint8Array, cap, this.shared);
      next.set(this.buf.subarray(0, this.length));
      this.buf = next;
    }
    this.length = need;
  }

  truncate(n: number): void {
    this.buf.fill(0, n, this.length);
    this.length = n;
  }

  /** Sets bits shift .. shift + 1 of byte `at` to `code`. */
  setBits(at: number, shift: number, code: number): void {
    this.buf[at] = (this.buf[at]! & ~(3 << shift)) | (code << shift);
  }

  /** The bytes written so far (a view). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  /**
   * The bytes written, to keep: shared ones as a view (posting it shares the buffer; the pages
   * past the bytes written were never touched), others copied to their length, since posting a
   * view would clone the whole buffer (as GroupBuilder.groups does).
   */
  toArray(): Uint8Array {
    return this.shared ? this.bytes() : this.bytes().slice();
  }
}
