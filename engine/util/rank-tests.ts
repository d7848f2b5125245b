/** Result of a two-sided Mann–Whitney (Wilcoxon rank-sum) test. */
export interface MannWhitney {
  /** U of the first sample. */
  readonly u: number;
  readonly p: number;
  readonly method: 'exact' | 'normal';
}

/** Largest sample sizes for which the exact null distribution is enumerated (without ties). */
const EXACT_MAX = 50;

function ranks(values: readonly number[]): { ranks: number[]; tieTerm: number } {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  let tieTerm = 0;
  for (let s = 0; s < order.length;) {
    let e = s;
    while (e + 1 < order.length && order[e + 1]![0] === order[s]![0]) e++;
    const r = (s + e) / 2 + 1;
    for (let k = s; k <= e; k++) out[order[k]![1]] = r;
    const t = e - s + 1;
    tieTerm += t ** 3 - t;
    s = e + 1;
  }
  return { ranks: out, tieTerm };
}

/** Counts of rank-sum arrangements: f[m][u] for sample sizes (m, n), by the classic recurrence. */
function exactCdf(m: number, n: number, u: number): number {
  // f(u; i, j) = f(u − j; i − 1, j) + f(u; i, j − 1)
  const maxU = m * n;
  let prev: Float64Array[] = [];
  for (let i = 0; i <= m; i++) {
    const row: Float64Array[] = [];
    for (let j = 0; j <= n; j++) {
      const f = new Float64Array(maxU + 1);
      if (i === 0 || j === 0) f[0] = 1;
      else {
        const a = prev[j]!;
        const b = row[j - 1]!;
        for (let x = 0; x <= i * j; x++) f[x] = (x >= j ? a[x - j]! : 0) + b[x]!;
      }
      row.push(f);
    }
    prev = row;
  }
  const dist = prev[n]!;
  let total = 0;
  let below = 0;
  for (let x = 0; x <= maxU; x++) {
    total += dist[x]!;
    if (x <= u) below += dist[x]!;
  }
  return below / total;
}

function normalCdf(z: number): number {
  // Abramowitz–Stegun 7.1.26 through erf, adequate for p-values of a rank test.
  const t = 1 / (1 + (0.3275911 * Math.abs(z)) / Math.SQRT2);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-(z * z) / 2);
  return z >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}

/**
 * Two-sided Mann–Whitney test of x against y: exact when both samples have at most 50 values
 * and no ties, otherwise the normal approximation with tie and continuity corrections.
 */
export function mannWhitney(x: readonly number[], y: readonly number[]): MannWhitney {
  const m = x.length;
  const n = y.length;
  if (m === 0 || n === 0) return { u: NaN, p: NaN, method: 'normal' };
  const { ranks: r, tieTerm } = ranks([...x, ...y]);
  let r1 = 0;
  for (let k = 0; k < m; k++) r1 += r[k]!;
  const u = r1 - (m * (m + 1)) / 2;
  const uMin = Math.min(u, m * n - u);
  if (tieTerm === 0 && m <= EXACT_MAX && n <= EXACT_MAX) {
    return { u, p: Math.min(1, 2 * exactCdf(m, n, uMin)), method: 'exact' };
  }
  const N = m + n;
  const mean = (m * n) / 2;
  const variance = ((m * n) / 12) * (N + 1 - tieTerm / (N * (N - 1)));
  if (variance <= 0) return { u, p: 1, method: 'normal' };
  const z = (Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  return { u, p: Math.min(1, 2 * (1 - normalCdf(Math.max(0, z)))), method: 'normal' };
}

/**
 * Two-sided Wilcoxon signed-rank test of paired samples (x_k − y_k), zero differences dropped;
 * exact (enumerating the 2^n sign patterns) for n ≤ 20 without ties, else the normal
 * approximation with tie correction.
 */
export function wilcoxonSignedRank(
  x: readonly number[],
  y: readonly number[],
): { w: number; p: number; method: 'exact' | 'normal' } {
  const diffs = x.map((v, k) => v - y[k]!).filter((dv) => dv !== 0);
  const n = diffs.length;
  if (n === 0) return { w: 0, p: 1, method: 'exact' };
  const abs = diffs.map(Math.abs);
  const { ranks: r, tieTerm } = ranks(abs);
  let wPlus = 0;
  diffs.forEach((dv, k) => {
    if (dv > 0) wPlus += r[k]!;
  });
  const total = (n * (n + 1)) / 2;
  const wMin = Math.min(wPlus, total - wPlus);
  if (tieTerm === 0 && n <= 20) {
    // Distribution of the positive-rank sum over all sign patterns (ranks 1..n).
    const counts = new Float64Array(total + 1);
    counts[0] = 1;
    for (let k = 1; k <= n; k++) for (let s = total; s >= k; s--) counts[s]! += counts[s - k]!;
    let below = 0;
    for (let s = 0; s <= wMin; s++) below += counts[s]!;
    return { w: wPlus, p: Math.min(1, (2 * below) / 2 ** n), method: 'exact' };
  }
  const mean = total / 2;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48;
  const z = (Math.abs(wPlus - mean) - 0.5) / Math.sqrt(variance);
  return { w: wPlus, p: Math.min(1, 2 * (1 - normalCdf(Math.max(0, z)))), method: 'normal' };
}

/**
 * The smallest two-sided p-value the exact Mann–Whitney test can give for samples of m and n
 * values (complete separation, no ties): 2 / C(m + n, m), at most 1. With 3 replicates per K it is
 * 0.1, so the test between neighbouring K can never reach 0.05.
 */
export function smallestMannWhitneyP(m: number, n: number): number {
  let c = 1;
  for (let k = 1; k <= m; k++) c = (c * (n + k)) / k;
  return Math.min(1, 2 / c);
}

/** The fewest replicates per K with which the Mann–Whitney test can reach p < alpha. */
export function replicatesForMannWhitney(alpha: number): number {
  let n = 1;
  while (smallestMannWhitneyP(n, n) >= alpha) n++;
  return n;
}
