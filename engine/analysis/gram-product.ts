import { maxGenotypes, type PreparedData } from '../model/prepared/prepared-data.ts';
import { rowLoops, type RowLoops } from '../model/mixture/row-loops.ts';
import { extendGroupTable, locusMarginal } from '../model/prepared/locus-groups.ts';
import { groupHasColumns, type Columns } from './pca-columns.ts';
import { wasmGramProduct, type GramProducts } from './pca-kernel.ts';

/** The products as WebAssembly where it runs and the codes are bytes (pca-kernel.ts), else JavaScript: the same bits. */
export function gramProduct(md: PreparedData, cols: Columns, l: number): GramProducts {
  return wasmGramProduct(md, cols, l) ?? new GramProduct(md, cols, l);
}

/** Y = X Xᵀ Q for Q (N × l, row-major), through Z = Xᵀ Q (columns × l). */
export class GramProduct implements GramProducts {
  private readonly loops: RowLoops;
  private readonly z: Float64Array;
  private readonly acc: Float64Array;

  constructor(
    private readonly md: PreparedData,
    private readonly cols: Columns,
    private readonly l: number,
  ) {
    const tableRows = Math.max(1, md.groups.maxCombined, maxGenotypes(md));
    this.loops = rowLoops(md, l, tableRows);
    this.z = new Float64Array(cols.valueStart.length * l);
    this.acc = new Float64Array(Math.max(1, maxGenotypes(md)) * l);
  }

  apply(Q: Float64Array, Y: Float64Array): void {
    this.transposeTimes(Q);
    this.times(Y);
  }

  /** z = Xᵀ Q. */
  private transposeTimes(Q: Float64Array): void {
    const { md, l, loops, acc } = this;
    const { N, groups, locusCodes, genotypeOffsets } = md;
    loops.rows.set(Q);
    const table = loops.table;
    for (let q = 0; q + 1 < groups.first.length; q++) {
      const i0 = groups.first[q]!;
      const i1 = groups.first[q + 1]!;
      if (!groupHasColumns(this.cols, groups.first, q)) continue;
      const size = groups.size[q]!;
      table.fill(0, 0, size * l);
      if (groups.row[q]! < 0) loops.gather(locusCodes, i0 * N);
      else loops.gather(groups.codes, groups.row[q]! * N);
      // Sums per genotype of each locus (locus-groups.ts's combined codes).
      let stride = size;
      for (let i = i0; i < i1; i++) {
        const G = genotypeOffsets[i + 1]! - genotypeOffsets[i]!;
        stride /= G;
        locusMarginal(table, size, stride, G, l, acc);
        this.columnSums(i, G);
      }
    }
  }

  /** z of locus i's columns from its per-genotype sums in acc. */
  private columnSums(i: number, G: number): void {
    const { l, acc, z } = this;
    const { colStart, valueStart, values } = this.cols;
    for (let c = colStart[i]!; c < colStart[i + 1]!; c++) {
      const zc = c * l;
      z.fill(0, zc, zc + l);
      for (let g = 0; g < G; g++) {
        const v = values[valueStart[c]! + g]!;
        if (v === 0) continue;
        for (let k = 0; k < l; k++) z[zc + k]! += v * acc[g * l + k]!;
      }
    }
  }

  /** Y = X z. */
  private times(Y: Float64Array): void {
    const { md, l, loops, acc, z } = this;
    const { N, groups, locusCodes, genotypeOffsets } = md;
    const { colStart, valueStart, values } = this.cols;
    const rows = loops.rows;
    rows.fill(0);
    const table = loops.table;
    /** out[g, :] = Σ over locus i's columns of value(g) · z_c. */
    const locusTable = (i: number, out: Float64Array): number => {
      const G = genotypeOffsets[i + 1]! - genotypeOffsets[i]!;
      out.fill(0, 0, G * l);
      for (let c = colStart[i]!; c < colStart[i + 1]!; c++)
        for (let g = 0; g < G; g++) {
          const v = values[valueStart[c]! + g]!;
          if (v === 0) continue;
          for (let k = 0; k < l; k++) out[g * l + k]! += v * z[c * l + k]!;
        }
      return G;
    };
    for (let q = 0; q + 1 < groups.first.length; q++) {
      const i0 = groups.first[q]!;
      const i1 = groups.first[q + 1]!;
      if (!groupHasColumns(this.cols, groups.first, q)) continue;
      let size = locusTable(i0, table);
      for (let i = i0 + 1; i < i1; i++) {
        const G = locusTable(i, acc);
        size = extendGroupTable(table, size, acc, G, l);
      }
      if (groups.row[q]! < 0) loops.add(locusCodes, i0 * N);
      else loops.add(groups.codes, groups.row[q]! * N);
    }
    Y.set(rows);
  }
}
