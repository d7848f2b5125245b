/**
 * Solves the square assignment problem (Hungarian algorithm, O(n³), Jonker–Volgenant style
 * potentials). `cost` is row-major n × n; returns `assign` with assign[row] = column,
 * minimising Σ cost[row][assign[row]].
 */
export function hungarian(cost: ArrayLike<number>, n: number): Int32Array {
  const INF = Number.POSITIVE_INFINITY;
  const u = new Float64Array(n + 1);
  const v = new Float64Array(n + 1);
  const p = new Int32Array(n + 1); // p[col] = row matched to col (1-based), 0 = none
  const way = new Int32Array(n + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(n + 1).fill(INF);
    const used = new Uint8Array(n + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      let delta = INF;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const cur = cost[(i0 - 1) * n + (j - 1)]! - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[p[j]!]! += delta;
          v[j]! -= delta;
        } else minv[j]! -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const assign = new Int32Array(n);
  for (let j = 1; j <= n; j++) if (p[j]! > 0) assign[p[j]! - 1] = j - 1;
  return assign;
}

/** The assignment maximising Σ score[row][assign[row]]. */
export function maxAssignment(score: ArrayLike<number>, n: number): Int32Array {
  let max = -Infinity;
  for (let k = 0; k < n * n; k++) max = Math.max(max, score[k]!);
  const cost = new Float64Array(n * n);
  for (let k = 0; k < n * n; k++) cost[k] = max - score[k]!;
  return hungarian(cost, n);
}
