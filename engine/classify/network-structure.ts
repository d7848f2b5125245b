import type { CategoricalData } from './categorical.ts';

/** Bayesian-network classifier structures: the class is a parent of every feature. */
export type { StructureKind } from '../util/choices.ts';

/** Feature parents of every feature (besides the class). */
export type Parents = readonly Int32Array[];

/** Each feature's column (feature-major, cols[i · N + row]; kept per dataset: a search reads every pair). */
const columnsCache = new WeakMap<CategoricalData, Int16Array>();

function columnsOf(d: CategoricalData): Int16Array {
  let cols = columnsCache.get(d);
  if (!cols) {
    const { N, n, values } = d;
    cols = new Int16Array(N * n);
    for (let r = 0; r < N; r++) for (let i = 0; i < n; i++) cols[i * N + r] = values[r * n + i]!;
    columnsCache.set(d, cols);
  }
  return cols;
}

/** Count tables up to this many (class, x_i, x_j) cells are dense; beyond, sparse. */
const DENSE_CMI_CELLS = 1 << 16;

/** Dense counts of conditionalMI, zero between calls (grown as needed; calls are synchronous). */
let cmiScratch = { joint: new Int32Array(0), ya: new Int32Array(0), yb: new Int32Array(0), y0: new Int32Array(0) };
let cmiTouched = new Int32Array(0);

/**
 * Empirical I(X_i; X_j | C) (nats) from the labelled rows where both are observed. The (c, x_i,
 * x_j) cells that occur are summed in the order the rows first fill them; tables are dense when
 * small (SNPs) and sparse otherwise, so features with many states, such as microsatellite
 * genotypes, cost O(N) per pair rather than K·r_i·r_j.
 */
export function conditionalMI(d: CategoricalData, i: number, j: number): number {
  const ri = d.states[i]!;
  const rj = d.states[j]!;
  const K = d.classes.length;
  const cols = columnsOf(d);
  const N = d.N;
  if (K * ri * rj > DENSE_CMI_CELLS) return sparseConditionalMI(d, cols, i, j);
  if (cmiScratch.joint.length < K * ri * rj || cmiScratch.ya.length < K * ri || cmiScratch.yb.length < K * rj) {
    const size = Math.max(K * ri * rj, cmiScratch.joint.length);
    const side = Math.max(K * Math.max(ri, rj), cmiScratch.ya.length);
    cmiScratch = {
      joint: new Int32Array(size),
      ya: new Int32Array(side),
      yb: new Int32Array(side),
      y0: new Int32Array(K),
    };
  }
  if (cmiScratch.y0.length < K) cmiScratch.y0 = new Int32Array(K);
  if (cmiTouched.length < Math.min(N, K * ri * rj)) cmiTouched = new Int32Array(N);
  const { joint, ya, yb, y0 } = cmiScratch;
  const touched = cmiTouched;
  const labels = d.labels;
  const ci = i * N;
  const cj = j * N;
  let cells = 0;
  let total = 0;
  for (let r = 0; r < N; r++) {
    const y = labels[r]!;
    const a = cols[ci + r]!;
    const b = cols[cj + r]!;
    if (y < 0 || a < 0 || b < 0) continue;
    const key = (y * ri + a) * rj + b;
    const before = joint[key]!;
    joint[key] = before + 1;
    if (before === 0) touched[cells++] = key;
    ya[y * ri + a]!++;
    yb[y * rj + b]!++;
    y0[y]!++;
    total++;
  }
  let s = 0;
  for (let t = 0; t < cells; t++) {
    const key = touched[t]!;
    const x = joint[key]!;
    joint[key] = 0;
    if (total === 0) continue;
    const b = key % rj;
    const ya_ = (key - b) / rj;
    const a = ya_ % ri;
    const y = (ya_ - a) / ri;
    s += (x / total) * Math.log((x * y0[y]!) / (ya[y * ri + a]! * yb[y * rj + b]!));
  }
  ya.fill(0, 0, K * ri);
  yb.fill(0, 0, K * rj);
  y0.fill(0, 0, K);
  if (total === 0) return 0;
  return Math.max(0, s);
}

