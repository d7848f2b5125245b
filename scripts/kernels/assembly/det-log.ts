// AssemblyScript form of engine/util/det-math.ts's detLog: fdlibm's __ieee754_log without tables,
// the same operations in the same order, so the same bits on every platform (and no data of its
// own in a kernel's memory, as AssemblyScript's Math.log would bring). Imported by the kernels
// that take logarithms (det-math.ts, the two-allele passes). Not TypeScript for tsc: f64, i32,
// u32, u64, reinterpret and @inline are AssemblyScript's.

@inline function highWord(x: f64): i32 {
  return <i32>(reinterpret<u64>(x) >>> 32);
}
@inline function withHighWord(x: f64, hi: i32): f64 {
  return reinterpret<f64>((<u64>(<u32>hi) << 32) | (reinterpret<u64>(x) & 0xffffffff));
}
export function detLog(x: f64): f64 {
  let hx = highWord(x);
  let k: i32 = 0;
  if (hx < 0x00100000) {
    if (((hx & 0x7fffffff) | <i32>(<u32>reinterpret<u64>(x))) == 0) return -Infinity;
    if (hx < 0) return NaN;
    k -= 54;
    x *= 1.8014398509481984e16;
    hx = highWord(x);
  }
  if (hx >= 0x7ff00000) return x + x;
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i = (hx + 0x95f64) & 0x100000;
  x = withHighWord(x, hx | (i ^ 0x3ff00000));
  k += i >> 20;
  const f = x - 1;
  const dk = <f64>k;
  const LN2_HI: f64 = 6.9314718036912381649e-1;
  const LN2_LO: f64 = 1.90821492927058770002e-10;
  if ((0x000fffff & (2 + hx)) < 3) {
    if (f == 0) return k == 0 ? 0 : dk * LN2_HI + dk * LN2_LO;
    const R = f * f * (0.5 - 0.33333333333333333 * f);
    return k == 0 ? f - R : dk * LN2_HI - (R - dk * LN2_LO - f);
  }
  const s = f / (2 + f);
  const z = s * s;
  const w = z * z;
  const t1 = w * (3.999999999940941908e-1 + w * (2.222219843214978396e-1 + w * 1.531383769920937332e-1));
  const t2 = z * (6.66666666666673513e-1 + w * (2.857142874366239149e-1 + w * (1.818357216161805012e-1 + w * 1.479819860511658591e-1)));
  const R = t2 + t1;
  if (((hx - 0x6147a) | (0x6b851 - hx)) > 0) {
    const hfsq = 0.5 * f * f;
    return k == 0 ? f - (hfsq - s * (hfsq + R)) : dk * LN2_HI - (hfsq - (s * (hfsq + R) + dk * LN2_LO) - f);
  }
  return k == 0 ? f - s * (f - R) : dk * LN2_HI - (s * (f - R) - dk * LN2_LO - f);
}
