import { everyLocus, type PreparedData } from '../prepared/prepared-data.ts';
import type { PassArguments } from './em-pass.ts';

/** What every pass over the data reads: the data, the work's entries and held-out mask, K, Q and F. */
export type PassData = Pick<
  PassArguments,
  'N' | 'L' | 'K' | 'genotypeOf' | 'genotypeOffsets' | 'heldOut' | 'start' | 'row' | 'count' | 'Q' | 'F'
> & {
  /** Per locus its first row of F (length L + 1). */
  readonly offsets?: Int32Array;
};

/**
 * The arguments every pass over `md` at (Q, F) shares (em-pass.ts, newton-passes.ts,
 * f-derivatives.ts), with the entries and held-out mask of `work` (an AdmixtureWork).
 */
export function passData(
  md: PreparedData,
  work: Pick<PassArguments, 'start' | 'row' | 'count'> & { readonly heldOut?: Uint8Array },
  K: number,
  Q: Float64Array,
  F: Float64Array,
): PassData {
  const { start, row, count, heldOut } = work;
  return {
    N: md.N,
    L: md.L,
    K,
    genotypeOf: everyLocus(md).genotypeOf,
    genotypeOffsets: md.genotypeOffsets,
    offsets: md.offsets,
    heldOut,
    start,
    row,
    count,
    Q,
    F,
  };
}
