import { maxAssignment } from '../util/hungarian.ts';

/** Hard assignment: the most probable cluster of each row of an (N, K) membership matrix. */
export function hardAssignments(Q: ArrayLike<number>, N: number, K: number): Int32Array {
  const out = new Int32Array(N);
  for (let d = 0; d < N; d++) {
    let best = 0;
    for (let c = 1; c < K; c++) if (Q[d * K + c]! > Q[d * K + best]!) best = c;
    out[d] = best;
  }
  return out;
}

/** Integer codes for labels (order of first appearance) and the number of distinct labels. */
export function encodeLabels(labels: readonly (string | number)[]): { codes: Int32Array; count: number } {
  const index = new Map<string | number, number>();
  const codes = new Int32Array(labels.length);
  labels.forEach((l, k) => {
    let c = index.get(l);
    if (c === undefined) {
      c = index.size;
      index.set(l, c);
    }
    codes[k] = c;
  });
  return { codes, count: index.size };
}

function contingency(a: ArrayLike<number>, b: ArrayLike<number>): { table: Float64Array; ra: number; rb: number } {
  let ra = 0;
  let rb = 0;
  for (let k = 0; k < a.length; k++) {
    ra = Math.max(ra, a[k]! + 1);
    rb = Math.max(rb, b[k]! + 1);
  }
  const table = new Float64Array(ra * rb);
  for (let k = 0; k < a.length; k++) table[a[k]! * rb + b[k]!]!++;
  return { table, ra, rb };
}

/**
 * Best-matching accuracy: the fraction of items whose cluster maps to their label under the
 * best one-to-one matching of clusters to labels (the text's "percentage correctly assigned").
 */
export function matchingAccuracy(clusters: ArrayLike<number>, labels: ArrayLike<number>): number {
  if (clusters.length !== labels.length) throw new RangeError('matchingAccuracy: arrays differ in length');
  if (clusters.length === 0) return NaN;
  const { table, ra, rb } = contingency(clusters, labels);
  const n = Math.max(ra, rb);
  const square = new Float64Array(n * n);
  for (let i = 0; i < ra; i++) for (let j = 0; j < rb; j++) square[i * n + j] = table[i * rb + j]!;
  const assign = maxAssignment(square, n);
  let hit = 0;
  for (let i = 0; i < n; i++) hit += square[i * n + assign[i]!]!;
  return hit / clusters.length;
}

const choose2 = (x: number) => (x * (x - 1)) / 2;

/** Adjusted Rand index of two partitions (Hubert & Arabie 1985); 1 for identical partitions. */
export function adjustedRandIndex(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError('adjustedRandIndex: arrays differ in length');
  const n = a.length;
  const { table, ra, rb } = contingency(a, b);
  let sumCells = 0;
  const rowSums = new Float64Array(ra);
  const colSums = new Float64Array(rb);
  for (let i = 0; i < ra; i++)
    for (let j = 0; j < rb; j++) {
      const x = table[i * rb + j]!;
      sumCells += choose2(x);
      rowSums[i]! += x;
      colSums[j]! += x;
    }
  let sumRows = 0;
  let sumCols = 0;
  for (const x of rowSums) sumRows += choose2(x);
  for (const x of colSums) sumCols += choose2(x);
  const expected = (sumRows * sumCols) / choose2(n);
  const maxIndex = (sumRows + sumCols) / 2;
  if (maxIndex === expected) return 1;
  return (sumCells - expected) / (maxIndex - expected);
}

/**
 * The label-insensitive distance of section 7.5.3: the Hamming distance between the cluster
 * matrices of two partitions, i.e. the number of pairs {i, j} (i < j) that one partition puts
 * together and the other apart.
 */
export function coMembershipDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError('coMembershipDistance: arrays differ in length');
  let d = 0;
  for (let i = 0; i < a.length; i++)
    for (let j = i + 1; j < a.length; j++) if ((a[i] === a[j]) !== (b[i] === b[j])) d++;
  return d;
}
