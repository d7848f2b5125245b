// AssemblyScript source of the fit check's one N² × markers loop (engine/analysis/pair-dots.ts):
// dot products of float32 residual rows, four rows of one matrix against a row of the other at a
// time (each loaded value used four times), four floats a step with f32x4, summed in float32 over
// chunks of 256 floats and then in float64 (so the rounding of long sums stays at float64's).
// Compiled by scripts/kernels/wasm-pair-dots.mjs into engine/analysis/generated/pair-dots-wasm.ts.
// Not TypeScript for tsc: i32, f64, v128, load and store are AssemblyScript's.

/** 256 floats a chunk, in bytes. */
const CHUNK: i32 = 1024;

/** The two halves of four float32 sums, widened and added: (x0 + x2, x1 + x3) in float64. */
@inline function widened(x: v128): v128 {
  return f64x2.add(
    f64x2.promote_low_f32x4(x),
    f64x2.promote_low_f32x4(i8x16.shuffle(x, x, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7)),
  );
}

/**
 * out[r] = Σ_s A_r[s] · B[s] (f64) for r < 4: A_r the n floats at a + r·row, B the n floats at b
 * (byte addresses in the imported memory; n a multiple of 4, > 0).
 */
export function dots4(a: i32, row: i32, b: i32, n: i32, out: i32): void {
  const a1 = a + row;
  const a2 = a + row * 2;
  const a3 = a + row * 3;
  const stop = n << 2;
  let y0 = f64x2.splat(0);
  let y1 = f64x2.splat(0);
  let y2 = f64x2.splat(0);
  let y3 = f64x2.splat(0);
  let s: i32 = 0;
  while (s < stop) {
    let end = s + CHUNK;
    if (end > stop) end = stop;
    let x0 = f32x4.splat(0);
    let x1 = f32x4.splat(0);
    let x2 = f32x4.splat(0);
    let x3 = f32x4.splat(0);
    do {
      const v = v128.load(b + s);
      x0 = f32x4.add(x0, f32x4.mul(v128.load(a + s), v));
      x1 = f32x4.add(x1, f32x4.mul(v128.load(a1 + s), v));
      x2 = f32x4.add(x2, f32x4.mul(v128.load(a2 + s), v));
      x3 = f32x4.add(x3, f32x4.mul(v128.load(a3 + s), v));
      s += 16;
    } while (s < end);
    y0 = f64x2.add(y0, widened(x0));
    y1 = f64x2.add(y1, widened(x1));
    y2 = f64x2.add(y2, widened(x2));
    y3 = f64x2.add(y3, widened(x3));
  }
  store<f64>(out, f64x2.extract_lane(y0, 0) + f64x2.extract_lane(y0, 1));
  store<f64>(out, f64x2.extract_lane(y1, 0) + f64x2.extract_lane(y1, 1), 8);
  store<f64>(out, f64x2.extract_lane(y2, 0) + f64x2.extract_lane(y2, 1), 16);
  store<f64>(out, f64x2.extract_lane(y3, 0) + f64x2.extract_lane(y3, 1), 24);
}
