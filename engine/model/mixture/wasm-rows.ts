import { ROW_KERNELS_WASM } from './generated/row-kernels-wasm.ts';
import { bytesOf, compileBase64, layout, WASM_PAGE } from '../../util/wasm-module.ts';

/**
 * The mixture model's per-locus loops (genotype-rows.ts, and e-step.ts's genotype logs and the
 * spreading of counts over alleles) run as WebAssembly (scripts/kernels/assembly/row-kernels.ts): the same
 * additions in the same order, two columns at a time (f64x2 lanes are IEEE double additions, so the
 * results are bit for bit those of the JavaScript loops), about 3× faster (bench/clustering.ts).
 * The rows, tables and counts live in the instance's own memory for a whole E step or counts pass;
 * the data's codes are copied in once when small (up to 16 MiB each) and one locus at a time
 * otherwise, so large data are not duplicated per worker. Where WebAssembly SIMD is missing,
 * {@link wasmRows} returns undefined and the JavaScript loops run.
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
  /** The loops over a locus's genotypes and their allele copies, when the copies are in the instance. */
  readonly copies?: WasmCopies;
}

export interface WasmCopies {
  /** shape (Σ r_i, K), in the instance's memory: ln θ. */
  readonly logTheta: Float64Array;
  /** shape (Σ r_i, K), in the instance's memory: expected allele counts. */
  readonly counts: Float64Array;
  /** table[g, :] = Σ over the observed copies a of genotype g0 + g of logTheta[off + a, :], g < G. */
  genotypeLogs(g0: number, G: number, off: number): void;
  /** counts[off + a, :] += table[g, :] for each observed copy a of genotype g0 + g, g < G. */
  spread(g0: number, G: number, off: number): void;
}

/** What the instance is sized for and keeps. */
export interface WasmRowsShape {
  readonly N: number;
  readonly K: number;
  /** rows of the per-genotype table */
  readonly tableRows: number;
  /** code arrays to keep in the instance (those up to 16 MiB; others are copied per locus) */
  readonly resident?: readonly Codes[];
  /** the genotypes' allele copies (PreparedData.genotypeAlleles, P per genotype, missing < 0) */
  readonly copies?: { readonly P: number; readonly alleles: Int16Array; readonly totalAlleles: number };
}

type Codes = Uint8Array | Uint16Array | Int32Array;
type RowLoop = (codes: number, n: number, K: number, rows: number, table: number) => void;
type CopyLoop = (alleles: number, G: number, P: number, K: number, byAllele: number, byGenotype: number) => void;
type Exports = Record<string, RowLoop | CopyLoop | undefined>;

/** Arrays up to this many bytes are copied into the instance once, not locus by locus. */
const RESIDENT_BYTES = 1 << 24;
let compiled: WebAssembly.Module | null | undefined;

function rowKernelsModule(): WebAssembly.Module | null {
  if (compiled === undefined) compiled = compileBase64(ROW_KERNELS_WASM);
  return compiled;
}

/** Whether the WebAssembly loops can run here. */
export function wasmRowsAvailable(): boolean {
  return rowKernelsModule() !== null;
}

/** The WebAssembly loops for one shape; undefined where WebAssembly with SIMD is missing. */
export function wasmRows(shape: WasmRowsShape): WasmRows | undefined {
  const module = rowKernelsModule();
  if (!module) return undefined;
  const { N, K, tableRows } = shape;
  const kept = (shape.resident ?? []).filter((c) => c.byteLength <= RESIDENT_BYTES);
  const copies = shape.copies && shape.copies.alleles.byteLength <= RESIDENT_BYTES ? shape.copies : undefined;
  const A = copies?.totalAlleles ?? 0;
  const { at, end } = layout([
    N * 4, // the codes of one locus, when not resident
    N * K * 8, // rows
    tableRows * K * 8, // table
    A * K * 8, // ln θ
    A * K * 8, // counts
    copies?.alleles.byteLength ?? 0,
    ...kept.map((c) => c.byteLength),
  ]);
  const [stagedAt, rowsAt, tableAt, logThetaAt, countsAt, allelesAt, ...keptAt] = at as [number, ...number[]];
  // A maximum, as the module declares one (its memory never grows).
  const pages = Math.max(1, Math.ceil(end / WASM_PAGE));
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as Exports;
  // Each loop writes K's columns out itself where K ≤ 8 (row-kernels.ts).
  const loop = <F>(name: string): F => exports[name]! as F;
  const add = [loop<RowLoop>('add8'), loop<RowLoop>('add16'), loop<RowLoop>('add32')] as const;
  const gather = [loop<RowLoop>('gather8'), loop<RowLoop>('gather16'), loop<RowLoop>('gather32')] as const;
  const buffer = memory.buffer;
  const residentAt = new Map<Codes, number>();
  kept.forEach((c, k) => {
    residentAt.set(c, keptAt[k]!);
    new Uint8Array(buffer, keptAt[k]!, c.byteLength).set(bytesOf(c));
  });
  const staged = [
    new Uint8Array(buffer, stagedAt, N),
    new Uint16Array(buffer, stagedAt, N),
    new Int32Array(buffer, stagedAt, N),
  ];
  const width = (codes: Codes) => (codes instanceof Uint8Array ? 0 : codes instanceof Uint16Array ? 1 : 2);
  /** Where the N codes from `start` are in the memory (copied in unless resident). */
  const place = (codes: Codes, start: number): number => {
    const base = residentAt.get(codes);
    if (base !== undefined) return base + start * codes.BYTES_PER_ELEMENT;
    staged[width(codes)]!.set(codes.subarray(start, start + N));
    return stagedAt;
  };
  let perLocus: WasmCopies | undefined;
  if (copies) {
    new Uint8Array(buffer, allelesAt!, copies.alleles.byteLength).set(bytesOf(copies.alleles));
    const genotypeLogs = loop<CopyLoop>('genotypeLogs');
    const spread = loop<CopyLoop>('spread');
    const P = copies.P;
    perLocus = {
      logTheta: new Float64Array(buffer, logThetaAt!, A * K),
      counts: new Float64Array(buffer, countsAt!, A * K),
      genotypeLogs: (g0, G, off) => genotypeLogs(allelesAt! + g0 * P * 2, G, P, K, logThetaAt! + off * K * 8, tableAt!),
      spread: (g0, G, off) => spread(allelesAt! + g0 * P * 2, G, P, K, countsAt! + off * K * 8, tableAt!),
    };
  }
  return {
    rows: new Float64Array(buffer, rowsAt!, N * K),
    table: new Float64Array(buffer, tableAt!, tableRows * K),
    add: (codes, start) => add[width(codes)]!(place(codes, start), N, K, rowsAt!, tableAt!),
    gather: (codes, start) => gather[width(codes)]!(place(codes, start), N, K, rowsAt!, tableAt!),
    ...(perLocus ? { copies: perLocus } : {}),
  };
}
