// AssemblyScript source of ACL's local score with maximum-likelihood parameters for dense tables
// of at most two parents (engine/classify/local-scores.ts's LocalScorer.conditionalScore, its
// written-out case): the same operations in the same order, so the same bits. Compiled by
// scripts/kernels/wasm-acl-score.mjs into engine/classify/generated/acl-score-wasm.ts; the module
// imports its memory, where engine/classify/acl-kernel.ts places the scorer's arrays. Not
// TypeScript for tsc: f64, i32, usize, load and store are AssemblyScript's.

@inline function n32(ptr: usize, i: i32): i32 {
  return load<i32>(ptr + ((<usize>i) << 2));
}
@inline function col(ptr: usize, i: i32): i32 {
  return <i32>load<i16>(ptr + ((<usize>i) << 1));
}
@inline function f64at(ptr: usize, i: i32): f64 {
  return load<f64>(ptr + ((<usize>i) << 3));
}

/**
 * φ_i(parents ∪ {C}) under ACL (ML parameters, smoothing 1) for parents p0 (np ≥ 1) and p1
 * (np = 2; radix1: p1's states + 1). cols: the feature-major columns (i16, a missing value as the
 * feature's states); rows: feature i's nRows labelled rows where it is observed; labels: each
 * row's class; lnInt: ln n; weights: restWeights (f64, n × K); table, counted: zeroed i32 scratch
 * of the dense table's cells and configurations (left zeroed); touched: i32 scratch of nRows;
 * M: f64 scratch of r.
 */
export function aclScore(
  cols: usize,
  N: i32,
  rows: usize,
  nRows: i32,
  labels: usize,
  lnInt: usize,
  weights: usize,
  table: usize,
  counted: usize,
  touched: usize,
  M: usize,
  i: i32,
  np: i32,
  p0: i32,
  p1: i32,
  radix1: i32,
  r: i32,
  K: i32,
): f64 {
  const width = K * r;
  const xi = i * N;
  const at0 = np > 0 ? p0 * N : 0;
  const at1 = np > 1 ? p1 * N : 0;
  let nConfigs = 0;
  for (let t = 0; t < nRows; t++) {
    const row = n32(rows, t);
    const q = np == 0 ? 0 : np == 1 ? col(cols, at0 + row) : col(cols, at0 + row) * radix1 + col(cols, at1 + row);
    const cq = counted + ((<usize>q) << 2);
    if (load<i32>(cq) == 0) {
      store<i32>(cq, 1);
      store<i32>(touched + ((<usize>nConfigs) << 2), q);
      nConfigs++;
    }
    const cell = table + ((<usize>(q * width + n32(labels, row) * r + col(cols, xi + row))) << 2);
    store<i32>(cell, load<i32>(cell) + 1);
  }
  let s: f64 = 0;
  const wAt = i * K;
  for (let t = 0; t < nConfigs; t++) {
    const q = n32(touched, t);
    const base = q * width;
    store<i32>(counted + ((<usize>q) << 2), 0);
    // M_x = Σ_c N_cx: the other classes' count of state x is M_x − N_cx.
    for (let x = 0; x < r; x++) {
      let m = 0;
      for (let c = 0; c < K; c++) m += n32(table, base + c * r + x);
      store<f64>(M + ((<usize>x) << 3), <f64>m);
    }
    let sc: f64 = 0;
    for (let c = 0; c < K; c++) {
      const weight = f64at(weights, wAt + c);
      const at = base + c * r;
      let own = 0;
      for (let x = 0; x < r; x++) own += n32(table, at + x);
      const logSum = f64at(lnInt, own + r);
      for (let x = 0; x < r; x++) {
        const n = n32(table, at + x);
        const diff = <f64>n - weight * (f64at(M, x) - <f64>n);
        if (diff != 0) sc += diff * (f64at(lnInt, n + 1) - logSum);
      }
    }
    s += sc;
    for (let x = base; x < base + width; x++) store<i32>(table + ((<usize>x) << 2), 0);
  }
  return s;
}
