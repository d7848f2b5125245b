// engine/util/det-math.ts's detLog as WebAssembly text, for the kernels still written in it (the
// admixture model's passes, wasm-admixture-passes.mjs): fdlibm's __ieee754_log with the same
// operations in the same order (WebAssembly's f64 arithmetic is IEEE's, so the bits equal the
// JavaScript function's). The AssemblyScript kernels import assembly/det-log.ts instead. Constants
// are written as the exact doubles the JavaScript source evaluates to (hexadecimal floats).

/** The exact WebAssembly text of a double (hexadecimal float; finite values only). */
export function hexFloat(x) {
  if (!Number.isFinite(x)) throw new RangeError(`hexFloat: ${x}`);
  if (x === 0) return Object.is(x, -0) ? '-0x0p+0' : '0x0p+0';
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? '-' : '';
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const mantissa = (bits & 0xfffffffffffffn).toString(16).padStart(13, '0');
  return exponent === 0 ? `${sign}0x0.${mantissa}p-1022` : `${sign}0x1.${mantissa}p${exponent - 1023}`;
}

const c = (x) => `(f64.const ${hexFloat(x)})`;
// The constants as det-math.ts spells them.
const LN2_HI = 6.9314718036912381649e-1;
const LN2_LO = 1.90821492927058770002e-10;
const TWO54 = 1.8014398509481984e16;
const LG = [
  6.66666666666673513e-1, 3.999999999940941908e-1, 2.857142874366239149e-1, 2.222219843214978396e-1,
  1.818357216161805012e-1, 1.531383769920937332e-1, 1.479819860511658591e-1,
];

// k·LN2_HI and k·LN2_LO with k an integer held as a double.
const kHi = `(f64.mul (local.get $dk) ${c(LN2_HI)})`;
const kLo = `(f64.mul (local.get $dk) ${c(LN2_LO)})`;

export const logFunction = `
  (func $log (param $x f64) (result f64)
    (local $hx i32) (local $k i32) (local $i i32) (local $dk f64) (local $f f64) (local $R f64)
    (local $s f64) (local $z f64) (local $w f64) (local $hfsq f64)
    (local.set $hx (i32.wrap_i64 (i64.shr_u (i64.reinterpret_f64 (local.get $x)) (i64.const 32))))
    (if (i32.lt_s (local.get $hx) (i32.const 0x00100000))
      (then
        (if (i32.eqz (i32.or (i32.and (local.get $hx) (i32.const 0x7fffffff))
                             (i32.wrap_i64 (i64.reinterpret_f64 (local.get $x)))))
          (then (return (f64.const -inf))))
        (if (i32.lt_s (local.get $hx) (i32.const 0)) (then (return (f64.const nan))))
        (local.set $k (i32.const -54))
        (local.set $x (f64.mul (local.get $x) ${c(TWO54)}))
        (local.set $hx (i32.wrap_i64 (i64.shr_u (i64.reinterpret_f64 (local.get $x)) (i64.const 32))))))
    (if (i32.ge_s (local.get $hx) (i32.const 0x7ff00000))
      (then (return (f64.add (local.get $x) (local.get $x)))))
    (local.set $k (i32.add (local.get $k) (i32.sub (i32.shr_s (local.get $hx) (i32.const 20)) (i32.const 1023))))
    (local.set $hx (i32.and (local.get $hx) (i32.const 0x000fffff)))
    (local.set $i (i32.and (i32.add (local.get $hx) (i32.const 0x95f64)) (i32.const 0x100000)))
    ;; x with its high word replaced by hx | (i ^ 0x3ff00000)
    (local.set $x (f64.reinterpret_i64 (i64.or
      (i64.shl (i64.extend_i32_u (i32.or (local.get $hx) (i32.xor (local.get $i) (i32.const 0x3ff00000)))) (i64.const 32))
      (i64.and (i64.reinterpret_f64 (local.get $x)) (i64.const 0xffffffff)))))
    (local.set $k (i32.add (local.get $k) (i32.shr_s (local.get $i) (i32.const 20))))
    (local.set $dk (f64.convert_i32_s (local.get $k)))
    (local.set $f (f64.sub (local.get $x) (f64.const 1)))
    (if (i32.lt_s (i32.and (i32.const 0x000fffff) (i32.add (i32.const 2) (local.get $hx))) (i32.const 3))
      (then
        (if (f64.eq (local.get $f) (f64.const 0))
          (then
            (if (i32.eqz (local.get $k)) (then (return (f64.const 0))))
            (return (f64.add ${kHi} ${kLo}))))
        (local.set $R (f64.mul (f64.mul (local.get $f) (local.get $f))
          (f64.sub (f64.const 0.5) (f64.mul ${c(0.33333333333333333)} (local.get $f)))))
        (if (i32.eqz (local.get $k)) (then (return (f64.sub (local.get $f) (local.get $R)))))
        (return (f64.sub ${kHi} (f64.sub (f64.sub (local.get $R) ${kLo}) (local.get $f))))))
    (local.set $s (f64.div (local.get $f) (f64.add (f64.const 2) (local.get $f))))
    (local.set $z (f64.mul (local.get $s) (local.get $s)))
    (local.set $w (f64.mul (local.get $z) (local.get $z)))
    ;; R = t2 + t1, t1 = w(LG2 + w(LG4 + w LG6)), t2 = z(LG1 + w(LG3 + w(LG5 + w LG7)))
    (local.set $R (f64.add
      (f64.mul (local.get $z) (f64.add ${c(LG[0])} (f64.mul (local.get $w) (f64.add ${c(LG[2])}
        (f64.mul (local.get $w) (f64.add ${c(LG[4])} (f64.mul (local.get $w) ${c(LG[6])})))))))
      (f64.mul (local.get $w) (f64.add ${c(LG[1])} (f64.mul (local.get $w) (f64.add ${c(LG[3])}
        (f64.mul (local.get $w) ${c(LG[5])})))))))
    (if (i32.gt_s (i32.or (i32.sub (local.get $hx) (i32.const 0x6147a)) (i32.sub (i32.const 0x6b851) (local.get $hx))) (i32.const 0))
      (then
        (local.set $hfsq (f64.mul (f64.mul (f64.const 0.5) (local.get $f)) (local.get $f)))
        (if (i32.eqz (local.get $k))
          (then (return (f64.sub (local.get $f)
            (f64.sub (local.get $hfsq) (f64.mul (local.get $s) (f64.add (local.get $hfsq) (local.get $R))))))))
        (return (f64.sub ${kHi}
          (f64.sub (f64.sub (local.get $hfsq)
            (f64.add (f64.mul (local.get $s) (f64.add (local.get $hfsq) (local.get $R))) ${kLo}))
            (local.get $f))))))
    (if (i32.eqz (local.get $k))
      (then (return (f64.sub (local.get $f) (f64.mul (local.get $s) (f64.sub (local.get $f) (local.get $R)))))))
    (f64.sub ${kHi}
      (f64.sub (f64.sub (f64.mul (local.get $s) (f64.sub (local.get $f) (local.get $R))) ${kLo}) (local.get $f))))`;
