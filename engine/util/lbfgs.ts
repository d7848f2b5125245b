/** Options of {@link maximizeLbfgs}. */
export interface LbfgsOptions {
  readonly maxIterations: number;
  /** Stop when an iteration raises the objective by less than this fraction of its size. */
  readonly tolerance: number;
  /** How many (s, y) pairs the inverse-Hessian estimate keeps. */
  readonly memory: number;
}

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k]! * b[k]!;
  return s;
};

/**
 * Maximises a smooth objective by limited-memory BFGS (Nocedal & Wright, Algorithm 7.4) with a
 * backtracking line search that only accepts steps satisfying the Armijo condition, so the value
 * never decreases along the iterations (`trace`: the value at the start and after every
 * iteration). `evaluate` returns the value and gradient at a point.
 */
export function maximizeLbfgs(
  x0: Float64Array,
  evaluate: (x: Float64Array) => { value: number; grad: Float64Array },
  o: LbfgsOptions,
): { x: Float64Array; value: number; trace: number[] } {
  let x = Float64Array.from(x0);
  let cur = evaluate(x);
  const trace = [cur.value];
  const S: Float64Array[] = [];
  const Y: Float64Array[] = [];
  for (let it = 0; it < o.maxIterations; it++) {
    // Two-loop recursion for the ascent direction H·g.
    const q = Float64Array.from(cur.grad);
    const alphas: number[] = [];
    for (let k = S.length - 1; k >= 0; k--) {
      const rho = 1 / dot(Y[k]!, S[k]!);
      const a = rho * dot(S[k]!, q);
      alphas[k] = a;
      for (let j = 0; j < q.length; j++) q[j]! -= a * Y[k]![j]!;
    }
    if (S.length > 0) {
      const last = S.length - 1;
      const gamma = dot(S[last]!, Y[last]!) / dot(Y[last]!, Y[last]!);
      for (let j = 0; j < q.length; j++) q[j]! *= gamma;
    } else {
      const norm = Math.sqrt(dot(q, q)) || 1;
      for (let j = 0; j < q.length; j++) q[j]! /= norm;
    }
    for (let k = 0; k < S.length; k++) {
      const rho = 1 / dot(Y[k]!, S[k]!);
      const b = rho * dot(Y[k]!, q);
      for (let j = 0; j < q.length; j++) q[j]! += S[k]![j]! * (alphas[k]! - b);
    }
    // For a maximisation with Y = g_old − g_new (positive curvature), q is an ascent direction.
    let slope = dot(q, cur.grad);
    if (!(slope > 0)) {
      q.set(cur.grad);
      slope = dot(q, q);
      S.length = 0;
      Y.length = 0;
    }
    let step = 1;
    let next: { value: number; grad: Float64Array } | undefined;
    let xNew = x;
    for (let ls = 0; ls < 40; ls++) {
      xNew = Float64Array.from(x, (v, j) => v + step * q[j]!);
      const cand = evaluate(xNew);
      if (cand.value >= cur.value + 1e-4 * step * slope) {
        next = cand;
        break;
      }
      step /= 2;
    }
    if (!next) break;
    const s = Float64Array.from(xNew, (v, j) => v - x[j]!);
    const y = Float64Array.from(cur.grad, (g, j) => g - next!.grad[j]!);
    if (dot(s, y) > 1e-12) {
      S.push(s);
      Y.push(y);
      if (S.length > o.memory) {
        S.shift();
        Y.shift();
      }
    }
    const gain = next.value - cur.value;
    x = xNew;
    cur = next;
    trace.push(cur.value);
    if (gain <= o.tolerance * Math.max(1, Math.abs(cur.value))) break;
  }
  return { x, value: cur.value, trace };
}
