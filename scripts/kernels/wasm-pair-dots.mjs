// The fit check's one N² × markers loop (engine/analysis/pair-dots.ts): dot products of float32
// residual rows, four rows of one matrix against a row of the other at a time (each loaded value
// used four times), four floats a step with f32x4 (WebAssembly SIMD), summed in float32 over
// chunks of 256 floats and then in float64 (so the rounding of long sums stays at float64's).
//
// Export, over the imported memory "env" "memory" (byte addresses; n floats, a multiple of 4, > 0):
//   dots4(a, row, b, n, out): out[r] = Σ_s A_r[s] · B[s] (f64), A_r the n floats at a + r·row, r < 4,
//                             B the n floats at b.
// Assembled with wabt (its wat2wasm, compiled to JavaScript).
import { watBase64 } from './wat.mjs';

const ROWS = [0, 1, 2, 3];
const get = (name) => `(local.get $${name})`;
/** 256 floats a chunk, in bytes. */
const CHUNK = 1024;

export const pairDotsWat = `
(module
  (import "env" "memory" (memory 1))
  (func (export "dots4") (param $a i32) (param $row i32) (param $b i32) (param $n i32) (param $out i32)
    (local $s i32) (local $stop i32) (local $end i32) (local $v v128)
    ${ROWS.map((r) => `(local $a${r} i32) (local $x${r} v128) (local $y${r} v128)`).join(' ')}
    ${ROWS.map((r) => `(local.set $a${r} (i32.add ${get('a')} (i32.mul ${get('row')} (i32.const ${r}))))`).join('\n    ')}
    (local.set $stop (i32.shl ${get('n')} (i32.const 2)))
    (block $done
      (loop $chunks
        (br_if $done (i32.ge_u ${get('s')} ${get('stop')}))
        (local.set $end (i32.add ${get('s')} (i32.const ${CHUNK})))
        (if (i32.gt_u ${get('end')} ${get('stop')}) (then (local.set $end ${get('stop')})))
        ${ROWS.map((r) => `(local.set $x${r} (v128.const f32x4 0 0 0 0))`).join('\n        ')}
        (loop $inner
          (local.set $v (v128.load (i32.add ${get('b')} ${get('s')})))
          ${ROWS.map(
            (r) =>
              `(local.set $x${r} (f32x4.add ${get(`x${r}`)} (f32x4.mul (v128.load (i32.add ${get(`a${r}`)} ${get('s')})) ${get('v')})))`,
          ).join('\n          ')}
          (local.set $s (i32.add ${get('s')} (i32.const 16)))
          (br_if $inner (i32.lt_u ${get('s')} ${get('end')})))
        ${ROWS.map(
          (r) =>
            `(local.set $y${r} (f64x2.add ${get(`y${r}`)} (f64x2.add (f64x2.promote_low_f32x4 ${get(`x${r}`)}) (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 ${get(`x${r}`)} ${get(`x${r}`)})))))`,
        ).join('\n        ')}
        (br $chunks)))
    ${ROWS.map(
      (r) =>
        `(f64.store offset=${r * 8} ${get('out')} (f64.add (f64x2.extract_lane 0 ${get(`y${r}`)}) (f64x2.extract_lane 1 ${get(`y${r}`)})))`,
    ).join('\n    ')}))
`;

/** The assembled module, base64. */
export function pairDotsBase64() {
  return watBase64('pair-dots.wat', pairDotsWat, true);
}
