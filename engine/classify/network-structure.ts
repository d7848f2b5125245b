import type { CategoricalData } from './categorical.ts';

/** Bayesian-network classifier structures: the class is a parent of every feature. */
export type { StructureKind } from '../util/choices.ts';

/** Feature parents of every feature (besides the class). */
export type Parents = readonly Int32Array[];

/**
 * Empirical I(X_i; X_j | C) (nats) from the labelled rows where both are observed. Counts are
 * kept sparse (only the (c, x_i, x_j) cells that occur), so features with many states, such as
 * microsatellite genotypes, cost O(N) per pair rather than K·r_i·r_j.
 */
export function conditionalMI(d: CategoricalData, i: number, j: number): number {
  const ri = d.states[i]!;
  const rj = d.states[j]!;
  const joint = new Map<number, number>();
  const ya = new Map<number, number>();
  const yb = new Map<number, number>();
  const y0 = new Map<number, number>();
  let total = 0;
  const inc = (m: Map<number, number>, k: number) => m.set(k, (m.get(k) ?? 0) + 1);
  for (let r = 0; r < d.N; r++) {
    const y = d.labels[r]!;
    const a = d.values[r * d.n + i]!;
    const b = d.values[r * d.n + j]!;
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
