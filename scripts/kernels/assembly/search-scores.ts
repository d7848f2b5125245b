// AssemblyScript source of the structure searches' kernels: ACL's local score with
// maximum-likelihood parameters for dense tables of at most two parents (engine/classify/
// local-scores.ts's LocalScorer.conditionalScore, its written-out case: the same operations in the
// same order, so the same bits), and BCkG's search for one feature in one call (aclSearch:
// counting rows, the same bits; searchBits: on bit sets, ACL, LL, BIC, K2). Compiled by
// scripts/kernels/wasm-search-scores.mjs into engine/classify/generated/search-scores-wasm.ts; the module
// imports its memory, where engine/classify/search-kernel.ts places the scorer's arrays. Not
// TypeScript for tsc: f64, i32, usize, load and store are AssemblyScript's.

/**
 * JavaScript's Math.log, imported ("env" "log"): the JavaScript scorer's logarithms bit for bit,
 * and no table of AssemblyScript's own in the imported memory (whose layout the caller owns).
 */
@external("env", "log")
declare function ln(x: f64): f64;

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
 * The ACL terms of the nConfigs configurations counted in table (listed in touched, marked in
 * counted), summed in the order they were first met; leaves table and counted zeroed.
 */
@inline function scoreCounted(
  table: usize,
  counted: usize,
  touched: usize,
  nConfigs: i32,
  M: usize,
  weights: usize,
  wAt: i32,
  lnInt: usize,
  r: i32,
  K: i32,
): f64 {
  const width = K * r;
  let s: f64 = 0;
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
  return scoreCounted(table, counted, touched, nConfigs, M, weights, i * K, lnInt, r, K);
}

/** Counts the rows of one candidate set into table (configurations by first appearance); returns how many configurations. */
@inline function countRows(
  codes0: usize,
  codes1: usize,
  np: i32,
  radix0: i32,
  nRows: i32,
  cells: usize,
  width: i32,
  table: usize,
  counted: usize,
  touched: usize,
): i32 {
  let nConfigs = 0;
  for (let t = 0; t < nRows; t++) {
    const at = (<usize>t) << 1;
    const q =
      np == 0 ? 0 : np == 1 ? <i32>load<u16>(codes0 + at) : <i32>load<u16>(codes1 + at) * radix0 + <i32>load<u16>(codes0 + at);
    const cq = counted + ((<usize>q) << 2);
    if (load<i32>(cq) == 0) {
      store<i32>(cq, 1);
      store<i32>(touched + ((<usize>nConfigs) << 2), q);
      nConfigs++;
    }
    const cell = table + ((<usize>(q * width + n32(cells, t))) << 2);
    store<i32>(cell, load<i32>(cell) + 1);
  }
  return nConfigs;
}

/**
 * BCkG's search for feature i (bckg.ts's bckgParents, k ≤ 2) in one call: every subset of at most
 * k of the pos candidates (cand: i32 feature indices in BFS order) in lexicographic order of
 * positions, scored as aclScore scores it (the same bits), the first best kept unless a later one
 * beats it by more than 1e-12. states: i32 states per feature; codes: u16 scratch of pos × nRows
 * (each candidate's states on i's rows); cells: i32 scratch of nRows (class · r + state of i per
 * row); out: i32 [size, position, position] of the best subset. Returns its score. The caller
 * keeps every pair's table dense ((states + 1)² · K · r cells within the scratch).
 */
