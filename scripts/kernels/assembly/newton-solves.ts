// AssemblyScript source of the admixture model's Newton solves: F's per locus (f-newton.ts's
// solveLocus) and Q's per individual with its certain steps applied (q-newton.ts's solveStep and
// the loop over individuals in qNewtonStep), the same operations in the same order, so the same
// bits. Compiled by scripts/kernels/wasm-newton-solves.mjs into engine/model/admixture/newton-solves-wasm.ts;
// the module shares the memory of the admixture passes (wasm-passes.ts) and reads the gradients
// and Hessians where their derivative passes left them. Not TypeScript for tsc: f64, i32, usize,
// load, store and @inline are AssemblyScript's.

const PARAMETER_FLOOR: f64 = 1e-9;
const MAX_ROUNDS: i32 = 8;
const CERTAIN_RATIO: f64 = 0.5;

@inline function f(ptr: usize, i: i32): f64 {
  return load<f64>(ptr + ((<usize>i) << 3));
}
@inline function setF(ptr: usize, i: i32, v: f64): void {
  store<f64>(ptr + ((<usize>i) << 3), v);
}
@inline function n32(ptr: usize, i: i32): i32 {
  return load<i32>(ptr + ((<usize>i) << 2));
}
@inline function setN32(ptr: usize, i: i32, v: i32): void {
  store<i32>(ptr + ((<usize>i) << 2), v);
}
@inline function u8at(ptr: usize, i: i32): i32 {
  return <i32>load<u8>(ptr + <usize>i);
}
@inline function setU8(ptr: usize, i: i32, v: i32): void {
  store<u8>(ptr + <usize>i, <u8>v);
}

/** cholesky.ts's choleskyInPlace on the n × n matrix at M. */
function choleskyInPlace(M: usize, n: i32): bool {
  for (let j = 0; j < n; j++) {
    let s = f(M, j * n + j);
    for (let p = 0; p < j; p++) {
      const x = f(M, j * n + p);
      s -= x * x;
    }
    if (!(s > 0)) return false;
    const d = Math.sqrt(s);
    setF(M, j * n + j, d);
    for (let r = j + 1; r < n; r++) {
      let t = f(M, r * n + j);
      for (let p = 0; p < j; p++) t -= f(M, r * n + p) * f(M, j * n + p);
      setF(M, r * n + j, t / d);
    }
  }
  return true;
}

/** cholesky.ts's choleskySolve. */
function choleskySolve(M: usize, n: i32, b: usize, out: usize): void {
  for (let r = 0; r < n; r++) {
    let t = f(b, r);
    for (let p = 0; p < r; p++) t -= f(M, r * n + p) * f(out, p);
    setF(out, r, t / f(M, r * n + r));
  }
  for (let r = n - 1; r >= 0; r--) {
    let t = f(out, r);
    for (let p = r + 1; p < n; p++) t -= f(M, p * n + r) * f(out, p);
    setF(out, r, t / f(M, r * n + r));
  }
}

/** cholesky.ts's choleskyInverse into out (n × n). */
function choleskyInverse(M: usize, n: i32, out: usize, W: usize): void {
  for (let j = 0; j < n; j++) {
    setF(W, j * n + j, 1 / f(M, j * n + j));
    for (let i = j + 1; i < n; i++) {
      let t: f64 = 0;
      for (let p = j; p < i; p++) t -= f(M, i * n + p) * f(W, p * n + j);
      setF(W, i * n + j, t / f(M, i * n + i));
    }
  }
  for (let x = 0; x < n; x++)
    for (let y = 0; y <= x; y++) {
      let t: f64 = 0;
      for (let p = x; p < n; p++) t += f(W, p * n + x) * f(W, p * n + y);
      setF(out, x * n + y, t);
      setF(out, y * n + x, t);
    }
}

