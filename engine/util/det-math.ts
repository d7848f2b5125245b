/**
 * ln and exp that give the same bits in every JavaScript engine. `Math.log` and `Math.exp` are
 * not specified to the last bit and differ between V8 versions: Node 20 (V8 11.3) and Chromium
 * 156 disagree in the last bit on about 2% of ln and 10% of exp values, which was enough for the
 * same seeds to reach different optima in the app and on the command line. These are fdlibm's
 * algorithms (e_log.c, e_exp.c) written with IEEE additions, multiplications and divisions only,
 * which every engine rounds the same way; error below one ulp.
 */

// The two 32-bit words of a double through one buffer (word order found once: little-endian on
// every platform the app runs on, checked rather than assumed).
const f64 = new Float64Array(1);
const i32 = new Int32Array(f64.buffer);
f64[0] = 1;
const HI = i32[1] === 0x3ff00000 ? 1 : 0;
const LO = 1 - HI;
const highWord = (x: number): number => {
  f64[0] = x;
  return i32[HI]!;
};
const withHighWord = (x: number, hi: number): number => {
  f64[0] = x;
  i32[HI] = hi;
  return f64[0]!;
};
const lowWord = (x: number): number => {
  f64[0] = x;
  return i32[LO]!;
};

const LN2_HI = 6.9314718036912381649e-1;
const LN2_LO = 1.90821492927058770002e-10;
const TWO54 = 1.8014398509481984e16;
const LG1 = 6.66666666666673513e-1;
const LG2 = 3.999999999940941908e-1;
const LG3 = 2.857142874366239149e-1;
const LG4 = 2.222219843214978396e-1;
const LG5 = 1.818357216161805012e-1;
const LG6 = 1.531383769920937332e-1;
const LG7 = 1.479819860511658591e-1;

/** ln x, the same in every engine (fdlibm's __ieee754_log). */
export function detLog(x: number): number {
  let hx = highWord(x);
  let k = 0;
  if (hx < 0x00100000) {
    if (((hx & 0x7fffffff) | lowWord(x)) === 0) return -Infinity;
    if (hx < 0) return NaN;
    k -= 54;
    x *= TWO54;
    hx = highWord(x);
  }
  if (hx >= 0x7ff00000) return x + x;
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i = (hx + 0x95f64) & 0x100000;
  x = withHighWord(x, hx | (i ^ 0x3ff00000));
  k += i >> 20;
  const f = x - 1;
  if ((0x000fffff & (2 + hx)) < 3) {
    if (f === 0) return k === 0 ? 0 : k * LN2_HI + k * LN2_LO;
    const R = f * f * (0.5 - 0.33333333333333333 * f);
    return k === 0 ? f - R : k * LN2_HI - (R - k * LN2_LO - f);
  }
  const s = f / (2 + f);
  const z = s * s;
  const w = z * z;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  const R = t2 + t1;
  if (((hx - 0x6147a) | (0x6b851 - hx)) > 0) {
    const hfsq = 0.5 * f * f;
    return k === 0 ? f - (hfsq - s * (hfsq + R)) : k * LN2_HI - (hfsq - (s * (hfsq + R) + k * LN2_LO) - f);
  }
  return k === 0 ? f - s * (f - R) : k * LN2_HI - (s * (f - R) - k * LN2_LO - f);
}

const INV_LN2 = 1.442695040888963387;
const P1 = 1.66666666666666019037e-1;
const P2 = -2.77777777770155933842e-3;
const P3 = 6.61375632143793436117e-5;
const P4 = -1.6533902205465251539e-6;
const P5 = 4.13813679705723846039e-8;
/** 2^k for k = −1074 … 1023, each exact (built by halving and doubling). */
const POW2 = (() => {
  const t = new Float64Array(1023 + 1074 + 1);
  t[1074] = 1;
  for (let k = 1; k <= 1023; k++) t[1074 + k] = t[1074 + k - 1]! * 2;
  for (let k = 1; k <= 1074; k++) t[1074 - k] = t[1074 - k + 1]! / 2;
  return t;
})();

/** e^x, the same in every engine (fdlibm's __ieee754_exp). */
export function detExp(x: number): number {
  if (!(x === x)) return NaN;
  if (x > 7.09782712893383973096e2) return Infinity;
  if (x < -7.4513321910194110842e2) return 0;
  if (Math.abs(x) < 3.725290298461914e-9) return 1 + x;
  const k = Math.floor(x * INV_LN2 + 0.5);
  const hi = x - k * LN2_HI;
  const lo = k * LN2_LO;
  const r = hi - lo;
  const t = r * r;
  const c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  const y = 1 - (lo - (r * c) / (2 - c) - hi);
  // Results below 2^−1022 are scaled in two exact steps so that only the last one rounds.
  if (k < -1021) return y * POW2[1074 + k + 54]! * POW2[1074 - 54]!;
  if (k > 1023) return y * 2 * POW2[1074 + k - 1]!;
  return y * POW2[1074 + k]!;
}

/** ln(1 + x), the same in every engine (Goldberg's correction of the rounding of 1 + x). */
export function detLog1p(x: number): number {
  const u = 1 + x;
  if (u === 1) return x;
  return (detLog(u) * x) / (u - 1);
}

/** x^y for x > 0, the same in every engine. */
export function detPow(x: number, y: number): number {
  return detExp(y * detLog(x));
}

const HALF_LN_2PI = 0.9189385332046728;

/**
 * ln Γ(x) for x > 0, the same in every engine: the recurrence Γ(x) = Γ(x + n)/(x(x+1)…(x+n−1))
 * up to x ≥ 10, then Stirling's series to the x⁻¹¹ term (truncation below 10⁻¹⁵).
 */
export function detLogGamma(x: number): number {
  if (!(x > 0)) return x === 0 ? Infinity : NaN;
  if (x === Infinity) return Infinity;
  let prod = 1;
  while (x < 10) {
    prod *= x;
    x += 1;
  }
  const z = 1 / x;
  const z2 = z * z;
  const series =
    z * (1 / 12 - z2 * (1 / 360 - z2 * (1 / 1260 - z2 * (1 / 1680 - z2 * (1 / 1188 - z2 * (691 / 360360))))));
  const stirling = (x - 0.5) * detLog(x) - x + HALF_LN_2PI + series;
  return prod === 1 ? stirling : stirling - detLog(prod);
}
