/**
 * A cluster is negligible when its expected size Σ_d p(c | x_d) is below max(1, 1% of N): such a
 * run has effectively fewer clusters than asked for.
 */
export function isNegligible(mass: number, N: number): boolean {
  return mass < Math.max(1, 0.01 * N);
}

/** Expected size of every cluster, Σ_d Q[d, c], from memberships of shape (N, K). */
export function clusterMass(Q: Float64Array, N: number, K: number): Float64Array {
  const mass = new Float64Array(K);
  for (let d = 0; d < N; d++) for (let c = 0; c < K; c++) mass[c]! += Q[d * K + c]!;
  return mass;
}

/** How many clusters of memberships Q (shape (N, K)) are not negligible. */
export function liveClusters(Q: Float64Array, N: number, K: number): number {
  let n = 0;
  for (const m of clusterMass(Q, N, K)) if (!isNegligible(m, N)) n++;
  return n;
}