// Scratch regions, from `scratch` for a locus of A alleles at K (set by solveLocus).
let step: usize = 0;
let full: usize = 0;
let inverse: usize = 0;
let bs: usize = 0;
let schur: usize = 0;
let rhs: usize = 0;
let lambda: usize = 0;
let target: usize = 0;
let matrix: usize = 0;
let triangle: usize = 0;
let solved: usize = 0;
let bv: usize = 0;
let freeOf: usize = 0;
let freeCount: usize = 0;
let pinned: usize = 0;
let changed: usize = 0;

/** Bytes of scratch a locus of at most A alleles needs at K (the step first: A × K doubles). */
export function scratchBytes(K: i32, A: i32): i32 {
  return 8 * (2 * A * K + 2 * A * K * K + 3 * K * K + 5 * K) + 4 * (A * K + A) + A * K + A;
}

/** Allele a's free clusters, b_a and the inverse of its free block (solveLocus's factorAllele); false if singular. */
function factorAllele(K: i32, a: i32, g: usize): bool {
  const KK = K * K;
  const u = a * KK;
  let n = 0;
  for (let k = 0; k < K; k++) if (!u8at(pinned, a * K + k)) setN32(freeOf, a * K + n++, k);
  setN32(freeCount, a, n);
  if (n == 0) return true;
  let trace: f64 = 0;
  for (let x = 0; x < n; x++) {
    const k = n32(freeOf, a * K + x);
    trace += f(full, u + k * K + k);
  }
  const ridge = 1e-10 * trace + 1e-300;
  for (let x = 0; x < n; x++) {
    const k = n32(freeOf, a * K + x);
    let v = f(g, a * K + k);
    if (n < K) for (let m = 0; m < K; m++) if (u8at(pinned, a * K + m)) v -= f(full, u + k * K + m) * f(step, a * K + m);
    setF(bs, a * K + x, v);
    for (let y = 0; y < n; y++)
      setF(matrix, x * n + y, f(full, u + k * K + n32(freeOf, a * K + y)) + (x == y ? ridge : 0));
  }
  if (!choleskyInPlace(matrix, n)) return false;
  choleskyInverse(matrix, n, inverse + ((<usize>u) << 3), triangle);
  return true;
}

/**
 * Locus step into the scratch's first A × K doubles: F (the locus's rows, A × K), g (their
 * gradient rows), h (their packed Hessian triangles). Returns 0 (no step), 1 (certain), 2 (to check).
 */
