// AssemblyScript form of engine/util/det-math.ts's detLog and detLogGamma over arrays (fdlibm's
// __ieee754_log and the Stirling log-gamma, the same operations in the same order, so the same
// bits as the JavaScript functions), for engine/util/det-math-bulk.ts. Compiled by
// scripts/kernels/wasm-det-math.mjs into engine/util/generated/det-math-wasm.ts. The module has a
// memory of its own ("memory", grown by the caller); arrays are byte addresses in it, n doubles.
// Not TypeScript for tsc: f64, i32, usize, load and store are AssemblyScript's.
import { detLog } from './det-log';

const HALF_LN_2PI: f64 = 0.9189385332046728;

/** det-math.ts's detLogGamma: ln Γ(x) by Stirling's series after shifting x to 10 or more. */
function logGammaOf(x: f64): f64 {
  if (!(x > 0)) return x == 0 ? Infinity : NaN;
  if (x == Infinity) return Infinity;
  let prod: f64 = 1;
  while (x < 10) {
    prod *= x;
    x += 1;
  }
  const z = 1 / x;
  const z2 = z * z;
  // z(1/12 − z²(1/360 − z²(1/1260 − z²(1/1680 − z²(1/1188 − z²·691/360360)))))
  const series =
    1.0 / 12.0 - z2 * (1.0 / 360.0 - z2 * (1.0 / 1260.0 - z2 * (1.0 / 1680.0 - z2 * (1.0 / 1188.0 - z2 * (691.0 / 360360.0)))));
  const stirling = (x - 0.5) * detLog(x) - x + HALF_LN_2PI + z * series;
  if (prod == 1) return stirling;
  return stirling - detLog(prod);
}

/** dst[j] = detLog(src[j]) for j < n. */
export function log(src: usize, dst: usize, n: i32): void {
  const end = src + ((<usize>n) << 3);
  while (src < end) {
    store<f64>(dst, detLog(load<f64>(src)));
    src += 8;
    dst += 8;
  }
}

/** dst[j] = detLogGamma(shift + src[j]) for j < n. */
export function logGamma(src: usize, dst: usize, n: i32, shift: f64): void {
  const end = src + ((<usize>n) << 3);
  while (src < end) {
    store<f64>(dst, logGammaOf(shift + load<f64>(src)));
    src += 8;
    dst += 8;
  }
}
