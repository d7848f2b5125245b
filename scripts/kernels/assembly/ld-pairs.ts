// AssemblyScript source of linkage pruning's pair counts (engine/data/ld-pair-counts.ts): two
// diploid loci held as bit planes — called, homozygous, homozygous for the major allele — give the
// seven popcounts r² needs over the individuals called at both, 128 individuals a step with SIMD
// (i8x16.popcnt into byte counters, widened to 32 bits every 31 steps, before a byte could
// overflow); the same integers as the JavaScript fallback's 32-bit popcounts. Compiled by
// scripts/kernels/wasm-ld-pairs.mjs into engine/data/generated/ld-pairs-wasm.ts.
// Not TypeScript for tsc: i32, u32, u64, v128, load, store and popcnt are AssemblyScript's.

/** Steps of 16 bytes between widenings: a byte counter gains at most 8 a step (31 · 8 < 256). */
const STEPS: i32 = 31;

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

/** Bytes before a slot's planes: its called individuals, homozygotes, major homozygotes, and missing ones listed (−1: too many to list). */
const HEADER: i32 = 16;

/** Called (a code other than 01) at the even bits, from the codes' low and high bits there. */
@inline function calledBits(lo: v128, hi: v128): v128 {
  return v128.and(v128.or(v128.not(lo), hi), i8x16.splat(0x55));
}

/**
 * A locus's PLINK .bed codes for n individuals at src (two bits a genotype, low first: 00
 * homozygous for allele 0, 01 missing, 10 heterozygous, 11 homozygous for allele 1; read 32 bytes
 * at a time, genotypes past the n-th ignored) become a slot at dst: a header, then three planes
 * (called, homozygous, homozygous for the major allele, `bytes` each: 128 individuals a 16 bytes),
 * then the positions of the uncalled individuals when there are at most `cap` of them. Genotypes
 * are not at bit i of the planes but in the order the codes give them (the 32 bytes of 128
 * genotypes: the first 16 bytes' at even bits, the next 16's at odd bits) — the same order for
 * every locus, so popcounts of pairs are unchanged. `mask` holds the last 128 genotypes' valid
 * bits in that order. The major allele is allele 1 when it has more copies; writes the i32s called,
 * homozygotes for allele 0, for allele 1 to out.
 */
export function packedPlanes(src: i32, n: i32, dst: i32, bytes: i32, cap: i32, mask: i32, out: i32): void {
  const c0 = dst + HEADER;
  const h0 = c0 + bytes;
  const p0 = h0 + bytes;
  const list = p0 + bytes;
  const even = i8x16.splat(0x55);
  let called: i32 = 0;
  let n0: i32 = 0;
  let n1: i32 = 0;
  let missing: i32 = 0;
  for (let k: i32 = 0; k < bytes; k += 16) {
    const x = v128.load(src + (k << 1));
    const y = v128.load(src + (k << 1), 16);
    const xl = v128.and(x, even);
    const xh = v128.and(i64x2.shr_u(x, 1), even);
    const yl = v128.and(y, even);
    const yh = v128.and(i64x2.shr_u(y, 1), even);
    // Called: not 01; homozygous for allele 0: 00; for allele 1: 11.
    let c = v128.or(calledBits(xl, xh), i64x2.shl(calledBits(yl, yh), 1));
    let a0 = v128.or(v128.andnot(even, v128.or(xl, xh)), i64x2.shl(v128.andnot(even, v128.or(yl, yh)), 1));
    let a1 = v128.or(v128.and(xl, xh), i64x2.shl(v128.and(yl, yh), 1));
    // Genotypes past the n-th neither called nor homozygous, nor uncalled.
    const valid = k + 16 == bytes ? v128.load(mask) : i8x16.splat(-1);
    c = v128.and(c, valid);
    a0 = v128.and(a0, valid);
    a1 = v128.and(a1, valid);
    v128.store(c0 + k, c);
    v128.store(h0 + k, a0);
    v128.store(p0 + k, a1);
    called += <i32>(popcnt(i64x2.extract_lane(c, 0)) + popcnt(i64x2.extract_lane(c, 1)));
    n0 += <i32>(popcnt(i64x2.extract_lane(a0, 0)) + popcnt(i64x2.extract_lane(a0, 1)));
    n1 += <i32>(popcnt(i64x2.extract_lane(a1, 0)) + popcnt(i64x2.extract_lane(a1, 1)));
    // The uncalled individuals' positions, while there are few enough.
    if (missing >= 0) {
      const uncalled = v128.andnot(valid, c);
      let m = i64x2.extract_lane(uncalled, 0);
      let position: i32 = k << 3;
      for (let half = 0; half < 2; half++) {
        while (m != 0 && missing >= 0) {
          if (missing == cap) missing = -1;
          else {
            store<i32>(list + (missing << 2), position + <i32>ctz(m));
            missing++;
            m &= m - 1;
          }
        }
        m = i64x2.extract_lane(uncalled, 1);
        position += 64;
      }
    }
  }
  // Homozygous = either homozygote; the third plane keeps the major allele's.
  const allele1 = n1 > n0;
  for (let k: i32 = 0; k < bytes; k += 16) {
    const hom0 = v128.load(h0 + k);
    const hom1 = v128.load(p0 + k);
    v128.store(h0 + k, v128.or(hom0, hom1));
    if (!allele1) v128.store(p0 + k, hom0);
  }
  store<i32>(dst, called);
  store<i32>(dst, n0 + n1, 4);
  store<i32>(dst, allele1 ? n1 : n0, 8);
  store<i32>(dst, missing, 12);
  store<i32>(out, called);
  store<i32>(out, n0, 4);
  store<i32>(out, n1, 8);
}

