import { allocateCalls, MISSING, type GenotypeData, type Locus, type PackedCalls } from './genotype-data.ts';
import { packedGenotypeData } from './packed-calls.ts';
import { allocate, sharedMemory } from '../util/shared-memory.ts';

/** A marker of a reference panel as a result file describes it. */
export interface ReferenceLocus {
  readonly name: string;
  readonly alleles: readonly string[];
  readonly chrom?: string | null;
  readonly pos?: number | null;
}

/** What matching a dataset's markers to a reference found, marker by marker. */
export interface MarkerMatchCounts {
  /** How markers were paired: by name (ID), or by chromosome and position where names do not match. */
  readonly by: 'name' | 'position';
  readonly reference: number;
  readonly data: number;
  /** Pairs used. */
  readonly matched: number;
  /** Used with the data's alleles read on the other strand (A/G in the data, T/C in the reference). */
  readonly strandFlipped: number;
  /** Used with the two alleles in the other order (REF/ALT or A1/A2 swapped). */
  readonly swapped: number;
  /**
   * A/T and C/G SNPs, whose strand cannot be told from their bases: used by name when no other
   * SNP needed the other strand (the two sources share a strand), else dropped.
   */
  readonly ambiguous: number;
  readonly ambiguousDropped: number;
  /** Dropped: alleles that do not fit the reference's even on the other strand. */
  readonly mismatched: number;
  /** Reference markers the data lacks (their ancestry information is not used). */
  readonly absent: number;
  /** Allele copies of used markers whose allele the reference never saw (read as missing). */
  readonly unseenAlleleCopies: number;
}

const COMPLEMENT: Record<string, string> = { A: 'T', T: 'A', C: 'G', G: 'C' };
const isBase = (a: string) => a.length === 1 && COMPLEMENT[a.toUpperCase()] !== undefined;

/**
 * The data's individuals on the reference's markers and allele indices: one locus per reference
 * marker (in its order), calls mapped to the reference's allele index, MISSING where the data
 * lacks the marker, the pair was dropped, or the allele is unknown to the reference. Markers pair
 * by name when at least half of the data's names are reference names, else by chromosome and
 * position. Two-allele SNPs are checked: the same two bases in either order are used (swapped
 * alleles follow their names); the complementary bases (the other strand) are used flipped;
 * A/T and C/G SNPs are used by name when no other SNP needed the other strand and dropped when
 * some did (their strand would be a guess); any other difference drops the pair. Multi-allelic markers (microsatellites) map alleles by name.
 */
export function onReferenceMarkers(
  data: GenotypeData,
  reference: readonly ReferenceLocus[],
): { data: GenotypeData; counts: MarkerMatchCounts } {
  const byName = new Map(reference.map((r, k) => [r.name, k]));
  const named = data.loci.filter((l) => l.name !== '.' && byName.has(l.name)).length;
  const by: MarkerMatchCounts['by'] = named * 2 >= data.loci.length && named > 0 ? 'name' : 'position';
  const byPosition = new Map<string, number>();
  if (by === 'position')
    reference.forEach((r, k) => {
      if (r.chrom != null && r.pos != null) byPosition.set(`${r.chrom}:${r.pos}`, k);
    });
  const counts = {
    by,
    reference: reference.length,
    data: data.loci.length,
    matched: 0,
    strandFlipped: 0,
    swapped: 0,
    ambiguous: 0,
    ambiguousDropped: 0,
    mismatched: 0,
    absent: 0,
    unseenAlleleCopies: 0,
  };
  const N = data.individuals.length;
  const P = data.ploidy;
  const used = new Uint8Array(reference.length);
  const pairs: { l: number; k: number; map: Int32Array; ambiguous: boolean }[] = [];
  data.loci.forEach((locus, l) => {
    const k =
      by === 'name'
        ? byName.get(locus.name)
        : locus.chrom !== undefined && locus.pos !== undefined
          ? byPosition.get(`${locus.chrom}:${locus.pos}`)
          : undefined;
    if (k === undefined || used[k]) return;
    const pair = alleleMap(locus, reference[k]!, counts);
    if (!pair) return;
    used[k] = 1;
    pairs.push({ l, k, ...pair });
  });
  // A/T and C/G SNPs by name when the other SNPs show one strand; else their strand is a guess.
  const sameStrand = counts.strandFlipped === 0;
  const kept = pairs.filter(({ map, ambiguous }) => {
    if (ambiguous) {
      if (!sameStrand) {
        counts.ambiguousDropped++;
        return false;
      }
      if (map[0] !== 0) counts.swapped++;
    }
    counts.matched++;
    return true;
  });
  counts.absent = reference.length - counts.matched;
  const loci: Locus[] = reference.map((r) => ({
    name: r.name,
    alleles: r.alleles,
    ...(r.chrom != null ? { chrom: r.chrom } : {}),
    ...(r.pos != null ? { pos: r.pos } : {}),
  }));
  const packed = data.packed;
  // Packed SNPs whose alleles all have a reference allele stay packed (a shard of a cohort then
  // takes a quarter byte a genotype, not two bytes, and its workers share it).
  if (packed && loci.every((l) => l.alleles.length <= 2) && kept.every(({ map }) => wholeSnpMap(map)))
    return {
      data: packedGenotypeData(
        { individuals: data.individuals, loci, ...(data.source ? { source: data.source } : {}) },
        packedOnReference(packed, reference.length, kept),
      ),
      counts,
    };
  const maxAlleles = Math.max(1, ...reference.map((r) => r.alleles.length));
  const calls = allocateCalls(reference.length * N * P, maxAlleles);
  calls.fill(MISSING);
  for (const { l, k, map } of kept)
    for (let i = 0; i < N; i++) {
      const at = (k * N + i) * P;
      for (let p = 0; p < P; p++) {
        const a = data.calls[(l * N + i) * P + p]!;
        if (a === MISSING) continue;
        const b = map[a] ?? MISSING;
        if (b === MISSING) counts.unseenAlleleCopies++;
        else calls[at + p] = b;
      }
      // Unphased copies stay sorted (a swapped heterozygote (0, 1) read as (1, 0) would not be).
      if (!data.phased) calls.subarray(at, at + P).sort();
    }
  const { packed: _, ...plain } = data;
  return { data: { ...plain, loci, calls }, counts };
}

