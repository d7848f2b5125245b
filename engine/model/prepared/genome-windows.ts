import type { Locus } from '../../data/genotype-data.ts';
import { genomeOrder, hasPositions } from '../../data/genome-order.ts';

/** Loci in blocks for a delete-one-block jackknife: `of[i]` is locus i's block, 0 .. count − 1. */
export interface LocusBlocks {
  readonly of: Int32Array;
  readonly count: number;
}

/**
 * Windows of consecutive markers along the genome for a block jackknife over linked markers:
 * in genome order, runs of ⌈L^(1/3)⌉ markers that never cross a chromosome's end (the block
 * length's rate for variance estimation of Hall, Horowitz & Jing 1995: 6 markers of 160, 80 of
 * 500,000). Undefined when a locus has no position (the markers' order along the genome unknown).
 */
export function genomeWindows(loci: readonly Locus[]): LocusBlocks | undefined {
  if (!hasPositions(loci)) return undefined;
  const width = Math.ceil(Math.cbrt(loci.length) - 1e-9);
  const of = new Int32Array(loci.length);
  let count = 0;
  let inWindow = 0;
  let chrom: string | undefined;
  for (const i of genomeOrder(loci)) {
    const c = loci[i]!.chrom ?? '';
    if (count === 0 || c !== chrom || inWindow === width) {
      count++;
      inWindow = 0;
      chrom = c;
    }
    of[i] = count - 1;
    inWindow++;
  }
  return { of, count };
}