export function solveLocus(K: i32, A: i32, F: usize, g: usize, h: usize, scratch: usize): i32 {
  const T = (K * (K + 1)) >> 1;
  const KK = K * K;
  step = scratch;
  full = step + ((<usize>(A * K)) << 3);
  inverse = full + ((<usize>(A * KK)) << 3);
  bs = inverse + ((<usize>(A * KK)) << 3);
  schur = bs + ((<usize>(A * K)) << 3);
  matrix = schur + ((<usize>KK) << 3);
  triangle = matrix + ((<usize>KK) << 3);
  rhs = triangle + ((<usize>KK) << 3);
  lambda = rhs + ((<usize>K) << 3);
  target = lambda + ((<usize>K) << 3);
  solved = target + ((<usize>K) << 3);
  bv = solved + ((<usize>K) << 3);
  freeOf = bv + ((<usize>K) << 3);
  freeCount = freeOf + ((<usize>(A * K)) << 2);
  pinned = freeCount + ((<usize>A) << 2);
  changed = pinned + <usize>(A * K);
  for (let a = 0; a < A; a++) {
    const u = a * KK;
    let t = a * T;
    for (let k = 0; k < K; k++)
      for (let m = 0; m <= k; m++, t++) {
        const x = f(h, t);
        setF(full, u + k * K + m, x);
        setF(full, u + m * K + k, x);
      }
  }
  const pinBelow: f64 = PARAMETER_FLOOR * (1 + 1e-9);
  for (let e = 0; e < A * K; e++) setU8(pinned, e, f(F, e) <= pinBelow ? 1 : 0);
  for (let a = 0; a < A; a++) setU8(changed, a, 1);
  let kkt = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    memory.fill(schur, 0, (<usize>KK) << 3);
    memory.fill(rhs, 0, (<usize>K) << 3);
    memory.fill(target, 0, (<usize>K) << 3);
    for (let a = 0; a < A; a++)
      for (let k = 0; k < K; k++) {
        const d: f64 = u8at(pinned, a * K + k) ? PARAMETER_FLOOR - f(F, a * K + k) : 0;
        setF(step, a * K + k, d);
        setF(target, k, f(target, k) - d);
      }
    for (let a = 0; a < A; a++) {
      if (u8at(changed, a) == 1) {
        if (!factorAllele(K, a, g)) return 0;
        setU8(changed, a, 0);
      }
      const n = n32(freeCount, a);
      const base = a * KK;
      const fa = a * K;
      for (let x = 0; x < n; x++) {
        const row = n32(freeOf, fa + x) * K;
        let u: f64 = 0;
        for (let y = 0; y < n; y++) {
          const m = f(inverse, base + x * n + y);
          const c = row + n32(freeOf, fa + y);
          setF(schur, c, f(schur, c) + m);
          u += m * f(bs, fa + y);
        }
        const r = n32(freeOf, fa + x);
        setF(rhs, r, f(rhs, r) + u);
      }
    }
    let trace: f64 = 0;
    for (let k = 0; k < K; k++) trace += f(schur, k * K + k);
    for (let k = 0; k < K; k++) {
      for (let m = 0; m < K; m++) setF(matrix, k * K + m, f(schur, k * K + m));
      setF(matrix, k * K + k, f(matrix, k * K + k) + (1e-12 * trace + 1e-300));
      setF(bv, k, f(rhs, k) - f(target, k));
    }
    if (!choleskyInPlace(matrix, K)) return 0;
    choleskySolve(matrix, K, bv, lambda);
    let blocked = false;
    for (let a = 0; a < A; a++) {
      const n = n32(freeCount, a);
      const base = a * KK;
      const fa = a * K;
      for (let x = 0; x < n; x++) setF(bv, x, f(bs, fa + x) - f(lambda, n32(freeOf, fa + x)));
      for (let x = 0; x < n; x++) {
        let d: f64 = 0;
        for (let y = 0; y < n; y++) d += f(inverse, base + x * n + y) * f(bv, y);
        setF(solved, x, d);
      }
      for (let x = 0; x < n; x++) {
        const k = n32(freeOf, fa + x);
        setF(step, fa + k, f(solved, x));
        if (f(F, a * K + k) + f(solved, x) < PARAMETER_FLOOR) {
          setU8(pinned, fa + k, 1);
          setU8(changed, a, 1);
          blocked = true;
        }
      }
    }
    if (blocked) continue;
    let released = false;
    for (let a = 0; a < A; a++) {
      if (n32(freeCount, a) == K) continue;
      const u = a * KK;
      for (let k = 0; k < K; k++) {
        if (!u8at(pinned, a * K + k)) continue;
        let residual = f(g, a * K + k);
        for (let m = 0; m < K; m++) residual -= f(full, u + k * K + m) * f(step, a * K + m);
        const l = f(lambda, k);
        if (residual - l > 1e-9 * Math.abs(l)) {
          setU8(pinned, a * K + k, 0);
          setU8(changed, a, 1);
          released = true;
        }
      }
    }
    if (released) continue;
    kkt = true;
    break;
  }
  let t: f64 = 1;
  for (let e = 0; e < A * K; e++) {
    const x = f(F, e) + f(step, e);
    if (x < PARAMETER_FLOOR) t = Math.min(t, (f(F, e) - PARAMETER_FLOOR) / -f(step, e));
  }
  let ascent: f64 = 0;
  let ratio: f64 = 0;
  for (let e = 0; e < A * K; e++) {
    const s = f(step, e) * t;
    setF(step, e, s);
    ascent += f(g, e) * s;
    ratio = Math.max(ratio, Math.abs(s) / f(F, e));
  }
  if (!(ascent > 0)) return 0;
  return kkt && t == 1 && ratio <= CERTAIN_RATIO ? 1 : 2;
}