/** {@link conditionalMI} with Maps of the cells that occur (features with many states). */
function sparseConditionalMI(d: CategoricalData, cols: Int16Array, i: number, j: number): number {
  const ri = d.states[i]!;
  const rj = d.states[j]!;
  const N = d.N;
  const joint = new Map<number, number>();
  const ya = new Map<number, number>();
  const yb = new Map<number, number>();
  const y0 = new Map<number, number>();
  let total = 0;
  const inc = (m: Map<number, number>, k: number) => m.set(k, (m.get(k) ?? 0) + 1);
  for (let r = 0; r < N; r++) {
    const y = d.labels[r]!;
    const a = cols[i * N + r]!;
    const b = cols[j * N + r]!;
    if (y < 0 || a < 0 || b < 0) continue;
    inc(joint, (y * ri + a) * rj + b);
    inc(ya, y * ri + a);
    inc(yb, y * rj + b);
    inc(y0, y);
    total++;
  }
  if (total === 0) return 0;
  let s = 0;
  for (const [key, x] of joint) {
    const b = key % rj;
    const ya_ = (key - b) / rj;
    const a = ya_ % ri;
    const y = (ya_ - a) / ri;
    s += (x / total) * Math.log((x * y0.get(y)!) / (ya.get(y * ri + a)! * yb.get(y * rj + b)!));
  }
  return Math.max(0, s);
}

/** Empirical I(X_i; C) (nats). */
export function classMI(d: CategoricalData, i: number): number {
  const K = d.classes.length;
  const r = d.states[i]!;
  const t = new Float64Array(K * r);
  let total = 0;
  for (let row = 0; row < d.N; row++) {
    const y = d.labels[row]!;
    const a = d.values[row * d.n + i]!;
    if (y < 0 || a < 0) continue;
    t[y * r + a]!++;
    total++;
  }
  let s = 0;
  for (let y = 0; y < K; y++) {
    let ny = 0;
    for (let a = 0; a < r; a++) ny += t[y * r + a]!;
    for (let a = 0; a < r; a++) {
      let na = 0;
      for (let z = 0; z < K; z++) na += t[z * r + a]!;
      const x = t[y * r + a]!;
      if (x > 0) s += (x / total) * Math.log((x * total) / (ny * na));
    }
  }
  return Math.max(0, s);
}

/**
 * TAN (Friedman et al. 1997): the maximum spanning tree of I(X_i; X_j | C) (Prim's algorithm,
 * rooted at feature 0, ties to the lower index), each feature's tree parent added to the class.
 */
export function tanParents(
  d: CategoricalData,
  weight: (i: number, j: number) => number = (i, j) => conditionalMI(d, i, j),
): Parents {
  const n = d.n;
  const parents: Int32Array[] = Array.from({ length: n }, () => new Int32Array(0));
  if (n < 2) return parents;
  const w = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) w[i * n + j] = w[j * n + i] = weight(i, j);
  const inTree = new Uint8Array(n);
  const best = new Float64Array(n).fill(-Infinity);
  const from = new Int32Array(n).fill(-1);
  inTree[0] = 1;
  for (let j = 1; j < n; j++) {
    best[j] = w[j]!;
    from[j] = 0;
  }
  for (let step = 1; step < n; step++) {
    let pick = -1;
    for (let j = 0; j < n; j++) if (!inTree[j] && (pick < 0 || best[j]! > best[pick]!)) pick = j;
    inTree[pick] = 1;
    parents[pick] = Int32Array.of(from[pick]!);
    for (let j = 0; j < n; j++)
      if (!inTree[j] && w[pick * n + j]! > best[j]!) {
        best[j] = w[pick * n + j]!;
        from[j] = pick;
      }
  }
  return parents;
}

/**
 * kDB (Sahami 1996): features ordered by I(X_i; C); each takes as parents the (up to) k earlier
 * features with the highest I(X_i; X_j | C).
 */
export function kdbParents(d: CategoricalData, k: number): Parents {
  const order = sahamiOrder(d);
  const parents: Int32Array[] = Array.from({ length: d.n }, () => new Int32Array(0));
  order.forEach((i, pos) => {
    const earlier = order
      .slice(0, pos)
      .map((j) => ({ j, w: conditionalMI(d, i, j) }))
      .sort((a, b) => b.w - a.w || a.j - b.j);
    parents[i] = Int32Array.from(earlier.slice(0, k).map((e) => e.j));
  });
  return parents;
}

/** kDB's feature order (Sahami 1996): decreasing I(X_i; C), ties to the lower index. */
export function sahamiOrder(d: CategoricalData): number[] {
  const mi = Array.from({ length: d.n }, (_, i) => classMI(d, i));
  return Array.from({ length: d.n }, (_, i) => i).sort((a, b) => mi[b]! - mi[a]! || a - b);
}