/** Whether a data allele → reference allele map sends two alleles to the reference's two, in either order. */
function wholeSnpMap(map: Int32Array): boolean {
  return map.length === 2 && ((map[0] === 0 && map[1] === 1) || (map[0] === 1 && map[1] === 0));
}

/** Per .bed byte, its four codes with the alleles swapped (00 ↔ 11; 10 and 01 missing stay). */
const SWAPPED_CODES = (() => {
  const table = new Uint8Array(256);
  for (let b = 0; b < 256; b++)
    for (let j = 0; j < 4; j++) {
      const c = (b >> (2 * j)) & 3;
      table[b]! |= (c === 0 ? 3 : c === 3 ? 0 : c) << (2 * j);
    }
  return table;
})();

/**
 * The .bed codes of the data's loci on the reference's markers: each kept pair's locus copied to
 * its marker (its codes swapped where the alleles are in the other order), 01 (missing) for every
 * genotype of a marker the data lacks; in shared memory where there is some (workers read it).
 */
function packedOnReference(
  packed: PackedCalls,
  markers: number,
  kept: readonly { l: number; k: number; map: Int32Array }[],
): PackedCalls {
  const per = packed.bytesPerLocus;
  const bytes = allocate(Uint8Array, markers * per, sharedMemory());
  bytes.fill(0x55);
  for (const { l, k, map } of kept) {
    const source = packed.bytes.subarray(l * per, (l + 1) * per);
    if (map[0] === 0) bytes.set(source, k * per);
    else for (let j = 0; j < per; j++) bytes[k * per + j] = SWAPPED_CODES[source[j]!]!;
  }
  return { bytes, bytesPerLocus: per };
}

/**
 * The data allele → reference allele map of a pair (for an A/T or C/G SNP the map by name,
 * marked ambiguous: kept or dropped once every pair is seen), or undefined when the pair is
 * dropped (counted).
 */
function alleleMap(
  locus: Locus,
  ref: ReferenceLocus,
  counts: { strandFlipped: number; swapped: number; ambiguous: number; mismatched: number },
): { map: Int32Array; ambiguous: boolean } | undefined {
  const own = locus.alleles.map((a) => a.toUpperCase());
  const theirs = ref.alleles.map((a) => a.toUpperCase());
  const snp = (xs: readonly string[]) => xs.length === 2 && xs.every(isBase);
  const index = new Map(theirs.map((a, k) => [a, k]));
  if (snp(own) && snp(theirs)) {
    const same = own.every((a) => index.has(a));
    const flipped = own.map((a) => COMPLEMENT[a]!);
    const other = flipped.every((a) => index.has(a));
    if (same && other) {
      // A/T or C/G: the bases read the same on both strands.
      counts.ambiguous++;
      return { map: Int32Array.from(own, (a) => index.get(a)!), ambiguous: true };
    }
    if (same || other) {
      const names = same ? own : flipped;
      if (other) counts.strandFlipped++;
      if (names[0] !== theirs[0]) counts.swapped++;
      return { map: Int32Array.from(names, (a) => index.get(a)!), ambiguous: false };
    }
    counts.mismatched++;
    return undefined;
  }
  if (snp(own) !== snp(theirs) && own.length > 0 && theirs.length > 0 && !own.some((a) => index.has(a))) {
    counts.mismatched++;
    return undefined;
  }
  return { map: Int32Array.from(own, (a) => index.get(a) ?? MISSING), ambiguous: false };
}
