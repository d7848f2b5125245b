import type { GenotypeData } from './genotype-data.ts';
import { unpackLocus } from './packed-calls.ts';

/**
 * A fingerprint of a dataset's content (individual ids, locus names, allele names and every call,
 * its copies in order where the data are phased, else sorted): two reads of the same data agree
 * however the calls are held, and pieces of a sweep computed on other data are told apart.
 * FNV-1a, 32 bits, as 8 hex digits.
 */
export function datasetFingerprint(data: GenotypeData): string {
  let h = 0x811c9dc5;
  const byte = (b: number) => {
    h ^= b & 0xff;
    h = Math.imul(h, 0x01000193);
  };
  const text = (s: string) => {
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      byte(c);
      byte(c >> 8);
    }
    byte(0);
  };
  byte(data.ploidy);
  for (const ind of data.individuals) text(ind.id);
  for (const locus of data.loci) {
    text(locus.name);
    for (const a of locus.alleles) text(a);
  }
  const calls = (c: ArrayLike<number>, n: number) => {
    for (let k = 0; k < n; k++) {
      byte(c[k]!);
      byte(c[k]! >> 8);
    }
  };
  // Packed calls are read a locus at a time (the same values in the same order, never all unpacked).
  const packed = data.packed;
  if (packed) {
    const scratch = new Int8Array(8 * packed.bytesPerLocus);
    for (let l = 0; l < data.loci.length; l++) {
      unpackLocus(packed, l, scratch);
      calls(scratch, 2 * data.individuals.length);
    }
  } else if (data.phased) calls(data.calls, data.calls.length);
  else {
    // Unphased: each call's copies sorted (1/0 is 0/1; packed calls hold them so).
    const P = data.ploidy;
    const copies = new Int16Array(P);
    for (let k = 0; k < data.calls.length; k += P) {
      copies.set(data.calls.subarray(k, k + P));
      copies.sort();
      calls(copies, P);
    }
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
