import { allocateCalls, MISSING, type GenotypeData, type Locus } from './genotype-data.ts';

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
  const maxAlleles = Math.max(1, ...reference.map((r) => r.alleles.length));
  const calls = allocateCalls(reference.length * N * P, maxAlleles);
  calls.fill(MISSING);
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
  for (const { l, k, map, ambiguous } of pairs) {
    if (ambiguous) {
      if (!sameStrand) {
        counts.ambiguousDropped++;
        continue;
      }
      if (map[0] !== 0) counts.swapped++;
    }
    counts.matched++;
    for (let i = 0; i < N; i++)
      for (let p = 0; p < P; p++) {
        const a = data.calls[(l * N + i) * P + p]!;
        if (a === MISSING) continue;
        const b = map[a] ?? MISSING;
        if (b === MISSING) counts.unseenAlleleCopies++;
        else calls[(k * N + i) * P + p] = b;
      }
  }
  counts.absent = reference.length - counts.matched;
  const loci: Locus[] = reference.map((r) => ({
    name: r.name,
    alleles: r.alleles,
    ...(r.chrom != null ? { chrom: r.chrom } : {}),
    ...(r.pos != null ? { pos: r.pos } : {}),
  }));
  return { data: { ...data, loci, calls }, counts };
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
