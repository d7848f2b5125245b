import { AlleleTable, sortedAlleleOrder } from './allele-table.ts';
import { GrowableCalls } from './growable-calls.ts';
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
 * Builds a dataset from files written one locus per record (VCF, PLINK .bed), appending each
 * locus's block of N × ploidy codes directly in the final layout.
 */
export class LocusMajorBuilder {
  private readonly calls: GrowableCalls;
  readonly loci: Locus[] = [];

  constructor(
    readonly individuals: readonly Individual[],
    readonly ploidy: number,
    expectedLoci = 1024,
  ) {
    this.calls = new GrowableCalls(Math.max(1, individuals.length * ploidy * expectedLoci));
  }

  /** Appends a locus; returns the offset of its block, to be filled with {@link setCode}. */
  addLocus(locus: Locus): number {
    this.loci.push(locus);
    return this.calls.reserve(this.individuals.length * this.ploidy);
  }

  /** Removes the locus added last (its block is released). */
  dropLastLocus(): void {
    this.loci.pop();
    this.calls.truncate(this.calls.length - this.individuals.length * this.ploidy);
  }

  setCode(offset: number, code: number): void {
    this.calls.set(offset, code);
  }

  /** Writes consecutive codes (each −1..127) from `offset`. */
  setCodes(offset: number, codes: Int8Array): void {
    this.calls.setBlock(offset, codes);
  }

  finish(source: DatasetSource, phased: boolean): GenotypeData {
    return {
      ploidy: this.ploidy,
      individuals: this.individuals,
      loci: this.loci,
      calls: this.calls.toArray(),
      phased,
      source,
    };
  }
}
