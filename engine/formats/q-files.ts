import type { WrittenFile } from './writers.ts';
import { FormatError } from '../io/format-error.ts';

/**
 * A membership matrix in the ADMIXTURE .Q layout (read by pophelper, pong and CLUMPAK): one
 * row per individual, K space-separated proportions, no header.
 */
export function writeQ(Q: ArrayLike<number>, N: number, K: number, digits = 6): WrittenFile {
  function* lines(): Generator<string> {
    for (let d = 0; d < N; d++) {
      const row: string[] = [];
      for (let c = 0; c < K; c++) row.push(Q[d * K + c]!.toFixed(digits));
      yield row.join(' ');
    }
  }
  return { lines: lines(), notes: [] };
}

/** Parses a .Q file (rows of K numbers; each row is normalised to sum to 1). */
export function parseQ(file: string, text: string): { Q: Float64Array; N: number; K: number } {
  const rows = text
    .split(/\r?\n/)
    .map((l, k) => ({ l: l.trim(), line: k + 1 }))
    .filter((r) => r.l !== '');
  if (rows.length === 0)
    throw new FormatError(file, 1, 1, 'the file is empty', 'one row of K proportions per individual');
  const K = rows[0]!.l.split(/\s+/).length;
  const Q = new Float64Array(rows.length * K);
  rows.forEach(({ l, line }, d) => {
    const xs = l.split(/\s+/);
    if (xs.length !== K) throw new FormatError(file, line, 1, `${xs.length} values`, `${K} as on the first row`);
    let s = 0;
    xs.forEach((x, c) => {
      const v = Number(x);
      if (!(v >= 0)) throw new FormatError(file, line, l.indexOf(x) + 1, `"${x}" is not a proportion`, 'a number ≥ 0');
      Q[d * K + c] = v;
      s += v;
    });
    if (!(s > 0)) throw new FormatError(file, line, 1, 'the row sums to 0', 'proportions summing to 1');
    for (let c = 0; c < K; c++) Q[d * K + c]! /= s;
  });
  return { Q, N: rows.length, K };
}

/** Allele frequencies per cluster, shape (Σ r_i, K): row (locus, allele), column cluster. */
export interface ClusterFrequencies {
  readonly K: number;
  readonly theta: ArrayLike<number>;
}

/**
 * Allele frequencies per cluster: a header, then one row per (locus, allele) with the K
 * frequencies. (ADMIXTURE's .P holds one frequency per biallelic SNP; microsatellites need
 * every allele, so Stratify names them.)
 */
export function writeP(
  data: { readonly loci: readonly { readonly name: string; readonly alleles: readonly string[] }[] },
  model: ClusterFrequencies,
  digits = 6,
): WrittenFile {
  const K = model.K;
  function* lines(): Generator<string> {
    yield ['locus', 'allele', ...Array.from({ length: K }, (_, c) => `cluster${c + 1}`)].join('\t');
    let row = 0;
    for (const locus of data.loci) {
      const alleles = locus.alleles.length > 0 ? locus.alleles : ['?'];
      for (const a of alleles) {
        const fs: string[] = [];
        for (let c = 0; c < K; c++) fs.push(model.theta[row * K + c]!.toFixed(digits));
        yield [locus.name, a, ...fs].join('\t');
        row++;
      }
    }
  }
  return { lines: lines(), notes: [] };
}
