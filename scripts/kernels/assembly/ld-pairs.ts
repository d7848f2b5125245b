// AssemblyScript source of linkage pruning's pair counts (engine/data/ld-pair-counts.ts): two
// diploid loci held as bit planes — called, homozygous, homozygous for the major allele — give the
// seven popcounts r² needs over the individuals called at both, 128 individuals a step with SIMD
// (i8x16.popcnt into byte counters, widened to 32 bits every 31 steps, before a byte could
// overflow); the same integers as the JavaScript fallback's 32-bit popcounts. Compiled by
// scripts/kernels/wasm-ld-pairs.mjs into engine/data/generated/ld-pairs-wasm.ts.
// Not TypeScript for tsc: i32, u32, u64, v128, load, store and popcnt are AssemblyScript's.

/** Steps of 16 bytes between widenings: a byte counter gains at most 8 a step (31 · 8 < 256). */
const STEPS: i32 = 31;

/** The 32 bits at even positions of `x`, gathered into an i32. */
@inline function evenBits(x: u64): i32 {
  x &= 0x5555555555555555;
  x = (x | (x >> 1)) & 0x3333333333333333;
  x = (x | (x >> 2)) & 0x0f0f0f0f0f0f0f0f;
  x = (x | (x >> 4)) & 0x00ff00ff00ff00ff;
  x = (x | (x >> 8)) & 0x0000ffff0000ffff;
  x = (x | (x >> 16)) & 0x00000000ffffffff;
  return <i32>x;
}

/**
 * A locus's PLINK .bed codes for n individuals at src (two bits a genotype, low first: 00
 * homozygous for allele 0, 01 missing, 10 heterozygous, 11 homozygous for allele 1; read 8 bytes at
 * a time, bits past the n-th individual ignored) become its three planes at dst (`words` 32-bit
 * words a plane, ≥ ⌈n / 32⌉), the major allele being allele 1 when it has more copies; writes the
 * i32s called, homozygotes for allele 0, for allele 1 to out.
 */
export function planes(src: i32, n: i32, dst: i32, words: i32, out: i32): void {
  const plane = words << 2;
  memory.fill(dst, 0, plane * 3);
  const used = <u32>(n + 31) >> 5;
  let called: i32 = 0;
  let n0: i32 = 0;
  let n1: i32 = 0;
  for (let k: i32 = 0; <u32>k < used; k++) {
    // Each genotype's low and high bit, 32 of each gathered (L, H): called = ¬L ∨ H, homozygous
    // for allele 0 = ¬L ∧ ¬H, for allele 1 = L ∧ H.
    const lo = load<u64>(src + (k << 3));
    let h0 = evenBits(lo);
    let h1 = evenBits(lo >> 1);
    let c = ~h0 | h1;
    let mask = h0 & h1;
    h0 = ~(h0 | h1);
    h1 = mask;
    // Individuals past n (the last byte's padding, the next locus's bytes) are not read.
    const valid = n - (k << 5);
    if (<u32>valid < 32) {
      mask = (1 << valid) - 1;
      c &= mask;
      h0 &= mask;
      h1 &= mask;
    }
    const at = dst + (k << 2);
    store<i32>(at, c);
    store<i32>(at + plane, h0);
    store<i32>(at + (plane << 1), h1);
    called += popcnt(c);
    n0 += popcnt(h0);
    n1 += popcnt(h1);
  }
  // Homozygous = either homozygote; the third plane keeps the major allele's.
  for (let k: i32 = 0; <u32>k < <u32>plane; k += 4) {
    const at = dst + k;
    const hom0 = load<i32>(at + plane);
    const hom1 = load<i32>(at + (plane << 1));
    store<i32>(at + plane, hom0 | hom1);
    if (<u32>n1 <= <u32>n0) store<i32>(at + (plane << 1), hom0);
  }
  store<i32>(out, called);
  store<i32>(out, n0, 4);
  store<i32>(out, n1, 8);
}

/** Byte counters widened to four 32-bit sums. */
@inline function widened(b: v128): v128 {
  return i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(b));
}

/** The sum of four 32-bit lanes. */
@inline function total(w: v128): i32 {
  return i32x4.extract_lane(w, 0) + i32x4.extract_lane(w, 1) + (i32x4.extract_lane(w, 2) + i32x4.extract_lane(w, 3));
}

/**
 * A pair of loci whose three planes lie at a, a + bytes, a + 2·bytes and at b, …: writes to the
 * seven i32s at out |Ca ∧ Cb|, |Ha ∧ Cb|, |Hb ∧ Ca|, |Pa ∧ Cb|, |Pb ∧ Ca|, |Ha ∧ Hb| and
 * |Ha ∧ Hb ∧ (Pa ⊕ Pb)| (C called, H homozygous, P homozygous for the major allele; `bytes` a
 * multiple of 16).
 */
export function counts(a: i32, b: i32, bytes: i32, out: i32): void {
  const a1 = a + bytes;
  const a2 = a1 + bytes;
  const b1 = b + bytes;
  const b2 = b1 + bytes;
  let wN = i32x4.splat(0);
  let wQa = i32x4.splat(0);
  let wQb = i32x4.splat(0);
  let wPa = i32x4.splat(0);
  let wPb = i32x4.splat(0);
  let wHh = i32x4.splat(0);
  let wUnlike = i32x4.splat(0);
  let s: i32 = 0;
  while (<u32>s < <u32>bytes) {
    let stop = s + 16 * STEPS;
    if (<u32>stop > <u32>bytes) stop = bytes;
    let cN = i8x16.splat(0);
    let cQa = i8x16.splat(0);
    let cQb = i8x16.splat(0);
    let cPa = i8x16.splat(0);
    let cPb = i8x16.splat(0);
    let cHh = i8x16.splat(0);
    let cUnlike = i8x16.splat(0);
    do {
      const ca = v128.load(a + s);
      const cb = v128.load(b + s);
      const ha = v128.load(a1 + s);
      const hb = v128.load(b1 + s);
      const pa = v128.load(a2 + s);
      const pb = v128.load(b2 + s);
      const hh = v128.and(ha, hb);
      cN = i8x16.add(cN, i8x16.popcnt(v128.and(ca, cb)));
      cQa = i8x16.add(cQa, i8x16.popcnt(v128.and(ha, cb)));
      cQb = i8x16.add(cQb, i8x16.popcnt(v128.and(hb, ca)));
      cPa = i8x16.add(cPa, i8x16.popcnt(v128.and(pa, cb)));
      cPb = i8x16.add(cPb, i8x16.popcnt(v128.and(pb, ca)));
      cHh = i8x16.add(cHh, i8x16.popcnt(hh));
      cUnlike = i8x16.add(cUnlike, i8x16.popcnt(v128.and(hh, v128.xor(pa, pb))));
      s += 16;
    } while (<u32>s < <u32>stop);
    wN = i32x4.add(wN, widened(cN));
    wQa = i32x4.add(wQa, widened(cQa));
    wQb = i32x4.add(wQb, widened(cQb));
    wPa = i32x4.add(wPa, widened(cPa));
    wPb = i32x4.add(wPb, widened(cPb));
    wHh = i32x4.add(wHh, widened(cHh));
    wUnlike = i32x4.add(wUnlike, widened(cUnlike));
  }
  store<i32>(out, total(wN));
  store<i32>(out, total(wQa), 4);
  store<i32>(out, total(wQb), 8);
  store<i32>(out, total(wPa), 12);
  store<i32>(out, total(wPb), 16);
  store<i32>(out, total(wHh), 20);
  store<i32>(out, total(wUnlike), 24);
}
