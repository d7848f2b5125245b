import { ROW_KERNELS_WASM } from './row-kernels-wasm.ts';

/**
 * The mixture model's two row loops (genotype-rows.ts) run as WebAssembly: the same additions in
 * the same order, two columns at a time (f64x2 lanes are IEEE double additions, so the results are
 * bit for bit those of the JavaScript loops), about 3–4× faster (bench/clustering.ts). The rows and
 * the table live in the instance's own memory for a whole E step or counts pass; each locus's codes
 * are copied in (N bytes), so the data themselves are never duplicated. Where WebAssembly SIMD is
 * missing, {@link wasmRows} returns undefined and the JavaScript loops run.
 */
export interface WasmRows {
  /** shape (N, K), in the instance's memory: the rows the loops read and write. */
  readonly rows: Float64Array;
  /** shape (T, K), in the instance's memory: the per-genotype table of one locus (or locus group). */
  readonly table: Float64Array;
  /** rows[d, :] += table[codes[start + d], :] for d < N. */
  add(codes: Codes, start: number): void;
  /** table[codes[start + d], :] += rows[d, :] for d < N. */
  gather(codes: Codes, start: number): void;
}

type Codes = Uint8Array | Uint16Array | Int32Array;
type RowLoop = (codes: number, n: number, K: number, rows: number, table: number) => void;
type RowExports = Record<'add8' | 'add16' | 'add32' | 'gather8' | 'gather16' | 'gather32', RowLoop>;

const PAGE = 65536;
let compiled: WebAssembly.Module | null | undefined;

/** The compiled module, once per thread; null where WebAssembly (with SIMD) is not available. */
function rowKernelsModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      const binary = atob(ROW_KERNELS_WASM);
      const bytes = new Uint8Array(binary.length);
      for (let k = 0; k < binary.length; k++) bytes[k] = binary.charCodeAt(k);
      compiled = new WebAssembly.Module(bytes);
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** Whether the WebAssembly loops can run here. */
export function wasmRowsAvailable(): boolean {
  return rowKernelsModule() !== null;
}

/** The WebAssembly row loops for N individuals, K columns and a table of up to `tableRows` rows. */
export function wasmRows(N: number, K: number, tableRows: number): WasmRows | undefined {
  const module = rowKernelsModule();
  if (!module) return undefined;
  const codesBytes = Math.ceil((N * 4) / 16) * 16;
  const rowsAt = codesBytes;
  const tableAt = rowsAt + N * K * 8;
  const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil((tableAt + tableRows * K * 8) / PAGE)) });
  const loops = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as RowExports;
  const buffer = memory.buffer;
  const codes8 = new Uint8Array(buffer, 0, N);
  const codes16 = new Uint16Array(buffer, 0, N);
  const codes32 = new Int32Array(buffer, 0, N);
  /** Copies the N codes from `start` in and returns the loop for their width. */
  const stage = (codes: Codes, start: number, add: boolean): RowLoop => {
    const slice = codes.subarray(start, start + N);
    if (codes instanceof Uint8Array) {
      codes8.set(slice as Uint8Array);
      return add ? loops.add8 : loops.gather8;
    }
    if (codes instanceof Uint16Array) {
      codes16.set(slice as Uint16Array);
      return add ? loops.add16 : loops.gather16;
    }
    codes32.set(slice as Int32Array);
    return add ? loops.add32 : loops.gather32;
  };
  return {
    rows: new Float64Array(buffer, rowsAt, N * K),
    table: new Float64Array(buffer, tableAt, tableRows * K),
    add: (codes, start) => stage(codes, start, true)(0, N, K, rowsAt, tableAt),
    gather: (codes, start) => stage(codes, start, false)(0, N, K, rowsAt, tableAt),
  };
}
