import type { Locus } from './genotype-data.ts';

/** Whether every locus has a base-pair position (VCF, PLINK), so that the markers have an order along the genome. */
export function hasPositions(loci: readonly Locus[]): boolean {
  return loci.length > 0 && loci.every((l) => l.pos !== undefined);
}

/**
 * The loci's indices in genome order: chromosomes in the order they first appear, then by
 * position (ties by index). Without positions on every locus, the file's order.
 */
export function genomeOrder(loci: readonly Locus[]): number[] {
  const idx = loci.map((_, l) => l);
  if (!hasPositions(loci)) return idx;
  const chromRank = new Map<string, number>();
  for (const l of loci) if (!chromRank.has(l.chrom ?? '')) chromRank.set(l.chrom ?? '', chromRank.size);
  return idx.sort(
    (a, b) =>
      chromRank.get(loci[a]!.chrom ?? '')! - chromRank.get(loci[b]!.chrom ?? '')! ||
      loci[a]!.pos! - loci[b]!.pos! ||
      a - b,
  );
}
