/**
 * The eigenvalues alone of a symmetric n × n matrix (row-major; both triangles read), ascending:
 * Householder reduction to tridiagonal form, then the implicit QL iteration on it — JAMA's tred2
 * and tql2 (as ml-matrix's EigenvalueDecomposition runs them) without the accumulation of the
 * transformations, which is most of their cost (about a fifth of the work at n = 300). For the
 * convergence tests of PCA's Krylov iterations (analysis/pca.ts), where the vectors are needed
 * only once, at the end.
 */
export function symmetricEigenvalues(matrix: Float64Array, n: number): Float64Array {
  const a = Float64Array.from(matrix);
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  if (n === 0) return d;
  tridiagonalise(a, n, d, e);
  qlValues(n, d, e);
  return d.sort();
}

/** √(x² + y²) without overflow or destructive underflow (as ml-matrix's). */
function hypotenuse(x: number, y: number): number {
  if (Math.abs(x) > Math.abs(y)) {
    const r = y / x;
    return Math.abs(x) * Math.sqrt(1 + r * r);
  }
  if (y !== 0) {
    const r = x / y;
    return Math.abs(y) * Math.sqrt(1 + r * r);
  }
  return 0;
}

/** tred2's reduction of `a` (overwritten): the tridiagonal's diagonal in d, its subdiagonal in e[1..n). */
function tridiagonalise(a: Float64Array, n: number, d: Float64Array, e: Float64Array): void {
  for (let j = 0; j < n; j++) d[j] = a[j * n + n - 1]!;
  for (let i = n - 1; i > 0; i--) {
    let scale = 0;
    let h = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(d[k]!);
    if (scale === 0) {
      e[i] = d[i - 1]!;
      for (let j = 0; j < i; j++) d[j] = a[j * n + i - 1]!;
    } else {
      for (let k = 0; k < i; k++) {
        d[k]! /= scale;
        h += d[k]! * d[k]!;
      }
      let f = d[i - 1]!;
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      for (let j = 0; j < i; j++) e[j] = 0;
      for (let j = 0; j < i; j++) {
        f = d[j]!;
        g = e[j]! + a[j * n + j]! * f;
        for (let k = j + 1; k <= i - 1; k++) {
          g += a[j * n + k]! * d[k]!;
          e[k]! += a[j * n + k]! * f;
        }
        e[j] = g;
      }
      f = 0;
      for (let j = 0; j < i; j++) {
        e[j]! /= h;
        f += e[j]! * d[j]!;
      }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j]! -= hh * d[j]!;
      for (let j = 0; j < i; j++) {
        f = d[j]!;
        g = e[j]!;
        for (let k = j; k <= i - 1; k++) a[j * n + k]! -= f * e[k]! + g * d[k]!;
        d[j] = a[j * n + i - 1]!;
      }
    }
    d[i] = h;
  }
  // tred2 reads the diagonal back after accumulating; without accumulation it is the reduced a's.
  for (let j = 0; j < n; j++) d[j] = a[j * n + j]!;
  e[0] = 0;
}

/** tql2's implicit QL iteration on the tridiagonal (d, e), the eigenvalues left in d. */
function qlValues(n: number, d: Float64Array, e: Float64Array): void {
  for (let i = 1; i < n; i++) e[i - 1] = e[i]!;
  e[n - 1] = 0;
  let f = 0;
  let tst1 = 0;
  const eps = Number.EPSILON;
  for (let l = 0; l < n; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l]!) + Math.abs(e[l]!));
    let m = l;
    while (m < n && Math.abs(e[m]!) > eps * tst1) m++;
    if (m > l) {
      do {
        let g = d[l]!;
        let p = (d[l + 1]! - g) / (2 * e[l]!);
        let r = hypotenuse(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l]! / (p + r);
        d[l + 1] = e[l]! * (p + r);
        const dl1 = d[l + 1]!;
        let h = g - d[l]!;
        for (let i = l + 2; i < n; i++) d[i]! -= h;
        f += h;
        p = d[m]!;
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1]!;
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i]!;
          h = c * p;
          r = hypotenuse(p, e[i]!);
          e[i + 1] = s * r;
          s = e[i]! / r;
          c = p / r;
          p = c * d[i]! - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]!);
        }
        p = (-s * s2 * c3 * el1 * e[l]!) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]!) > eps * tst1);
    }
    d[l]! += f;
    e[l] = 0;
  }
}
