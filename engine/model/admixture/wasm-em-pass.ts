import { EM_PASS_WASM } from './em-pass-wasm.ts';
import { compileBase64 } from '../../util/wasm-module.ts';
import { detLog } from '../../util/det-math.ts';
import type { PassArguments } from './em-pass.ts';

/**
 * The admixture model's EM pass (em-pass.ts) as WebAssembly (scripts/wasm-admixture-pass.mjs): the
 * same operations in the same order, so the same ln L and updates to the bit. One instance serves
 * the passes of one dataset's work at one K: the per-genotype entries live in its memory; the
 * genotype codes (and the held-out mask, turned locus-major) too when they take at most 16 MiB,
 * else they are copied in a few MiB of loci at a time, so large data are not duplicated per worker.
 * Q and F are copied in and the sums out at each pass (O((N + rows)·K), small beside the pass).
 * Where WebAssembly with SIMD is missing, {@link wasmEmPass} returns undefined and the JavaScript
 * pass runs.
 */
export interface WasmEmPass {
  readonly K: number;
  /** emPass(a) for arguments with this instance's data, K and held-out entries. */
  run(a: PassArguments): number;
}

type PassFunction = (
  codes: number,
  mask: number,
  l0: number,
  l1: number,
  N: number,
  K: number,
  gOffs: number,
  start: number,
  row: number,
  count: number,
  Q: number,
  F: number,
  Qn: number,
  Fn: number,
  terms: number,
  state: number,
  flushes: number,
) => void;
type Codes = PassArguments['genotypeOf'];

const PAGE = 65536;
/** Codes (or a mask) up to this many bytes are copied in once, not for every pass. */
const RESIDENT_BYTES = 1 << 24;
/** Otherwise loci are copied in groups of about this many bytes. */
const CHUNK_BYTES = 1 << 22;
let compiled: WebAssembly.Module | null | undefined;

function passModule(): WebAssembly.Module | null {
  if (compiled === undefined) compiled = compileBase64(EM_PASS_WASM);
  return compiled;
}

/** Byte offsets of consecutive regions, each 16-byte aligned. */
function layout(sizes: readonly number[]): { at: number[]; end: number } {
  const at: number[] = [];
  let end = 0;
  for (const size of sizes) {
    at.push(end);
    end += Math.ceil(size / 16) * 16;
  }
  return { at, end };
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** heldOut (individual-major, N × L) as a locus-major mask. */
function locusMajor(heldOut: Uint8Array, N: number, L: number): Uint8Array {
  const mask = new Uint8Array(N * L);
  for (let i = 0; i < N; i++) for (let l = 0; l < L; l++) mask[l * N + i] = heldOut[i * L + l]!;
  return mask;
}

/**
 * The WebAssembly pass for the data and K of `a`; undefined where it cannot run. `limits` (tests):
 * the largest codes kept resident, and the bytes of loci copied in at a time otherwise.
 */
export function wasmEmPass(
  a: PassArguments,
  limits = { residentBytes: RESIDENT_BYTES, chunkBytes: CHUNK_BYTES },
): WasmEmPass | undefined {
  const module = passModule();
  if (!module) return undefined;
  const { N, L, K, genotypeOf, genotypeOffsets, start, row, count } = a;
  const rows = a.F.length / K;
  const bytes = genotypeOf.BYTES_PER_ELEMENT;
  const mask = a.heldOut ? locusMajor(a.heldOut, N, L) : undefined;
  // Room for the running products set aside at one locus: one per copy at most.
  let ploidy = 0;
  for (let g = 0; g + 1 < start.length; g++) {
    let copies = 0;
    for (let j = start[g]!; j < start[g + 1]!; j++) copies += count[j]!;
    ploidy = Math.max(ploidy, copies);
  }
  const resident = genotypeOf.byteLength <= limits.residentBytes;
  const chunk = resident ? L : Math.max(1, Math.min(L, Math.floor(limits.chunkBytes / (N * bytes))));
  const { at, end } = layout([
    16, // state: ln L so far, running product (at 0, so that no mask is at 0)
    genotypeOffsets.byteLength,
    start.byteLength,
    row.byteLength,
    count.byteLength,
    chunk * N * bytes,
    mask ? chunk * N : 0,
    N * K * 8, // Q
    rows * K * 8, // F
    N * K * 8, // Qn
    rows * K * 8, // Fn
    K * 8, // terms
    N * ploidy * 8, // products set aside
  ]);
  const [stateAt, gOffsAt, startAt, rowAt, countAt, codesAt, maskAt, QAt, FAt, QnAt, FnAt, termsAt, flushesAt] = at as [
    number,
    ...number[],
  ];
  let memory: WebAssembly.Memory;
  try {
    memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(end / PAGE)) });
  } catch {
    return undefined; // beyond what this WebAssembly memory can hold
  }
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as Record<
    string,
    PassFunction | undefined
  >;
  const width = genotypeOf instanceof Uint8Array ? 8 : genotypeOf instanceof Uint16Array ? 16 : 32;
  const pass = (exports[`pass${width}k${K}`] ?? exports[`pass${width}`])!;
  const buffer = memory.buffer;
  const place = (target: number, source: ArrayBufferView) =>
    new Uint8Array(buffer, target, source.byteLength).set(bytesOf(source));
  place(gOffsAt!, genotypeOffsets);
  place(startAt!, start);
  place(rowAt!, row);
  place(countAt!, count);
  const codesView = new Uint8Array(buffer, codesAt!, chunk * N * bytes);
  const maskView = mask ? new Uint8Array(buffer, maskAt!, chunk * N) : undefined;
  if (resident) {
    codesView.set(bytesOf(genotypeOf));
    maskView?.set(mask!);
  }
  const state = new Float64Array(buffer, stateAt, 2);
  const Qv = new Float64Array(buffer, QAt!, N * K);
  const Fv = new Float64Array(buffer, FAt!, rows * K);
  const Qnv = new Float64Array(buffer, QnAt!, N * K);
  const Fnv = new Float64Array(buffer, FnAt!, rows * K);
  const codeBytes: Uint8Array = bytesOf(genotypeOf as Codes);
  return {
    K,
    run(p: PassArguments): number {
      Qv.set(p.Q);
      Fv.set(p.F);
      Qnv.set(p.Qn);
      Fnv.set(p.Fn);
      state[0] = 0;
      state[1] = 1;
      for (let l0 = 0; l0 < L; l0 += chunk) {
        const l1 = Math.min(L, l0 + chunk);
        if (!resident) {
          codesView.set(codeBytes.subarray(l0 * N * bytes, l1 * N * bytes));
          maskView?.set(mask!.subarray(l0 * N, l1 * N));
        }
        pass(
          codesAt!,
          maskView ? maskAt! : 0,
          l0,
          l1,
          N,
          K,
          gOffsAt!,
          startAt!,
          rowAt!,
          countAt!,
          QAt!,
          FAt!,
          QnAt!,
          FnAt!,
          termsAt!,
          stateAt,
          flushesAt!,
        );
      }
      p.Qn.set(Qnv);
      p.Fn.set(Fnv);
      return state[0]! + detLog(state[1]!);
    },
  };
}
