import {
  MISSING,
  subsetData,
  type DatasetSource,
  type GenotypeData,
  type Individual,
  type Locus,
  type AlleleCalls,
  type PackedCalls,
} from './genotype-data.ts';

export type { PackedCalls };

/** The two copies of each 2-bit genotype code (sorted, as a genotype's copies are). */
export const CODE_COPIES = [
  [0, 0],
  [MISSING, MISSING],
  [0, 1],
  [1, 1],
] as const;

/**
 * The eight calls of each byte (four genotypes), as two 32-bit words: entry 2b, 2b + 1 of the
 * Int32 view hold byte b's calls in order (little-endian, as every platform Node and browsers run on).
 */
const BYTE_CALLS = (() => {
  const table = new Int8Array(256 * 8);
  for (let b = 0; b < 256; b++)
    for (let j = 0; j < 4; j++) {
      const [x, y] = CODE_COPIES[(b >> (2 * j)) & 3]!;
      table[b * 8 + 2 * j] = x;
      table[b * 8 + 2 * j + 1] = y;
    }
  return new Int32Array(table.buffer);
})();

/**
 * Writes locus l's calls (2N values, individual d's copies at 2d, 2d + 1) into out[0 .. 2N).
 * `out` must hold 8 · bytesPerLocus values (the padding of the last byte is decoded too).
 */
export function unpackLocus(packed: PackedCalls, l: number, out: Int8Array): void {
  const { bytes, bytesPerLocus } = packed;
  if (out.length < 8 * bytesPerLocus || out.byteOffset % 4 !== 0)
    throw new RangeError('unpackLocus: out needs 8 values a byte, aligned to 4 bytes');
  const words = new Int32Array(out.buffer, out.byteOffset, 2 * bytesPerLocus);
  const base = l * bytesPerLocus;
  for (let j = 0; j < bytesPerLocus; j++) {
    const b = bytes[base + j]! * 2;
    words[2 * j] = BYTE_CALLS[b]!;
    words[2 * j + 1] = BYTE_CALLS[b + 1]!;
  }
}

/** Every locus's calls in the dense layout of GenotypeData.calls (N · L · 2 bytes). */
export function unpackCalls(packed: PackedCalls, N: number, L: number): Int8Array {
  const calls = new Int8Array(N * L * 2);
  const scratch = new Int8Array(8 * packed.bytesPerLocus);
  for (let l = 0; l < L; l++) {
    unpackLocus(packed, l, scratch);
    calls.set(scratch.subarray(0, 2 * N), l * N * 2);
  }
  return calls;
}

/** What a packed dataset holds beside its calls. */
export interface DatasetFields {
  readonly individuals: readonly Individual[];
  readonly loci: readonly Locus[];
  readonly source?: DatasetSource;
}

/**
 * A diploid, unphased dataset whose calls are held packed: `packed` is what the clustering
 * path reads (prepared-data.ts codes it without unpacking); `calls`, for everything else that
 * reads calls, is unpacked on first read and kept. Every locus must have at most two alleles.
 */
export function packedGenotypeData(fields: DatasetFields, packed: PackedCalls): GenotypeData {
  const N = fields.individuals.length;
  const L = fields.loci.length;
  if (packed.bytesPerLocus !== Math.ceil(N / 4) || packed.bytes.length !== L * packed.bytesPerLocus)
    throw new RangeError(`packed calls: ${packed.bytes.length} bytes for ${L} loci × ${N} individuals`);
  for (const locus of fields.loci)
    if (locus.alleles.length > 2) throw new RangeError(`packed calls: locus ${locus.name} has more than two alleles`);
  let calls: Int8Array | undefined;
  return {
    ploidy: 2,
    individuals: fields.individuals,
    loci: fields.loci,
    phased: false,
    ...(fields.source ? { source: fields.source } : {}),
    packed,
    get calls(): Int8Array {
      return (calls ??= unpackCalls(packed, N, L));
    },
  };
}

/**
 * Copies one locus's two-bit codes of the given individuals (indices, in the order given) from
 * the locus at `from` in `source` to `to` in `target` (⌈n / 4⌉ bytes, the padding zero).
 */
export function locusRepacker(
  individuals: readonly number[],
): (source: Uint8Array, from: number, target: Uint8Array, to: number) => void {
  const ascending = individuals.every((i, k) => k === 0 || i > individuals[k - 1]!);
  return ascending ? ascendingRepacker(individuals) : anyOrderRepacker(individuals);
}