export function aclSearch(
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
  r: i32,
  K: i32,
  k: i32,
  cand: usize,
  pos: i32,
  states: usize,
  codes: usize,
  cells: usize,
  out: usize,
): f64 {
  const width = K * r;
  const wAt = i * K;
  const xi = i * N;
  for (let t = 0; t < nRows; t++) {
    const row = n32(rows, t);
    store<i32>(cells + ((<usize>t) << 2), n32(labels, row) * r + col(cols, xi + row));
  }
  const stride = (<usize>nRows) << 1;
  for (let j = 0; j < pos; j++) {
    const at = n32(cand, j) * N;
    const dst = codes + (<usize>j) * stride;
    for (let t = 0; t < nRows; t++) store<u16>(dst + ((<usize>t) << 1), <u16>col(cols, at + n32(rows, t)));
  }
  let nConfigs = countRows(0, 0, 0, 1, nRows, cells, width, table, counted, touched);
  let best = scoreCounted(table, counted, touched, nConfigs, M, weights, wAt, lnInt, r, K);
  let size = 0;
  let b0 = 0;
  let b1 = 0;
  if (k >= 1)
    for (let j = 0; j < pos; j++) {
      const c0 = codes + (<usize>j) * stride;
      nConfigs = countRows(c0, 0, 1, 1, nRows, cells, width, table, counted, touched);
      const s1 = scoreCounted(table, counted, touched, nConfigs, M, weights, wAt, lnInt, r, K);
      if (s1 > best + 1e-12) {
        best = s1;
        size = 1;
        b0 = j;
      }
      if (k < 2) continue;
      const radix0 = n32(states, n32(cand, j)) + 1;
      for (let j2 = j + 1; j2 < pos; j2++) {
        const c1 = codes + (<usize>j2) * stride;
        nConfigs = countRows(c0, c1, 2, radix0, nRows, cells, width, table, counted, touched);
        const s2 = scoreCounted(table, counted, touched, nConfigs, M, weights, wAt, lnInt, r, K);
        if (s2 > best + 1e-12) {
          best = s2;
          size = 2;
          b0 = j;
          b1 = j2;
        }
      }
    }
  store<i32>(out, size);
  store<i32>(out + 4, b0);
  store<i32>(out + 8, b1);
  return best;
}

@inline function u64at(ptr: usize, i: i32): u64 {
  return load<u64>(ptr + ((<usize>i) << 3));
}

/** Rows in the set of W words at bits (ANDed with mask's unless mask is 0). */
@inline function count(bits: usize, mask: usize, W: i32): i32 {
  if (W == 2) {
    // Up to 128 rows (most panels' training sets), written out.
    if (mask == 0) return <i32>(popcnt<u64>(u64at(bits, 0)) + popcnt<u64>(u64at(bits, 1)));
    return <i32>(popcnt<u64>(u64at(bits, 0) & u64at(mask, 0)) + popcnt<u64>(u64at(bits, 1) & u64at(mask, 1)));
  }
  if (W == 1) return <i32>popcnt<u64>(mask == 0 ? u64at(bits, 0) : u64at(bits, 0) & u64at(mask, 0));
  let n = 0;
  if (mask == 0) for (let w = 0; w < W; w++) n += <i32>popcnt<u64>(u64at(bits, w));
  else for (let w = 0; w < W; w++) n += <i32>popcnt<u64>(u64at(bits, w) & u64at(mask, w));
  return n;
}

/**
 * One configuration's ACL terms, written as Σ_{c,x} (a_c n − w_c M_x) ln(n + 1) −
 * Σ_c ln(N_c + r) (a_c N_c − w_c M) (a_c = 1 + w_c; aclScore's sum per configuration, in another
 * order): its cell counts n are popcounts of the row sets at cells (class-major, r states, W
 * words each), ANDed with mask's unless mask is 0. gl: per class, a_c n ln(n + 1) then
 * w_c ln(n + 1) by n; hl: per class, a_c n ln(n + r) then w_c ln(n + r) by n (n1 = nRows + 1
 * values each), zero at n = 0 where a zero count adds nothing. Mx (i32) and lw (f64): r scratch.
 */
@inline function configTerms(
  cells: usize,
  W: i32,
  mask: usize,
  gl: usize,
  hl: usize,
  n1: i32,
  r: i32,
  K: i32,
  Mx: usize,
  lw: usize,
): f64 {
  const bytesW = (<usize>W) << 3;
  let M = 0;
  let acc: f64 = 0;
  let hw: f64 = 0;
  for (let x = 0; x < r; x++) {
    store<i32>(Mx + ((<usize>x) << 2), 0);
    store<f64>(lw + ((<usize>x) << 3), 0);
  }
  for (let c = 0; c < K; c++) {
    const g = 2 * c * n1;
    let nc = 0;
    for (let x = 0; x < r; x++) {
      const n = count(cells + (<usize>(c * r + x)) * bytesW, mask, W);
      nc += n;
      const mx = Mx + ((<usize>x) << 2);
      store<i32>(mx, load<i32>(mx) + n);
      acc += f64at(gl, g + n);
      const l = lw + ((<usize>x) << 3);
      store<f64>(l, load<f64>(l) + f64at(gl, g + n1 + n));
    }
    M += nc;
    acc -= f64at(hl, g + nc);
    hw += f64at(hl, g + n1 + nc);
  }
  if (M == 0) return 0;
  for (let x = 0; x < r; x++) acc -= <f64>n32(Mx, x) * f64at(lw, x);
  return acc + <f64>M * hw;
}

