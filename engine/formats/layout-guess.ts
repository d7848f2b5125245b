import type { Token } from '../io/lines.ts';

/** Helpers for guessing table layouts from a sample of rows. */

export function isInteger(s: string): boolean {
  return /^[+-]?\d+$/.test(s);
}

export function isNumber(s: string): boolean {
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s);
}

/** The most common value in a list (first one wins ties). */
export function mode(values: readonly number[]): number {
  const counts = new Map<number, number>();
  let best = values[0] ?? 0;
  let bestN = 0;
  for (const v of values) {
    const n = (counts.get(v) ?? 0) + 1;
    counts.set(v, n);
    if (n > bestN) {
      best = v;
      bestN = n;
    }
  }
  return best;
}

/** Column j of every row (rows shorter than j+1 give ''). */
export function column(rows: readonly { tokens: readonly Token[] }[], j: number): string[] {
  return rows.map((r) => r.tokens[j]?.text ?? '');
}

/**
 * A column looks like a grouping label (population index) when its values come in contiguous
 * runs, one run per distinct value, with clearly fewer distinct values than rows.
 */
export function looksGrouped(values: readonly string[]): boolean {
  if (values.length === 0) return false;
  let runs = 1;
  for (let i = 1; i < values.length; i++) if (values[i] !== values[i - 1]) runs++;
  const distinct = new Set(values).size;
  return (
    runs <= distinct + Math.max(1, Math.floor(distinct / 4)) && (distinct <= values.length / 2 || values.length < 4)
  );
}
