import { alleleOffsets, type AlleleCalls, type GenotypeData } from '../../data/genotype-data.ts';

/**
 * What the clustering loops read: the calls in the data model's locus-major layout plus the
 * per-locus allele offsets that index the parameter arrays.
 *   alleles: shape (L,), r_i = number of alleles of locus i (at least 1)
 *   offsets: shape (L + 1,), offsets[i] = Σ_{i' < i} r_i'; a (locus, allele) pair is row offsets[i] + a
 */
export interface MixtureData {
  readonly N: number;
  readonly L: number;
  readonly P: number;
  readonly calls: AlleleCalls;
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
}

/** Genotype keys looked up in a flat array (1 MB) rather than a Map. */
const DIRECT_KEYS = 1 << 18;

/** Prepares a dataset for clustering: allele offsets and the distinct genotypes of each locus. */
export function mixtureData(data: GenotypeData): MixtureData {
  const L = data.loci.length;
  const N = data.individuals.length;
  const P = data.ploidy;
  const offsets = alleleOffsets(data);
  const alleles = Int32Array.from({ length: L }, (_, i) => offsets[i + 1]! - offsets[i]!);
  const codes = new Int32Array(L * N);
  const genotypeOffsets = new Int32Array(L + 1);
  const table: number[] = [];
  const copy = new Int16Array(P);
  // A genotype's key is its sorted copies read as digits in base r + 1 (missing = 0): looked up
  // in a flat array when there are few possible keys (SNPs, most microsatellites), else in a Map
  // of numbers. No strings: preparing 2,000 × 100,000 SNPs took 42 s with string keys.
  let direct = new Int32Array(0);
  const touched = new Int32Array(N);
  for (let i = 0; i < L; i++) {
    const radix = alleles[i]! + 1;
    const keys = Math.pow(radix, P);
    const flat = keys <= DIRECT_KEYS;
    if (flat && direct.length < keys) direct = new Int32Array(keys).fill(-1);
    // Keys beyond 2^53 (many alleles at a high ploidy) are not exact as numbers: text keys then.
    const exact = keys <= Number.MAX_SAFE_INTEGER;
    const seen = flat ? undefined : new Map<number | string, number>();
    let count = 0;
    for (let d = 0; d < N; d++) {
      const base = (i * N + d) * P;
      for (let p = 0; p < P; p++) {
        // Insertion sort: P ≤ 8 copies.
        const a = data.calls[base + p]!;
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
      let g = flat ? direct[key]! : (seen!.get(mapKey) ?? -1);
      if (g < 0) {
        g = count++;
        if (flat) {
          direct[key] = g;
          touched[g] = key;
        } else seen!.set(mapKey, g);
        for (let p = 0; p < P; p++) table.push(copy[p]!);
      }
      codes[i * N + d] = g;
    }
    if (flat) for (let g = 0; g < count; g++) direct[touched[g]!] = -1;
    genotypeOffsets[i + 1] = genotypeOffsets[i]! + count;
  }
  let maxG = 0;
  for (let i = 0; i < L; i++) maxG = Math.max(maxG, genotypeOffsets[i + 1]! - genotypeOffsets[i]!);
  // Narrow storage halves the memory the hot loops stream through.
  const genotypeOf = maxG <= 0xff ? Uint8Array.from(codes) : maxG <= 0xffff ? Uint16Array.from(codes) : codes;
  return {
    N,
    L,
    P,
    calls: data.calls,
    alleles,
    offsets,
    totalAlleles: offsets[L]!,
    genotypeOf,
    genotypeOffsets,
    genotypeAlleles: Int16Array.from(table),
  };
}

/**
 * The individuals `rows` of prepared data (in that order), sharing the allele and genotype
 * tables: for fitting on part of the individuals and scoring the rest (cross-validation).
 */
export function individualSubset(md: MixtureData, rows: readonly number[]): MixtureData {
  const { L, P, N } = md;
  const n = rows.length;
  const calls = new Int16Array(L * n * P);
  const genotypeOf = new (md.genotypeOf.constructor as new (length: number) => MixtureData['genotypeOf'])(L * n);
  for (let i = 0; i < L; i++)
    rows.forEach((d, k) => {
      genotypeOf[i * n + k] = md.genotypeOf[i * N + d]!;
      for (let p = 0; p < P; p++) calls[(i * n + k) * P + p] = md.calls[(i * N + d) * P + p]!;
    });
  return { ...md, N: n, calls, genotypeOf };
}
