import { PCA_PASSES_WASM } from './generated/pca-passes-wasm.ts';
import { maxGenotypes, type PreparedData } from '../model/prepared/prepared-data.ts';
import { bytesOf, compileBase64, regionMemory } from '../util/wasm-module.ts';
import { groupHasColumns, type Columns } from './pca-columns.ts';

/** Y = X Xᵀ Q for blocks Q of l columns (N × l, row-major), X the standardised columns. */
export interface GramProducts {
  apply(Q: Float64Array, Y: Float64Array): void;
}

/**
 * PCA's products Y = X Xᵀ Q as WebAssembly (scripts/kernels/assembly/pca-passes.ts): the
 * JavaScript GramProduct's additions and products in the same order, so the same bits, over blocks
 * of BLOCK_GROUPS locus groups at a time — each individual's row is read once per block (not once
 * per group) while it meets the block's tables, and the tables' own work (marginals per locus,
 * each locus's table, the group's table) runs two doubles at a time. Rows are padded to a multiple
 * of four columns (the padding stays zero and never meets a real column). Undefined where
 * WebAssembly SIMD is missing or a locus's codes are wider than a byte (loci of more than 255
 * genotypes): the JavaScript products run there.
 */
export function wasmGramProduct(md: PreparedData, cols: Columns, l: number): GramProducts | undefined {
  const module = pcaPassesModule();
  if (!module || !(md.locusCodes instanceof Uint8Array)) return undefined;
  const { N, L, groups, genotypeOffsets } = md;
  const lp = Math.ceil(l / 4) * 4;
  const rowBytes = lp * 8;
  const M = cols.valueStart.length;
  const G = Math.max(1, maxGenotypes(md));
  const tableBytes = Math.max(1, groups.maxCombined, G) * rowBytes;
  const active: number[] = [];
  for (let q = 0; q + 1 < groups.first.length; q++) if (groupHasColumns(cols, groups.first, q)) active.push(q);
  const B = Math.min(BLOCK_GROUPS, Math.max(1, active.length));
  const made = regionMemory({
    rows: N * rowBytes,
    z: Math.max(1, M) * rowBytes,
    tables: B * tableBytes,
    acc: G * rowBytes,
    first: groups.first.byteLength,
    size: groups.size.byteLength,
    genotypes: L * 4,
    colStart: cols.colStart.byteLength,
    valueStart: Math.max(4, cols.valueStart.byteLength),
    values: Math.max(8, cols.values.byteLength),
    list: B * 4,
    codes: B * N,
  });
  if (!made) return undefined;
  const { at, memory } = made;
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as PassExports;
  const buffer = memory.buffer;
  new Int32Array(buffer, at.first, groups.first.length).set(groups.first);
  new Int32Array(buffer, at.size, groups.size.length).set(groups.size);
  const genotypes = new Int32Array(buffer, at.genotypes, L);
  for (let i = 0; i < L; i++) genotypes[i] = genotypeOffsets[i + 1]! - genotypeOffsets[i]!;
  new Int32Array(buffer, at.colStart, cols.colStart.length).set(cols.colStart);
  new Int32Array(buffer, at.valueStart, M).set(cols.valueStart);
  new Uint8Array(buffer, at.values, cols.values.byteLength).set(bytesOf(cols.values));
  const rows = new Float64Array(buffer, at.rows, N * lp);
  const list = new Int32Array(buffer, at.list, B);
  const staged = new Uint8Array(buffer, at.codes, B * N);
  const codes = md.locusCodes;
  /** Stages the codes of active groups from..from+count and lists them; returns count. */
  const stage = (from: number): number => {
    const count = Math.min(B, active.length - from);
    for (let b = 0; b < count; b++) {
      const q = active[from + b]!;
      list[b] = q;
      const row = groups.row[q]!;
      const start = row < 0 ? groups.first[q]! * N : row * N;
      staged.set(row < 0 ? codes.subarray(start, start + N) : groups.codes.subarray(start, start + N), b * N);
    }
    return count;
  };
  const common = [at.codes, N, lp, at.rows, at.tables, tableBytes, at.acc, at.z] as const;
  return {
    apply(Q: Float64Array, Y: Float64Array): void {
      rows.fill(0);
      for (let d = 0; d < N; d++) rows.set(Q.subarray(d * l, (d + 1) * l), d * lp);
      for (let from = 0; from < active.length; from += B) {
        const count = stage(from);
        exports.transposeBlock(
          at.list,
          count,
          ...common,
          at.first,
          at.size,
          at.genotypes,
          at.colStart,
          at.valueStart,
          at.values,
        );
      }
      rows.fill(0);
      for (let from = 0; from < active.length; from += B) {
        const count = stage(from);
        exports.timesBlock(at.list, count, ...common, at.first, at.genotypes, at.colStart, at.valueStart, at.values);
      }
      for (let d = 0; d < N; d++) Y.set(rows.subarray(d * lp, d * lp + l), d * l);
    },
  };
}

/** Groups whose tables a block holds (their tables stay in the second-level cache: 8 × 64 rows × 20 columns is 82 KB). */
const BLOCK_GROUPS = 8;

/**
 * A block's pass: (list, count, codes, N, l, rows, tables, tableBytes, acc, z, …the loci's
 * layout: transposeBlock first, size, genotypes, colStart, valueStart, values; timesBlock the same
 * without size), byte addresses in the memory.
 */
type BlockPass = (...args: number[]) => void;

interface PassExports {
  readonly transposeBlock: BlockPass;
  readonly timesBlock: BlockPass;
}

let compiled: WebAssembly.Module | null | undefined;

function pcaPassesModule(): WebAssembly.Module | null {
  if (compiled === undefined) compiled = compileBase64(PCA_PASSES_WASM);
  return compiled;
}