/** locusRepacker for individuals in any order: a code at a time. */
function anyOrderRepacker(
  individuals: readonly number[],
): (source: Uint8Array, from: number, target: Uint8Array, to: number) => void {
  const n = individuals.length;
  const per = Math.ceil(n / 4);
  // Where each kept individual's code lies: its byte and shift in a locus of the source.
  const byte = Int32Array.from(individuals, (i) => i >> 2);
  const shift = Int32Array.from(individuals, (i) => 2 * (i & 3));
  return (source, from, target, to) => {
    for (let q = 0, j = 0; q < per; q++) {
      let v = 0;
      for (let s = 0; s < 8 && j < n; s += 2, j++) v |= ((source[from + byte[j]!]! >> shift[j]!) & 3) << s;
      target[to + q] = v;
    }
  };
}

/**
 * Per set of a byte's four genotypes kept (a 4-bit mask) and byte, the kept codes moved together
 * to the low bits, in order: the compaction a byte at a time that ascendingRepacker appends.
 */
const KEPT_CODES = (() => {
  const table = new Uint8Array(16 * 256);
  for (let mask = 0; mask < 16; mask++)
    for (let b = 0; b < 256; b++) {
      let v = 0;
      let at = 0;
      for (let j = 0; j < 4; j++)
        if (mask & (1 << j)) {
          v |= ((b >> (2 * j)) & 3) << at;
          at += 2;
        }
      table[(mask << 8) | b] = v;
    }
  return table;
})();

/**
 * locusRepacker for ascending individuals (what the filters and --keep give): a source byte at a
 * time, its kept codes (KEPT_CODES) appended to the bits gathered so far, a byte written whenever
 * eight bits are ready — several times faster than a code at a time.
 */
function ascendingRepacker(
  individuals: readonly number[],
): (source: Uint8Array, from: number, target: Uint8Array, to: number) => void {
  const last = individuals.length > 0 ? individuals[individuals.length - 1]! : -1;
  // The source bytes holding a kept individual, with which of their four are kept and how many.
  const kept = new Uint8Array((last >> 2) + 1);
  const keptCount = new Uint8Array(kept.length);
  for (const i of individuals) {
    kept[i >> 2]! |= 1 << (i & 3);
    keptCount[i >> 2]!++;
  }
  const bytes = Int32Array.from(Array.from(kept.keys()).filter((q) => kept[q]! > 0));
  const masks = Uint16Array.from(bytes, (q) => kept[q]! << 8);
  const bits = Uint8Array.from(bytes, (q) => 2 * keptCount[q]!);
  return (source, from, target, to) => {
    let acc = 0;
    let held = 0;
    let out = to;
    for (let k = 0; k < bytes.length; k++) {
      acc |= KEPT_CODES[masks[k]! | source[from + bytes[k]!]!]! << held;
      held += bits[k]!;
      if (held >= 8) {
        target[out++] = acc & 255;
        acc >>>= 8;
        held -= 8;
      }
    }
    if (held > 0) target[out] = acc;
  };
}

/**
 * The given loci and individuals (indices, in the order given) of a dataset, kept packed when it
 * is (the calls are never unpacked whole: filtering 2,000 × 100,000 SNPs would otherwise take
 * 400 MB), else by subsetData.
 */
export function subsetDataset(
  data: GenotypeData,
  loci: readonly number[],
  individuals: readonly number[],
): GenotypeData {
  const packed = data.packed;
  if (!packed) return subsetData(data, loci, individuals);
  const N = data.individuals.length;
  const n = individuals.length;
  const per = Math.ceil(n / 4);
  const source = packed.bytes;
  const bytes = new Uint8Array(loci.length * per);
  if (n === N && individuals.every((i, k) => i === k))
    // Every individual, in order: each locus's bytes as they are.
    loci.forEach((l, k) => bytes.set(source.subarray(l * per, (l + 1) * per), k * per));
  else {
    const repack = locusRepacker(individuals);
    for (let k = 0; k < loci.length; k++) repack(source, loci[k]! * packed.bytesPerLocus, bytes, k * per);
  }
  return packedGenotypeData(
    {
      individuals: individuals.map((i) => data.individuals[i]!),
      loci: loci.map((l) => data.loci[l]!),
      ...(data.source ? { source: data.source } : {}),
    },
    { bytes, bytesPerLocus: per },
  );
}

/**
 * Locus l's block of calls (N · ploidy values, individual i's copies at i · ploidy ..): a view of
 * the calls, or for packed data the locus unpacked into `scratch` (8 · bytesPerLocus values; made
 * when absent), so a pass over the loci never unpacks the whole dataset.
 */
export function locusCalls(data: GenotypeData, l: number, scratch?: Int8Array): AlleleCalls {
  const N = data.individuals.length;
  const packed = data.packed;
  if (!packed) return data.calls.subarray(l * N * data.ploidy, (l + 1) * N * data.ploidy);
  const out = scratch ?? new Int8Array(8 * packed.bytesPerLocus);
  unpackLocus(packed, l, out);
  return out.subarray(0, 2 * N);
}