/**
 * Rows in the set at bits ∧ the mask: for two words (W = 2) the mask's words m0, m1 (all ones for
 * no mask), else the mask at mask (0: none).
 */
@inline function count3(bits: usize, W: i32, mask: usize, m0: u64, m1: u64): i32 {
  if (W == 2) return <i32>(popcnt<u64>(load<u64>(bits) & m0) + popcnt<u64>(load<u64>(bits, 8) & m1));
  return count(bits, mask, W);
}

/**
 * configTerms for three states (SNP genotypes), the hot case: the counts, state totals and
 * weights in locals (the mask as count3 takes it). The same sums in the same order as configTerms.
 */
@inline function configTerms3(
  cells: usize,
  W: i32,
  mask: usize,
  m0: u64,
  m1: u64,
  gl: usize,
  hl: usize,
  n1: i32,
  K: i32,
): f64 {
  const bytesW = (<usize>W) << 3;
  let M = 0;
  let acc: f64 = 0;
  let hw: f64 = 0;
  let t0 = 0;
  let t1 = 0;
  let t2 = 0;
  let l0: f64 = 0;
  let l1: f64 = 0;
  let l2: f64 = 0;
  for (let c = 0; c < K; c++) {
    const at = cells + (<usize>(3 * c)) * bytesW;
    const n0 = count3(at, W, mask, m0, m1);
    const n1c = count3(at + bytesW, W, mask, m0, m1);
    const n2 = count3(at + 2 * bytesW, W, mask, m0, m1);
    const nc = n0 + n1c + n2;
    M += nc;
    t0 += n0;
    t1 += n1c;
    t2 += n2;
    const g = 2 * c * n1;
    acc += f64at(gl, g + n0) + f64at(gl, g + n1c) + f64at(gl, g + n2);
    l0 += f64at(gl, g + n1 + n0);
    l1 += f64at(gl, g + n1 + n1c);
    l2 += f64at(gl, g + n1 + n2);
    acc -= f64at(hl, g + nc);
    hw += f64at(hl, g + n1 + nc);
  }
  if (M == 0) return 0;
  return acc - (<f64>t0 * l0 + <f64>t1 * l1 + <f64>t2 * l2) + <f64>M * hw;
}

/**
 * A configuration's terms: configTerms3 for three states, configTerms otherwise (mask 0: none).
 * Two words are configTerms3's hot case: W passed as the constant 2 there, so that count3's
 * branch folds away where this is inlined.
 */
@inline function terms(
  cells: usize,
  W: i32,
  mask: usize,
  gl: usize,
  hl: usize,
  n1: i32,
  r: i32,
  K: i32,
  Mx: usize,
  lw: usize,
): f64 {
  if (r != 3) return configTerms(cells, W, mask, gl, hl, n1, r, K, Mx, lw);
  const all: u64 = ~(<u64>0);
  if (W != 2) return configTerms3(cells, W, mask, all, all, gl, hl, n1, K);
  return mask == 0
    ? configTerms3(cells, 2, 0, all, all, gl, hl, n1, K)
    : configTerms3(cells, 2, 0, load<u64>(mask), load<u64>(mask, 8), gl, hl, n1, K);
}

/**
 * The scores searchBits computes (local-scores.ts's): ACL with ML parameters, LL, BIC, K2 (from
 * tabled functions of whole counts), and âCLL, ACL-Mid, ACL-Max (with logarithms per cell:
 * configTermsLogs).
 */
const ACL = 0;
const LL = 1;
const BIC = 2;
const K2 = 3;
const ACLL = 4;
const ACL_MID = 5;
const ACL_MAX = 6;

