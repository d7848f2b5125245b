/**
 * SQUAREM's extrapolation, scheme S3 (Varadhan & Roland 2008) with steps of at least one EM step,
 * as the projections use it: from θ0 and two EM steps θ1, θ2, r = θ1 − θ0, v = θ2 − 2θ1 + θ0,
 * α = −max(1, ‖r‖/‖v‖) and θ′ = θ0 − 2αr + α²v into `out`. False (out untouched) when v = 0.
 */
export function squaremPoint(t0: Float64Array, t1: Float64Array, t2: Float64Array, out: Float64Array): boolean {
  const n = t0.length;
  let rr = 0;
  let vv = 0;
  for (let m = 0; m < n; m++) {
    const d = t1[m]! - t0[m]!;
    const v = t2[m]! - 2 * t1[m]! + t0[m]!;
    rr += d * d;
    vv += v * v;
  }
  if (!(vv > 0)) return false;
  const alpha = Math.min(-1, -Math.sqrt(rr / vv));
  for (let m = 0; m < n; m++) {
    const d = t1[m]! - t0[m]!;
    const v = t2[m]! - 2 * t1[m]! + t0[m]!;
    out[m] = t0[m]! - 2 * alpha * d + alpha * alpha * v;
  }
  return true;
}
