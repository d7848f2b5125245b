// Ward's hierarchical clustering of points (rows of an n × d array) and k-means from its cut: the
// deterministic clustering that structured starts begin from (structured-start.ts).

/** One merge of Ward's clustering: clusters `a` and `b` (ids: points 0..n−1, then n + merge index). */
export interface WardMerge {
  readonly a: number;
  readonly b: number;
  /** The increase of the within-cluster sum of squares the merge costs. */
  readonly cost: number;
  /** The merged cluster's id. */
  readonly id: number;
}

/**
 * Ward's minimum-variance clustering by the nearest-neighbour chain (Murtagh 1983): each merge joins
 * the two clusters whose union raises the within-cluster sum of squares least,
 * |A||B| / (|A| + |B|) · ‖c_A − c_B‖², from centroids (memory O(n · d), time O(n² · d)). Returns
 * the n − 1 merges in order of cost (ties by the order found), as a dendrogram cut at any number of
 * clusters (wardCut). Ties between neighbours go to the lower id, so the result is deterministic.
 */
export function wardMerges(points: Float64Array, n: number, d: number): WardMerge[] {
  const centroid = new Float64Array(2 * n * d);
  centroid.set(points.subarray(0, n * d));
  const size = new Float64Array(2 * n);
  size.fill(1, 0, n);
  const active: number[] = Array.from({ length: n }, (_, i) => i);
  const alive = new Uint8Array(2 * n);
  alive.fill(1, 0, n);
  const cost = (x: number, y: number) => {
    let s = 0;
    for (let j = 0; j < d; j++) {
      const t = centroid[x * d + j]! - centroid[y * d + j]!;
      s += t * t;
    }
    return ((size[x]! * size[y]!) / (size[x]! + size[y]!)) * s;
  };
  const merges: WardMerge[] = [];
  const chain: number[] = [];
  let next = n;
  while (merges.length < n - 1) {
    if (chain.length === 0) chain.push(active.find((c) => alive[c] === 1)!);
    const top = chain[chain.length - 1]!;
    const previous = chain.length > 1 ? chain[chain.length - 2]! : -1;
    // Nearest neighbour of the chain's top; the previous link wins ties (the chain then closes).
    let best = previous;
    let bestCost = previous >= 0 ? cost(top, previous) : Infinity;
    for (const c of active) {
      if (c === top || alive[c] !== 1) continue;
      const x = cost(top, c);
      if (x < bestCost || (x === bestCost && c < best && best !== previous)) {
        best = c;
        bestCost = x;
      }
    }
    if (best !== previous) {
      chain.push(best);
      continue;
    }
    // Reciprocal nearest neighbours: merge them.
    chain.length -= 2;
    const m = next++;
    const sa = size[top]!;
    const sb = size[previous]!;
    for (let j = 0; j < d; j++)
      centroid[m * d + j] = (sa * centroid[top * d + j]! + sb * centroid[previous * d + j]!) / (sa + sb);
    size[m] = sa + sb;
    alive[top] = 0;
    alive[previous] = 0;
    alive[m] = 1;
    active.push(m);
    merges.push({ a: Math.min(top, previous), b: Math.max(top, previous), cost: bestCost, id: m });
    if (active.length > 2 * n) compact(active, alive);
  }
  // Ward's clustering is reducible and monotone (a merge never costs less than those that made its
  // clusters), so ordering by cost, ties by the order found, gives the agglomeration's order.
  return merges.sort((x, y) => x.cost - y.cost || x.id - y.id);
}

function compact(active: number[], alive: Uint8Array): void {
  let w = 0;
  for (const c of active) if (alive[c] === 1) active[w++] = c;
  active.length = w;
}

/**
 * The dendrogram cut at each of `counts` clusters: per count, every point's cluster (0..count − 1,
 * numbered by each cluster's first point). Counts above n give every point its own cluster.
 */
export function wardCut(merges: readonly WardMerge[], n: number, counts: readonly number[]): Map<number, Int32Array> {
  const parent = Int32Array.from({ length: 2 * n }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  const out = new Map<number, Int32Array>();
  const record = (clusters: number) => {
    if (!counts.includes(clusters) || out.has(clusters)) return;
    const label = new Map<number, number>();
    const labels = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const root = find(i);
      if (!label.has(root)) label.set(root, label.size);
      labels[i] = label.get(root)!;
    }
    out.set(clusters, labels);
  };
  record(n);
  merges.forEach((m, step) => {
    parent[find(m.a)] = m.id;
    parent[find(m.b)] = m.id;
    record(n - 1 - step);
  });
  for (const c of counts)
    if (c > n && !out.has(c))
      out.set(
        c,
        Int32Array.from({ length: n }, (_, i) => i),
      );
  return out;
}

/**
 * The centroids (K × d) of the points' clusters (labels 0..K − 1), and how many points each holds
 * (a cluster without points keeps its entry in `centre` as it was).
 */
export function centroids(
  points: Float64Array,
  n: number,
  d: number,
  labels: Int32Array,
  K: number,
  centre = new Float64Array(K * d),
): { centre: Float64Array; count: Float64Array } {
  const sum = new Float64Array(K * d);
  const count = new Float64Array(K);
  for (let i = 0; i < n; i++) {
    const k = labels[i]!;
    count[k]!++;
    for (let j = 0; j < d; j++) sum[k * d + j]! += points[i * d + j]!;
  }
  for (let k = 0; k < K; k++) {
    if (count[k] === 0) continue;
    for (let j = 0; j < d; j++) centre[k * d + j] = sum[k * d + j]! / count[k]!;
  }
  return { centre, count };
}

/**
 * Each point's nearest centroid (ties to the lower label) into `labels`, among the clusters
 * `placed` marks (all when absent); returns how many points changed label.
 */
export function nearestCentroids(
  points: Float64Array,
  n: number,
  d: number,
  centre: Float64Array,
  K: number,
  labels: Int32Array,
  placed?: Uint8Array,
): number {
  let moved = 0;
  for (let i = 0; i < n; i++) {
    let best = 0;
    let bestDistance = Infinity;
    for (let k = 0; k < K; k++) {
      if (placed && !placed[k]) continue;
      let s = 0;
      for (let j = 0; j < d; j++) {
        const t = points[i * d + j]! - centre[k * d + j]!;
        s += t * t;
      }
      if (s < bestDistance) {
        best = k;
        bestDistance = s;
      }
    }
    if (best !== labels[i]) {
      labels[i] = best;
      moved++;
    }
  }
  return moved;
}

/**
 * Lloyd's k-means of the points from a starting assignment (labels 0..K − 1): centroids, then each
 * point to its nearest centroid (ties to the lower label), until no point moves or `maxIterations`.
 * A cluster left empty keeps its last centroid (one empty from the start has none and takes no
 * point). Returns the final labels.
 */
export function kMeans(
  points: Float64Array,
  n: number,
  d: number,
  start: Int32Array,
  K: number,
  maxIterations = 100,
): Int32Array {
  const labels = Int32Array.from(start);
  const centre = new Float64Array(K * d);
  const placed = new Uint8Array(K);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    const { count } = centroids(points, n, d, labels, K, centre);
    for (let k = 0; k < K; k++) if (count[k]! > 0) placed[k] = 1;
    if (nearestCentroids(points, n, d, centre, K, labels, placed) === 0) break;
  }
  return labels;
}
