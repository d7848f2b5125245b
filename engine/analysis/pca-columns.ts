import { genotypeCounts, maxGenotypes, type PreparedData } from '../model/prepared/prepared-data.ts';

/** The standardised values of every column per genotype. */
export interface Columns {
  /** shape (L + 1,): locus i's columns are colStart[i] .. colStart[i + 1] − 1. */
  readonly colStart: Int32Array;
  /** Column c's value for genotype g of its locus: values[valueStart[c] + g]. */
  readonly valueStart: Int32Array;
  readonly values: Float64Array;
  /** Σ over individuals and columns of the squared values (the trace of X Xᵀ). */
  readonly trace: number;
  readonly loci: number;
}

/** Whether the loci from first[q] to first[q + 1] (a locus group) have any column (a group none of whose loci varies adds nothing). */
export function groupHasColumns(cols: Columns, first: Int32Array, q: number): boolean {
  return cols.colStart[first[q + 1]!] !== cols.colStart[first[q]!];
}

/** Each allele column's standardised value per genotype (pca.ts describes the columns). */
export function standardisedColumns(md: PreparedData): Columns {
  const { L, P, alleles, genotypeOffsets, genotypeAlleles } = md;
  const counts = genotypeCounts(md);
  const seen = new Float64Array(Math.max(1, maxGenotypes(md)));
  const colStart = new Int32Array(L + 1);
  const valueStart: number[] = [];
  const values: number[] = [];
  let trace = 0;
  let loci = 0;
  const copies = new Float64Array(seen.length);
  for (let i = 0; i < L; i++) {
    colStart[i] = valueStart.length;
    const g0 = genotypeOffsets[i]!;
    const G = genotypeOffsets[i + 1]! - g0;
    for (let g = 0; g < G; g++) seen[g] = counts[g0 + g]!;
    let complete = 0;
    for (let g = 0; g < G; g++) if (genotypeAlleles[(g0 + g) * P]! >= 0) complete += seen[g]!;
    const r = alleles[i]!;
    if (complete === 0 || r < 2) continue;
    let used = false;
    for (let a = r === 2 ? 1 : 0; a < r; a++) {
      let total = 0;
      for (let g = 0; g < G; g++) {
        let c = 0;
        for (let p = 0; p < P; p++) if (genotypeAlleles[(g0 + g) * P + p] === a) c++;
        copies[g] = c;
        if (genotypeAlleles[(g0 + g) * P]! >= 0) total += c * seen[g]!;
      }
      const f = total / (P * complete);
      if (!(f > 0 && f < 1)) continue;
      const mean = P * f;
      const sd = Math.sqrt(P * f * (1 - f));
      valueStart.push(values.length);
      for (let g = 0; g < G; g++) {
        const v = genotypeAlleles[(g0 + g) * P]! >= 0 ? (copies[g]! - mean) / sd : 0;
        values.push(v);
        trace += seen[g]! * v * v;
      }
      used = true;
    }
    if (used) loci++;
  }
  colStart[L] = valueStart.length;
  return { colStart, valueStart: Int32Array.from(valueStart), values: Float64Array.from(values), trace, loci };
}
