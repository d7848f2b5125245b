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