/**
 * One configuration's âCLL, ACL-Mid or ACL-Max terms (local-scores.ts's acllConfig and aclConfig:
 * the same operations in the same order per configuration, with JavaScript's logarithm): its
 * cell counts (class-major, r states, popcounts as configTerms takes them) into cnt (i32 K·r), the
 * state totals into Mx (i32 r), then per class. âCLL: w = α n + β (M_x − n), ln max(½, w) from
 * logWeight (by n and M_x, stride apart; 0: computed) less ln Σ_x max(½, w). ACL-Mid/Max: w =
 * n − weight_c (M_x − n), θ ∝ w − min w + 1 (Mid) or max(w, 0) + 1 (Max). wv, th: f64 scratch of r.
 */
@inline function configTermsLogs(
  cells: usize,
  W: i32,
  mask: usize,
  kind: i32,
  r: i32,
  K: i32,
  weights: usize,
  alpha: f64,
  beta: f64,
  logWeight: usize,
  stride: i32,
  cnt: usize,
  Mx: usize,
  wv: usize,
  th: usize,
): f64 {
  const bytesW = (<usize>W) << 3;
  for (let x = 0; x < r; x++) store<i32>(Mx + ((<usize>x) << 2), 0);
  let M = 0;
  for (let c = 0; c < K; c++)
    for (let x = 0; x < r; x++) {
      const n = count(cells + (<usize>(c * r + x)) * bytesW, mask, W);
      store<i32>(cnt + ((<usize>(c * r + x)) << 2), n);
      const mx = Mx + ((<usize>x) << 2);
      store<i32>(mx, load<i32>(mx) + n);
      M += n;
    }
  if (M == 0) return 0;
  let s: f64 = 0;
  for (let c = 0; c < K; c++) {
    if (kind == ACLL) {
      let sum: f64 = 0;
      for (let x = 0; x < r; x++) {
        const own = n32(cnt, c * r + x);
        const v = alpha * <f64>own + beta * <f64>(n32(Mx, x) - own);
        store<f64>(wv + ((<usize>x) << 3), v);
        sum += Math.max(0.5, v);
      }
      const logSum = ln(sum);
      for (let x = 0; x < r; x++) {
        const v = f64at(wv, x);
        if (v == 0) continue;
        const logV =
          logWeight != 0 ? f64at(logWeight, n32(cnt, c * r + x) * stride + n32(Mx, x)) : ln(Math.max(0.5, v));
        s += v * (logV - logSum);
      }
      continue;
    }
    const weight = f64at(weights, c);
    let minDiff = Infinity;
    for (let x = 0; x < r; x++) {
      const own = n32(cnt, c * r + x);
      const diff = <f64>own - weight * <f64>(n32(Mx, x) - own);
      store<f64>(wv + ((<usize>x) << 3), diff);
      if (diff < minDiff) minDiff = diff;
    }
    let sum: f64 = 0;
    for (let x = 0; x < r; x++) {
      const d = f64at(wv, x);
      const t = kind == ACL_MAX ? Math.max(d, 0) + 1 : d - minDiff + 1;
      store<f64>(th + ((<usize>x) << 3), t);
      sum += t;
    }
    const logSum = ln(sum);
    for (let x = 0; x < r; x++) {
      const d = f64at(wv, x);
      if (d != 0) s += d * (ln(f64at(th, x)) - logSum);
    }
  }
  return s;
}

