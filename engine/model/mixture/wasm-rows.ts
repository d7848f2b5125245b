import { ROW_KERNELS_WASM } from './row-kernels-wasm.ts';

/**
 * The mixture model's two row loops (genotype-rows.ts) run as WebAssembly: the same additions in
 * the same order, two columns at a time (f64x2 lanes are IEEE double additions, so the results are
 * bit for bit those of the JavaScript loops), about 3–4× faster (bench/clustering.ts). The rows and
 * the table live in the instance's own memory for a whole E step or counts pass; the genotype codes
 * are copied in once when small (up to 16 MiB) and one locus at a time otherwise, so large data are
 * not duplicated per worker. Where WebAssembly SIMD is
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
type RowExports = Record<string, RowLoop | undefined>;

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

/** Codes up to this many bytes are copied into the instance once, not locus by locus. */
const RESIDENT_BYTES = 1 << 24;

/**
 * The WebAssembly row loops for N individuals, K columns and a table of up to `tableRows` rows.
 * `resident`: code arrays (the data's genotype codes) copied into the instance's memory once, when
 * small, so that a pass reads them in place; others are copied in one locus at a time.
 */
export function wasmRows(
  N: number,
  K: number,
  tableRows: number,
  resident: readonly Codes[] = [],
): WasmRows | undefined {
  const module = rowKernelsModule();
  if (!module) return undefined;
  const align = (x: number) => Math.ceil(x / 16) * 16;
  const kept = resident.filter((c) => c.byteLength <= RESIDENT_BYTES);
  const at = new Map<Codes, number>();
  let codesBytes = align(N * 4);
  for (const c of kept) {
    at.set(c, codesBytes);
    codesBytes += align(c.byteLength);
  }
  const rowsAt = codesBytes;
  const tableAt = rowsAt + N * K * 8;
  const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil((tableAt + tableRows * K * 8) / PAGE)) });
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as RowExports;
  // The loops with K's columns written out where there are (K ≤ 8), else the loop over columns.
  const loop = (name: string): RowLoop => exports[`${name}k${K}`] ?? exports[name]!;
  const loops = {
    add8: loop('add8'),
    add16: loop('add16'),
    add32: loop('add32'),
    gather8: loop('gather8'),
    gather16: loop('gather16'),
    gather32: loop('gather32'),
  };
  const buffer = memory.buffer;
  for (const c of kept)
    new Uint8Array(buffer, at.get(c)!, c.byteLength).set(new Uint8Array(c.buffer, c.byteOffset, c.byteLength));
  const codes8 = new Uint8Array(buffer, 0, N);
  const codes16 = new Uint16Array(buffer, 0, N);
  const codes32 = new Int32Array(buffer, 0, N);
  /** Where the N codes from `start` are in the memory (copied in unless resident). */
  const place = (codes: Codes, start: number): number => {
    const base = at.get(codes);
    if (base !== undefined) return base + start * codes.BYTES_PER_ELEMENT;
    const slice = codes.subarray(start, start + N);
    if (codes instanceof Uint8Array) codes8.set(slice as Uint8Array);
    else if (codes instanceof Uint16Array) codes16.set(slice as Uint16Array);
    else codes32.set(slice as Int32Array);
    return 0;
  };
  const width = (codes: Codes) => (codes instanceof Uint8Array ? 8 : codes instanceof Uint16Array ? 16 : 32);
  return {
    rows: new Float64Array(buffer, rowsAt, N * K),
    table: new Float64Array(buffer, tableAt, tableRows * K),
    add: (codes, start) => {
      const where = place(codes, start);
      (width(codes) === 8 ? loops.add8 : width(codes) === 16 ? loops.add16 : loops.add32)(where, N, K, rowsAt, tableAt);
    },
    gather: (codes, start) => {
      const where = place(codes, start);
      (width(codes) === 8 ? loops.gather8 : width(codes) === 16 ? loops.gather16 : loops.gather32)(
        where,
        N,
        K,
        rowsAt,
        tableAt,
      );
    },
  };
}