// Q's solve per individual (q-newton.ts's solveStep): scratch from qScratch.
let qMatrix: usize = 0;
let qRhs: usize = 0;
let qOnes: usize = 0;
let qU: usize = 0;
let qV: usize = 0;
let qFree: usize = 0;
let qPinned: usize = 0;

/** Bytes of scratch Q's solve needs at K. */
export function qScratchBytes(K: i32): i32 {
  return 8 * (K * K + 4 * K) + 4 * K + K;
}

@inline function tri(h: usize, k: i32, m: i32): f64 {
  return k >= m ? f(h, (k * (k + 1)) / 2 + m) : f(h, (m * (m + 1)) / 2 + k);
}

/** solveStep for individual i: 0 no step, 1 certain (KKT met), 2 a feasible step that may not be. */
function qSolveStep(i: i32, K: i32, Q: usize, gradient: usize, hessian: usize, step: usize): i32 {
  const T = (K * (K + 1)) >> 1;
  const h = hessian + ((<usize>(i * T)) << 3);
  const qi = i * K;
  const pinBelow: f64 = PARAMETER_FLOOR * (1 + 1e-9);
  for (let k = 0; k < K; k++) setU8(qPinned, k, f(Q, qi + k) <= pinBelow ? 1 : 0);
  for (let round = 0; round < 3 * K; round++) {
    let n = 0;
    for (let k = 0; k < K; k++) if (!u8at(qPinned, k)) setN32(qFree, n++, k);
    if (n == 0) return 0;
    let target: f64 = 0;
    for (let k = 0; k < K; k++) {
      const d: f64 = u8at(qPinned, k) ? PARAMETER_FLOOR - f(Q, qi + k) : 0;
      setF(step, qi + k, d);
      target -= d;
    }
    let trace: f64 = 0;
    for (let x = 0; x < n; x++) trace += tri(h, n32(qFree, x), n32(qFree, x));
    const ridge = 1e-12 * trace + 1e-300;
    for (let x = 0; x < n; x++) {
      const k = n32(qFree, x);
      let b = f(gradient, qi + k);
      for (let m = 0; m < K; m++) if (u8at(qPinned, m)) b -= tri(h, k, m) * f(step, qi + m);
      setF(qRhs, x, b);
      setF(qOnes, x, 1);
      for (let y = 0; y < n; y++) setF(qMatrix, x * n + y, tri(h, k, n32(qFree, y)) + (x == y ? ridge : 0));
    }
    if (!choleskyInPlace(qMatrix, n)) return 0;
    choleskySolve(qMatrix, n, qRhs, qU);
    choleskySolve(qMatrix, n, qOnes, qV);
    let su: f64 = 0;
    let sv: f64 = 0;
    for (let x = 0; x < n; x++) {
      su += f(qU, x);
      sv += f(qV, x);
    }
    const mu = (su - target) / sv;
    let blocked = false;
    for (let x = 0; x < n; x++) {
      const k = n32(qFree, x);
      const d = f(qU, x) - mu * f(qV, x);
      setF(step, qi + k, d);
      if (f(Q, qi + k) + d < PARAMETER_FLOOR) {
        setU8(qPinned, k, 1);
        blocked = true;
      }
    }
    if (blocked) continue;
    let release = -1;
    let most = 1e-9 * Math.abs(mu);
    for (let k = 0; k < K; k++) {
      if (!u8at(qPinned, k)) continue;
      let m = f(gradient, qi + k);
      for (let c = 0; c < K; c++) m -= tri(h, k, c) * f(step, qi + c);
      if (m - mu > most) {
        release = k;
        most = m - mu;
      }
    }
    if (release >= 0 && round < 3 * K - 1) {
      setU8(qPinned, release, 0);
      continue;
    }
    let ascent: f64 = 0;
    for (let k = 0; k < K; k++) ascent += f(gradient, qi + k) * f(step, qi + k);
    if (!(ascent > 0)) return 0;
    return release >= 0 ? 2 : 1;
  }
  return 0;
}

/**
 * qNewtonStep's loop over individuals: for each with pending[i] = 1 (the others: no copies, or
 * fixed), its step into `step`; a certain step with every |Δ_k| ≤ CERTAIN_RATIO q_k is applied to
 * Q (renormalised), any other feasible ascent step leaves pending[i] = 1 to be checked; the rest
 * pending[i] = 0. Returns how many are left to check.
 */