/**
 * BCkG's search for feature i on row sets as bit sets (64 rows a word), for any of the scores
 * (kind): a configuration's cell counts are popcounts of (parent a's state v ∧ class c ∧ state x
 * of i) ∧ (parent b's state u), so a pair costs its configurations' cells times the words, not a
 * pass over the rows — for features of few states (SNP genotypes), where a pass over the rows
 * costs more. ACL, LL, BIC and K2 are written as configTerms sums them, with their functions of
 * whole counts tabled: ACL a_c n ln(n + 1), w_c ln(n + 1), a_c N ln(N + r), w_c ln(N + r); LL and
 * BIC n ln n and N ln N (BIC less ½ ln n · configurations · (r − 1)); K2 ln Γ(1 + n) and
 * ln Γ(r + N) − ln Γ(r). âCLL and ACL-Mid/Max go by configTermsLogs (alpha, beta: âCLL's
 * constants; logWeight: its table of ln max(½, w) by counts, or 0).
 * Subsets are visited as aclSearch visits them, and a subset whose bound (BIC: −its penalty, which
 * grows with every parent; LL: 0) is not above the best is skipped with its extensions, as
 * LocalScorer.bound lets bckg.ts skip them. Configurations in order (v, u), not by first
 * appearance: the same scores as LocalScorer.score to rounding. R: every candidate's states + 1
 * at most; states: i32 per feature. Scratch (filled here): S (K·r·W words: the rows of each class
 * and state of i), B (pos·R·W words: each candidate's rows by state), filled (i32 pos·R: whether
 * each is nonempty), ents (R·K·r·W words: parent a's state ∧ S), gl and hl (f64, 2·K·(nRows + 1)
 * each), Mx (i32 r), lw and th (f64 r), cnt (i32 K·r).
 */
