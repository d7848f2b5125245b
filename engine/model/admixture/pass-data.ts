import { everyLocus, locusRow, type PreparedData } from '../prepared/prepared-data.ts';
import type { PassArguments } from './em-pass.ts';

/** What every pass over the data reads: the data, the work's entries and held-out mask, K, Q and F. */
export type PassData = Pick<
  PassArguments,
  'N' | 'L' | 'K' | 'genotypeOf' | 'genotypeOffsets' | 'heldOut' | 'start' | 'row' | 'count' | 'Q' | 'F'
> & {
  /** Per locus its first row of F (length L + 1). */
  readonly offsets?: Int32Array;
  /** Locus l's genotype codes (N of them; `scratch` may hold them), without decoding every locus. */
  readonly locusCodes?: (l: number, scratch: Int32Array) => ArrayLike<number>;
  /** The prepared data the codes are of (the two-allele passes pack them from its stored rows). */
  readonly prepared?: PreparedData;
};

/**
 * The arguments every pass over `md` at (Q, F) shares (em-pass.ts, newton-passes.ts,
 * f-derivatives.ts), with the entries and held-out mask of `work` (an AdmixtureWork). `genotypeOf`
 * (every locus's codes, N·L: everyLocus) is a getter, decoded on first read: the two-allele passes
 * (two-allele-passes.ts) read the codes a locus at a time (`locusCodes`) instead, so SNP data
 * never hold them all. A spread of the object reads it (decodes); {@link passArguments} adds a
 * pass's own arguments without reading it.
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
    get genotypeOf() {
      return everyLocus(md).genotypeOf;
    },
    genotypeOffsets: md.genotypeOffsets,
    offsets: md.offsets,
    locusCodes: (l: number, scratch: Int32Array) => locusRow(md, l, scratch),
    prepared: md,
    heldOut,
    start,
    row,
    count,
    Q,
    F,
  };
}

/** `data` with a pass's own arguments added, its codes still decoded only when read. */
export function passArguments<T extends object>(data: PassData, own: T): PassData & T {
  return Object.assign(Object.create(data) as PassData, own) as PassData & T;
}