export function qSolve(
  N: i32,
  K: i32,
  Q: usize,
  gradient: usize,
  hessian: usize,
  step: usize,
  pending: usize,
  scratch: usize,
): i32 {
  qMatrix = scratch;
  qRhs = qMatrix + ((<usize>(K * K)) << 3);
  qOnes = qRhs + ((<usize>K) << 3);
  qU = qOnes + ((<usize>K) << 3);
  qV = qU + ((<usize>K) << 3);
  qFree = qV + ((<usize>K) << 3);
  qPinned = qFree + ((<usize>K) << 2);
  let checks = 0;
  for (let i = 0; i < N; i++) {
    if (!u8at(pending, i)) continue;
    setU8(pending, i, 0);
    const solved = qSolveStep(i, K, Q, gradient, hessian, step);
    if (solved == 0) continue;
    let ratio: f64 = 0;
    if (solved == 1)
      for (let k = 0; k < K; k++) ratio = Math.max(ratio, Math.abs(f(step, i * K + k)) / f(Q, i * K + k));
    if (solved == 1 && ratio <= CERTAIN_RATIO) {
      for (let k = 0; k < K; k++) setF(Q, i * K + k, f(Q, i * K + k) + 1 * f(step, i * K + k));
      let sum: f64 = 0;
      for (let k = 0; k < K; k++) {
        const x = Math.max(PARAMETER_FLOOR, f(Q, i * K + k));
        setF(Q, i * K + k, x);
        sum += x;
      }
      for (let k = 0; k < K; k++) setF(Q, i * K + k, f(Q, i * K + k) / sum);
    } else {
      setU8(pending, i, 1);
      checks++;
    }
  }
  return checks;
}

/**
 * fNewtonStep's loop of solves over a block's loci l0 ≤ l < l1 (f-newton.ts's locusStep up to its
 * checks): each locus's solveLocus, its step applied to F where certain (applyLocus at t = 1: floored,
 * each cluster's frequencies renormalised), kept in `steps` (at the locus's block rows) where it is
 * to be checked. `offs`: per locus its first row of F (int32, L + 1); g and h: the block's gradient
 * and Hessian rows from rowBase; `status` per locus of the block: 0 no step, 1 applied, 2 to check,
 * 3 more than mostAlleles alleles (not solved here). Returns how many are 2 or 3.
 */
export function fSolveBlock(
  K: i32,
  mostAlleles: i32,
  l0: i32,
  l1: i32,
  offs: usize,
  rowBase: i32,
  F: usize,
  g: usize,
  h: usize,
  scratch: usize,
  status: usize,
  steps: usize,
): i32 {
  const T = (K * (K + 1)) >> 1;
  let left = 0;
  for (let l = l0; l < l1; l++) {
    const r = n32(offs, l);
    const A = n32(offs, l + 1) - r;
    if (A > mostAlleles) {
      setU8(status, l - l0, 3);
      left++;
      continue;
    }
    const Fl = F + ((<usize>(r * K)) << 3);
    const b = r - rowBase;
    const solved = solveLocus(K, A, Fl, g + ((<usize>(b * K)) << 3), h + ((<usize>(b * T)) << 3), scratch);
    setU8(status, l - l0, solved);
    if (solved == 1) {
      for (let k = 0; k < K; k++) {
        let sum: f64 = 0;
        for (let a = 0; a < A; a++) {
          const x = Math.max(PARAMETER_FLOOR, f(Fl, a * K + k) + 1 * f(scratch, a * K + k));
          setF(Fl, a * K + k, x);
          sum += x;
        }
        for (let a = 0; a < A; a++) setF(Fl, a * K + k, f(Fl, a * K + k) / sum);
      }
    } else if (solved == 2) {
      memory.copy(steps + ((<usize>(b * K)) << 3), scratch, (<usize>(A * K)) << 3);
      left++;
    }
  }
  return left;
}