export function searchBits(
  kind: i32,
  cols: usize,
  N: i32,
  rows: usize,
  nRows: i32,
  labels: usize,
  lnInt: usize,
  weights: usize,
  states: usize,
  i: i32,
  r: i32,
  K: i32,
  k: i32,
  cand: usize,
  pos: i32,
  R: i32,
  S: usize,
  B: usize,
  filled: usize,
  ents: usize,
  gl: usize,
  hl: usize,
  Mx: usize,
  lw: usize,
  alpha: f64,
  beta: f64,
  logWeight: usize,
  cnt: usize,
  th: usize,
  out: usize,
): f64 {
  // Sets of at most 128 rows take two words (the second zero up to 64 rows): count3's case.
  const W = nRows <= 128 ? 2 : (nRows + 63) >> 6;
  const bytesW = (<usize>W) << 3;
  const cellsBytes = (<usize>(K * r)) * bytesW;
  memory.fill(S, 0, cellsBytes);
  memory.fill(B, 0, (<usize>(pos * R)) * bytesW);
  memory.fill(filled, 0, (<usize>(pos * R)) << 2);
  const xi = i * N;
  for (let t = 0; t < nRows; t++) {
    const row = n32(rows, t);
    const set = S + (<usize>(n32(labels, row) * r + col(cols, xi + row))) * bytesW + ((<usize>(t >> 6)) << 3);
    store<u64>(set, load<u64>(set) | ((<u64>1) << (<u64>(t & 63))));
  }
  for (let j = 0; j < pos; j++) {
    const at = n32(cand, j) * N;
    for (let t = 0; t < nRows; t++) {
      const u = col(cols, at + n32(rows, t));
      const set = B + (<usize>(j * R + u)) * bytesW + ((<usize>(t >> 6)) << 3);
      store<u64>(set, load<u64>(set) | ((<u64>1) << (<u64>(t & 63))));
      store<i32>(filled + ((<usize>(j * R + u)) << 2), 1);
    }
  }
  const n1 = nRows + 1;
  for (let c = 0; c < (kind >= ACLL ? 0 : K); c++) {
    const w = f64at(weights, i * K + c);
    const a = 1 + w;
    let lnGamma: f64 = 0; // K2: ln Γ(1 + n)
    let lnGammaR: f64 = 0; // K2: ln Γ(r + n) − ln Γ(r)
    for (let n = 0; n <= nRows; n++) {
      let g0: f64 = 0;
      let g1: f64 = 0;
      let h0: f64 = 0;
      let h1: f64 = 0;
      if (kind == ACL) {
        const ln1 = f64at(lnInt, n + 1);
        const lnr = f64at(lnInt, n + r);
        g0 = a * <f64>n * ln1;
        g1 = w * ln1;
        h0 = a * <f64>n * lnr;
        h1 = w * lnr;
      } else if (kind == K2) {
        if (n > 0) {
          lnGamma += f64at(lnInt, n);
          lnGammaR += f64at(lnInt, r + n - 1);
        }
        g0 = lnGamma;
        h0 = lnGammaR;
      } else if (n > 0) {
        g0 = <f64>n * f64at(lnInt, n);
        h0 = g0;
      }
      store<f64>(gl + ((<usize>(2 * c * n1 + n)) << 3), g0);
      store<f64>(gl + ((<usize>(2 * c * n1 + n1 + n)) << 3), g1);
      store<f64>(hl + ((<usize>(2 * c * n1 + n)) << 3), h0);
      store<f64>(hl + ((<usize>(2 * c * n1 + n1 + n)) << 3), h1);
    }
  }
  // BIC's penalty per (class, parents) configuration; a subset's is this times K · Π (states + 1).
  const perConfig: f64 = kind == BIC ? 0.5 * f64at(lnInt, nRows > 1 ? nRows : 1) : 0;
  const stateFactor: f64 = <f64>(r - 1);
  const bounded = kind == BIC || kind == LL;
  const logs = kind >= ACLL;
  const wK = weights + ((<usize>(i * K)) << 3);
  let best =
    (logs
      ? configTermsLogs(S, W, 0, kind, r, K, wK, alpha, beta, logWeight, N + 1, cnt, Mx, lw, th)
      : terms(S, W, 0, gl, hl, n1, r, K, Mx, lw)) -
    perConfig * <f64>K * stateFactor;
  let size = 0;
  let b0 = 0;
  let b1 = 0;
  if (k >= 1)
    for (let j = 0; j < pos; j++) {
      const configs1 = K * (n32(states, n32(cand, j)) + 1);
      const penalty1 = perConfig * <f64>configs1 * stateFactor;
      if (bounded && -penalty1 <= best + 1e-12) continue;
      // Parent j's cells: its state v ∧ each cell of S.
      let s1: f64 = 0;
      for (let v = 0; v < R; v++) {
        if (n32(filled, j * R + v) == 0) continue;
        const bv = B + (<usize>(j * R + v)) * bytesW;
        const dst = ents + (<usize>v) * cellsBytes;
        for (let e = 0; e < K * r; e++) {
          const se = S + (<usize>e) * bytesW;
          const de = dst + (<usize>e) * bytesW;
          for (let w = 0; w < W; w++) store<u64>(de + ((<usize>w) << 3), u64at(se, w) & u64at(bv, w));
        }
        s1 += logs
          ? configTermsLogs(dst, W, 0, kind, r, K, wK, alpha, beta, logWeight, N + 1, cnt, Mx, lw, th)
          : terms(dst, W, 0, gl, hl, n1, r, K, Mx, lw);
      }
      s1 -= penalty1;
      if (s1 > best + 1e-12) {
        best = s1;
        size = 1;
        b0 = j;
      }
      if (k < 2) continue;
      for (let j2 = j + 1; j2 < pos; j2++) {
        const penalty2 = perConfig * <f64>(configs1 * (n32(states, n32(cand, j2)) + 1)) * stateFactor;
        if (bounded && -penalty2 <= best + 1e-12) continue;
        let s2: f64 = 0;
        for (let v = 0; v < R; v++) {
          if (n32(filled, j * R + v) == 0) continue;
          const cells = ents + (<usize>v) * cellsBytes;
          const bv = B + (<usize>(j * R + v)) * bytesW;
          for (let u = 0; u < R; u++) {
            if (n32(filled, j2 * R + u) == 0) continue;
            const mask = B + (<usize>(j2 * R + u)) * bytesW;
            // No row in both states (often with a missing value's few rows): its terms are 0.
            if (W == 2 && ((load<u64>(bv) & load<u64>(mask)) | (load<u64>(bv, 8) & load<u64>(mask, 8))) == 0) continue;
            s2 += logs
              ? configTermsLogs(cells, W, mask, kind, r, K, wK, alpha, beta, logWeight, N + 1, cnt, Mx, lw, th)
              : terms(cells, W, mask, gl, hl, n1, r, K, Mx, lw);
          }
        }
        s2 -= penalty2;
        if (s2 > best + 1e-12) {
          best = s2;
          size = 2;
          b0 = j;
          b1 = j2;
        }
      }
    }
  store<i32>(out, size);
  store<i32>(out + 4, b0);
  store<i32>(out + 8, b1);
  return best;
}
