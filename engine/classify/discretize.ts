import type { CategoricalData } from './categorical.ts';
import type { RawTable } from './tabular.ts';

function entropy(counts: ArrayLike<number>, total: number): number {
  let h = 0;
  for (let k = 0; k < counts.length; k++) {
    const c = counts[k]!;
    if (c > 0) h -= (c / total) * Math.log2(c / total);
  }
  return h;
}

/**
 * Cut points of one numeric attribute by Fayyad & Irani's (1993) entropy-based recursive split
 * with the MDL stopping rule, learned from (value, class) pairs of the training rows only.
 */
export function mdlCuts(values: ArrayLike<number>, classes: ArrayLike<number>, nClasses: number): number[] {
  const pairs: [number, number][] = [];
  for (let k = 0; k < values.length; k++)
    if (!Number.isNaN(values[k]!) && classes[k]! >= 0) pairs.push([values[k]!, classes[k]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const cuts: number[] = [];
  const split = (lo: number, hi: number) => {
    const n = hi - lo;
    if (n < 2) return;
    const total = new Float64Array(nClasses);
    for (let k = lo; k < hi; k++) total[pairs[k]![1]]!++;
    const hAll = entropy(total, n);
    const left = new Float64Array(nClasses);
    let best = -1;
    let bestH = Infinity;
    for (let k = lo; k < hi - 1; k++) {
      left[pairs[k]![1]]!++;
      if (pairs[k]![0] === pairs[k + 1]![0]) continue;
      const nl = k - lo + 1;
      const right = total.map((t, c) => t - left[c]!);
      const h = (nl / n) * entropy(left, nl) + ((n - nl) / n) * entropy(right, n - nl);
      if (h < bestH) {
        bestH = h;
        best = k;
      }
    }
    if (best < 0) return;
    const nl = best - lo + 1;
    const l = new Float64Array(nClasses);
    for (let k = lo; k <= best; k++) l[pairs[k]![1]]!++;
    const r = total.map((t, c) => t - l[c]!);
    const kAll = total.filter((x) => x > 0).length;
    const kL = l.filter((x) => x > 0).length;
    const kR = r.filter((x) => x > 0).length;
    const gain = hAll - bestH;
    const delta = Math.log2(3 ** kAll - 2) - (kAll * hAll - kL * entropy(l, nl) - kR * entropy(r, n - nl));
    if (gain <= (Math.log2(n - 1) + delta) / n) return;
    cuts.push((pairs[best]![0] + pairs[best + 1]![0]) / 2);
    split(lo, best + 1);
    split(best + 1, hi);
  };
  split(0, pairs.length);
  return cuts.sort((a, b) => a - b);
}

/**
 * A categorical dataset from a raw table: the last column is the class; numeric columns are
 * discretised with cut points learned on `trainRows` only (so cross-validation stays honest).
 */
export function categoricalFromTable(t: RawTable, trainRows: ArrayLike<number>): CategoricalData {
  const classCol = t.columns[t.columns.length - 1] as readonly (string | undefined)[];
  const classes = [...new Set(classCol.filter((x): x is string => x !== undefined))].sort();
  const labels = Int32Array.from(classCol, (c) => (c === undefined ? -1 : classes.indexOf(c)));
  const n = t.columns.length - 1;
  const values = new Int16Array(t.rows * n);
  const states = new Int32Array(n);
  const trainLabels = Array.from(trainRows, (r) => labels[r]!);
  for (let i = 0; i < n; i++) {
    const col = t.columns[i]!;
    if (col instanceof Float64Array) {
      const cuts = mdlCuts(
        Array.from(trainRows, (r) => col[r]!),
        trainLabels,
        classes.length,
      );
      states[i] = cuts.length + 1;
      for (let r = 0; r < t.rows; r++) {
        const v = col[r]!;
        if (Number.isNaN(v)) values[r * n + i] = -1;
        else {
          let b = 0;
          while (b < cuts.length && v > cuts[b]!) b++;
          values[r * n + i] = b;
        }
      }
    } else {
      const levels = [...new Set(col.filter((x): x is string => x !== undefined))].sort();
      states[i] = Math.max(1, levels.length);
      for (let r = 0; r < t.rows; r++) values[r * n + i] = col[r] === undefined ? -1 : levels.indexOf(col[r]!);
    }
  }
  return { N: t.rows, n, states, values, labels, classes, features: t.names.slice(0, n) };
}
