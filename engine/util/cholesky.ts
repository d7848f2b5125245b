// Small dense symmetric positive-definite systems (the Newton steps' K × K blocks).

/** Cholesky factor (lower, in place) of the n × n row-major matrix; false if not positive definite. */
export function choleskyInPlace(M: Float64Array, n: number): boolean {
  for (let j = 0; j < n; j++) {
    let s = M[j * n + j]!;
    for (let p = 0; p < j; p++) s -= M[j * n + p]! ** 2;
    if (!(s > 0)) return false;
    const d = Math.sqrt(s);
    M[j * n + j] = d;
    for (let r = j + 1; r < n; r++) {
      let t = M[r * n + j]!;
      for (let p = 0; p < j; p++) t -= M[r * n + p]! * M[j * n + p]!;
      M[r * n + j] = t / d;
    }
  }
  return true;
}

/** Solves M x = b into out, M factored by choleskyInPlace. */
export function choleskySolve(M: Float64Array, n: number, b: Float64Array, out: Float64Array): void {
  for (let r = 0; r < n; r++) {
    let t = b[r]!;
    for (let p = 0; p < r; p++) t -= M[r * n + p]! * out[p]!;
    out[r] = t / M[r * n + r]!;
  }
  for (let r = n - 1; r >= 0; r--) {
    let t = out[r]!;
    for (let p = r + 1; p < n; p++) t -= M[p * n + r]! * out[p]!;
    out[r] = t / M[r * n + r]!;
  }
}

/**
 * The inverse of M (n × n, full and symmetric) into out from `offset`, M factored by choleskyInPlace: with
 * M = LLᵀ, M⁻¹ = L⁻ᵀL⁻¹, L⁻¹ formed in `scratch` (n × n) by forward substitution — n³/3 flops in
 * all, against n³ for solving the n unit columns.
 */
export function choleskyInverse(
  M: Float64Array,
  n: number,
  out: Float64Array,
  scratch: Float64Array,
  offset = 0,
): void {
  const W = scratch;
  for (let j = 0; j < n; j++) {
    W[j * n + j] = 1 / M[j * n + j]!;
    for (let i = j + 1; i < n; i++) {
      let t = 0;
      for (let p = j; p < i; p++) t -= M[i * n + p]! * W[p * n + j]!;
      W[i * n + j] = t / M[i * n + i]!;
    }
  }
  for (let x = 0; x < n; x++)
    for (let y = 0; y <= x; y++) {
      let t = 0;
      for (let p = x; p < n; p++) t += W[p * n + x]! * W[p * n + y]!;
      out[offset + x * n + y] = t;
      out[offset + y * n + x] = t;
    }
}

/**
 * The inverse of the symmetric positive-definite n × n M into out from `offset`: choleskyInPlace
 * then choleskyInverse (M is factored in place); false if M is not positive definite. The
 * WebAssembly solves (scripts/kernels/assembly/newton-solves.ts) do the same operations in order.
 */
export function invertPositiveDefinite(
  M: Float64Array,
  n: number,
  out: Float64Array,
  scratch: Float64Array,
  offset = 0,
): boolean {
  if (!choleskyInPlace(M, n)) return false;
  choleskyInverse(M, n, out, scratch, offset);
  return true;
}
