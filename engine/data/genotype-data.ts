import { LIMITS, type FormatName } from '../util/choices.ts';
/**
 * The genotype data model shared by every parser, writer and algorithm.
 *
 * Memory layout (locus-major, like scikit-allel's GenotypeArray):
 *   calls: shape (nLoci, nIndividuals, ploidy), flattened as
 *          calls[(l * nIndividuals + i) * ploidy + p]
 *   value: the allele's index into loci[l].alleles (0-based), or MISSING (-1) for a missing copy.
 * calls is an Int8Array when every locus has at most 127 alleles, otherwise an Int16Array.
 * One locus's block (all individuals, all copies) is contiguous, which is what the per-locus
 * count loops of EM/EMA read; a single individual's row is strided by nIndividuals * ploidy.
 */
export const MISSING = -1;

/** The largest ploidy the data model accepts. */
export const MAX_PLOIDY = LIMITS.maxPloidy;

/** Allele calls, see the layout above. */
export type AlleleCalls = Int8Array | Int16Array;

export interface Individual {
  /** Unique identifier (label) of the individual. */
  readonly id: string;
  /** Population label, if the file gives one. */
  readonly population?: string;
  /** Higher-level group (e.g. region), if known. */
  readonly group?: string;
  /** Where it was sampled, if the population file says (the map view). */
  readonly location?: Location;
}

/** A sampling site: geographic (degrees) or planar (any unit, no basemap). */
export type Location =
  | { readonly kind: 'geographic'; readonly latitude: number; readonly longitude: number }
  | { readonly kind: 'planar'; readonly x: number; readonly y: number };

export interface Locus {
  readonly name: string;
  /** Chromosome / contig, where the format has it (VCF, PLINK). */
  readonly chrom?: string;
  /** Base-pair position, where the format has it. */
  readonly pos?: number;
  /** Original allele names/sizes; the array index is the compact allele index. */
  readonly alleles: readonly string[];
  /**
   * Copies per individual at this locus when fewer than the dataset's ploidy (a haploid locus,
   * such as mtDNA, among diploid loci); copies p ≥ this value are always MISSING and are not
   * counted as missing data. Absent: the dataset's ploidy.
   */
  readonly ploidy?: number;
}

/**
 * Where each locus's alleles start in arrays with one row per (locus, allele): shape (L + 1,),
 * offsets[l] = Σ_{l' < l} r_l' with r_l = number of alleles of locus l, at least 1.
 */
export function alleleOffsets(data: GenotypeData): Int32Array {
  const offsets = new Int32Array(data.loci.length + 1);
  data.loci.forEach((l, i) => (offsets[i + 1] = offsets[i]! + Math.max(1, l.alleles.length)));
  return offsets;
}

/** Copies per individual at locus l (see {@link Locus.ploidy}). */
export function locusPloidy(data: GenotypeData, l: number): number {
  return data.loci[l]!.ploidy ?? data.ploidy;
}

/** Formats Stratify reads. */
export type { FormatName };

/** Where a dataset came from and what the parser assumed while reading it. */
export interface DatasetSource {
  readonly format: FormatName;
  readonly file: string;
  /** Human-readable statements of layout choices the parser made (detected or given). */
  readonly assumptions: readonly string[];
  /** Non-fatal problems worth telling the user. */
  readonly warnings: readonly string[];
}

/**
 * Diploid calls of loci with at most two alleles, two bits a genotype as PLINK's .bed holds them
 * (a quarter of a byte where the calls take two bytes):
 *   bytes: shape (L, bytesPerLocus), bytesPerLocus = ⌈N / 4⌉; individual d's genotype at locus l
 *          is bits 2(d mod 4) .. 2(d mod 4) + 1 of byte l · bytesPerLocus + ⌊d / 4⌋, low bits first:
 *          00 = copies (0, 0), 01 = missing, 10 = (0, 1), 11 = (1, 1) (allele indices into
 *          loci[l].alleles). Bits past the last individual of a locus are ignored.
 */
export interface PackedCalls {
  readonly bytes: Uint8Array;
  readonly bytesPerLocus: number;
}

export interface GenotypeData {
  readonly ploidy: number;
  readonly individuals: readonly Individual[];
  readonly loci: readonly Locus[];
  /**
   * Where `packed` is present (diploid biallelic data read from a PLINK .bed), the same calls are
   * unpacked from it on first read (N · L · 2 bytes): what reads every call in the hot path reads
   * `packed` instead (packed-calls.ts).
   */
  readonly calls: AlleleCalls;
  /** The calls two bits a genotype, when the dataset was read packed (see {@link PackedCalls}). */
  readonly packed?: PackedCalls;
  /** True when every call came from phased data (VCF '|'), so copies are haplotypes. */
  readonly phased: boolean;
  readonly source?: DatasetSource;
}

/** The index of call (locus l, individual i, copy p). */
export function callIndex(data: GenotypeData, l: number, i: number, p: number): number {
  return (l * data.individuals.length + i) * data.ploidy + p;
}

/** Allocates a calls array big enough for `n` values, narrow when allele counts allow. */
export function allocateCalls(n: number, maxAlleles: number): AlleleCalls {
  return maxAlleles <= 127 ? new Int8Array(n) : new Int16Array(n);
}

/** Distinct population labels in order of first appearance (individuals without one are skipped). */
export function populationsOf(data: GenotypeData): string[] {
  const seen = new Set<string>();
  for (const ind of data.individuals) if (ind.population !== undefined) seen.add(ind.population);
  return [...seen];
}

/** Each individual's population as an index into {@link populationsOf} (−1 for an individual without one). */
export function populationIndex(data: GenotypeData): Int32Array {
  const index = new Map(populationsOf(data).map((p, j) => [p, j]));
  return Int32Array.from(data.individuals, (ind) => (ind.population === undefined ? -1 : index.get(ind.population)!));
}

/** A new dataset holding the given loci and individuals (indices, in the order given). */
export function subsetData(data: GenotypeData, lociIdx: readonly number[], indIdx: readonly number[]): GenotypeData {
  const P = data.ploidy;
  const N = data.individuals.length;
  const n2 = indIdx.length;
  let maxA = 0;
  for (const l of lociIdx) maxA = Math.max(maxA, data.loci[l]!.alleles.length);
  const out = allocateCalls(lociIdx.length * n2 * P, maxA);
  lociIdx.forEach((l, lo) => {
    for (let k = 0; k < n2; k++) {
      const src = (l * N + indIdx[k]!) * P;
      const dst = (lo * n2 + k) * P;
      for (let p = 0; p < P; p++) out[dst + p] = data.calls[src + p]!;
    }
  });
  return {
    ploidy: P,
    individuals: indIdx.map((i) => data.individuals[i]!),
    loci: lociIdx.map((l) => data.loci[l]!),
    calls: out,
    phased: data.phased,
    source: data.source,
  };
}

/** Indices 0..n-1. */
export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