/** Whether bit `position` of the plane at `plane` is set (1 or 0). */
@inline function bit(plane: i32, position: i32): i32 {
  return (load<i32>(plane + ((position >>> 5) << 2)) >>> (position & 31)) & 1;
}

/**
 * The seven counts of `counts` for two slots made by packedPlanes (slots at a and b, planes
 * `bytes` each, n individuals): where both list their uncalled individuals, only |Ha ∧ Hb| and
 * |Ha ∧ Hb ∧ (Pa ⊕ Pb)| are counted over the planes (homozygous implies called); the rest come
 * from the slots' totals less what the other's uncalled individuals take away. Else `counts`.
 */
export function pair(a: i32, b: i32, bytes: i32, n: i32, out: i32): void {
  const ma = load<i32>(a, 12);
  const mb = load<i32>(b, 12);
  const ca = a + HEADER;
  const cb = b + HEADER;
  if (ma < 0 || mb < 0) {
    counts(ca, cb, bytes, out);
    return;
  }
  const ha = ca + bytes;
  const hb = cb + bytes;
  const pa = ha + bytes;
  const pb = hb + bytes;
  let wHh = i32x4.splat(0);
  let wUnlike = i32x4.splat(0);
  let s: i32 = 0;
  while (s < bytes) {
    let stop = s + 16 * STEPS;
    if (stop > bytes) stop = bytes;
    let cHh = i8x16.splat(0);
    let cUnlike = i8x16.splat(0);
    do {
      const hh = v128.and(v128.load(ha + s), v128.load(hb + s));
      cHh = i8x16.add(cHh, i8x16.popcnt(hh));
      cUnlike = i8x16.add(cUnlike, i8x16.popcnt(v128.and(hh, v128.xor(v128.load(pa + s), v128.load(pb + s)))));
      s += 16;
    } while (s < stop);
    wHh = i32x4.add(wHh, widened(cHh));
    wUnlike = i32x4.add(wUnlike, widened(cUnlike));
  }
  // b's uncalled individuals at a: called, homozygous, homozygous for the major allele.
  let calledA: i32 = 0;
  let haOut: i32 = 0;
  let paOut: i32 = 0;
  const listB = pb + bytes;
  for (let k: i32 = 0; k < mb; k++) {
    const i = load<i32>(listB + (k << 2));
    calledA += bit(ca, i);
    haOut += bit(ha, i);
    paOut += bit(pa, i);
  }
  let hbOut: i32 = 0;
  let pbOut: i32 = 0;
  const listA = pa + bytes;
  for (let k: i32 = 0; k < ma; k++) {
    const i = load<i32>(listA + (k << 2));
    hbOut += bit(hb, i);
    pbOut += bit(pb, i);
  }
  // Called at both: n less a's uncalled and those of b's uncalled that a called.
  store<i32>(out, n - ma - calledA);
  store<i32>(out, load<i32>(a, 4) - haOut, 4);
  store<i32>(out, load<i32>(b, 4) - hbOut, 8);
  store<i32>(out, load<i32>(a, 8) - paOut, 12);
  store<i32>(out, load<i32>(b, 8) - pbOut, 16);
  store<i32>(out, total(wHh), 20);
  store<i32>(out, total(wUnlike), 24);
}


/**
 * Whether the pair's r² exceeds `r2` (1 or 0), from its seven counts (pair; written to out too),
 * in PLINK's form (n·Σxy − ΣxΣy)² > r2 · (n·Σx² − (Σx)²)(n·Σy² − (Σy)²) with x, y ∈ {−1, 0, 1},
 * in the same double-precision operations as ld-prune.ts's exceedsSums.
 */
export function linked(a: i32, b: i32, bytes: i32, n: i32, r2: f64, out: i32): i32 {
  pair(a, b, bytes, n, out);
  const both = <f64>load<i32>(out);
  const qa = load<i32>(out, 4);
  const qb = load<i32>(out, 8);
  const sa = <f64>(2 * load<i32>(out, 12) - qa);
  const sb = <f64>(2 * load<i32>(out, 16) - qb);
  const dot = <f64>(load<i32>(out, 20) - 2 * load<i32>(out, 24));
  const cov = dot * both - sa * sb;
  const va = <f64>qa * both - sa * sa;
  const vb = <f64>qb * both - sb * sb;
  return i32(cov * cov > r2 * va * vb);
}

