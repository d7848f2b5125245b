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
  for (let s = 0; s < order.length; ) {
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
  const t = 1 / (1 + 0.3275911 * Math.abs(z) / Math.SQRT2);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(z * z) / 2);
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
