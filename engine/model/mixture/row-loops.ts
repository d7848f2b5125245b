import { addGenotypeRows, gatherGenotypeRows } from './genotype-rows.ts';
import { wasmRows } from './wasm-rows.ts';
import type { PreparedData } from '../prepared/prepared-data.ts';

type Codes = Uint8Array | Uint16Array | Int32Array;

/**
 * Every individual's row (N, K) and one table (tableRows, K) that the genotype codes join: the
 * WebAssembly loops where they run (wasm-rows.ts), else the JavaScript ones (genotype-rows.ts), the
 * same bits. For callers outside the E step (block deletion, PCA) that need only the two loops.
 */
export interface RowLoops {
  readonly rows: Float64Array;
  readonly table: Float64Array;
  /** rows[d, :] += table[codes[start + d], :] for every individual d. */
  add(codes: Codes, start: number): void;
  /** table[codes[start + d], :] += rows[d, :] for every individual d. */
  gather(codes: Codes, start: number): void;
}

/** `resident: false`: the codes are copied into the WebAssembly instance a locus at a time (see eStepBuffers). */
export function rowLoops(data: PreparedData, K: number, tableRows: number, resident = true): RowLoops {
  const w = wasmRows({ N: data.N, K, tableRows, resident: resident ? [data.locusCodes, data.groups.codes] : [] });
  if (w) return { rows: w.rows, table: w.table, add: (c, s) => w.add(c, s), gather: (c, s) => w.gather(c, s) };
  const rows = new Float64Array(data.N * K);
  const table = new Float64Array(tableRows * K);
  return {
    rows,
    table,
    add: (codes, start) => addGenotypeRows(codes, start, data.N, K, rows, table),
    gather: (codes, start) => gatherGenotypeRows(codes, start, data.N, K, rows, table),
  };
}
