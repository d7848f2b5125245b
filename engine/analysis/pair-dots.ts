import { compileBase64, regionMemory } from '../util/wasm-module.ts';
import { PAIR_DOTS_WASM } from './generated/pair-dots-wasm.ts';

/**
 * Two float32 matrices of N rows (the fit check's residuals: d with F, d0 with F⁽⁰⁾) and the dot
 * products d_i · d0_j for every pair i < j — the fit check's one N² × columns loop. Rows are padded
 * to a multiple of 4 floats (zeros) and d to a multiple of 4 rows; where WebAssembly SIMD is
 * available the rows live in the kernel's memory (scripts/kernels/assembly/pair-dots.ts), else in
 * JavaScript arrays with the same blocking in JavaScript.
 */
export interface ResidualRows {
  /** Floats from one row to the next (≥ columns, a multiple of 4). */
  readonly stride: number;
  readonly d: Float32Array;
  readonly d0: Float32Array;
  /**
   * Writes d_i · d0_j to matrix[i·N + j] for i < j (float32); onRows(done) after each block of
   * four i, done the pairs so far.
   */
  dots(matrix: Float32Array, onRows?: (pairsDone: number) => void): void;
}

interface Exports {
  dots4(a: number, row: number, b: number, n: number, out: number): void;
}

let compiled: WebAssembly.Module | null | undefined;

/**
 * The pairs' loop, blocks of four i against each j > i: `four(i0, j)` leaves d_{i0+r} · d0_j in
 * out[r] (rows past N are zeros), stored to matrix[(i0 + r)·N + j] for i0 + r < j.
 */
function blockedDots(
  N: number,
  matrix: Float32Array,
  out: Float64Array,
  four: (i0: number, j: number) => void,
  onRows?: (pairsDone: number) => void,
): void {
  let done = 0;
  for (let i0 = 0; i0 < N; i0 += 4) {
    for (let j = i0 + 1; j < N; j++) {
      four(i0, j);
      for (let r = 0; r < 4 && i0 + r < j; r++) matrix[(i0 + r) * N + j] = out[r]!;
    }
    for (let r = 0; r < 4 && i0 + r < N; r++) done += N - 1 - (i0 + r);
    onRows?.(done);
  }
}

/** Rows for N individuals × `columns`, in WebAssembly memory when it can be had. */
export function residualRows(N: number, columns: number, useWasm = true): ResidualRows {
  const stride = Math.max(4, Math.ceil(columns / 4) * 4);
  const rowsD = Math.ceil(N / 4) * 4;
  if (useWasm && compiled === undefined) compiled = compileBase64(PAIR_DOTS_WASM);
  const mem = useWasm && compiled ? regionMemory({ d: rowsD * stride * 4, d0: N * stride * 4, out: 32 }) : undefined;
  if (mem && compiled) {
    const exports = new WebAssembly.Instance(compiled, { env: { memory: mem.memory } }).exports as unknown as Exports;
    const buffer = mem.memory.buffer;
    const out = new Float64Array(buffer, mem.at.out, 4);
    const { d: at, d0: at0 } = mem.at;
    return {
      stride,
      d: new Float32Array(buffer, at, rowsD * stride),
      d0: new Float32Array(buffer, at0, N * stride),
      dots: (matrix, onRows) =>
        blockedDots(
          N,
          matrix,
          out,
          (i0, j) => exports.dots4(at + i0 * stride * 4, stride * 4, at0 + j * stride * 4, stride, mem.at.out),
          onRows,
        ),
    };
  }
  const d = new Float32Array(rowsD * stride);
  const d0 = new Float32Array(N * stride);
  const out = new Float64Array(4);
  return {
    stride,
    d,
    d0,
    dots: (matrix, onRows) =>
      blockedDots(
        N,
        matrix,
        out,
        (i0, j) => {
          const r0 = i0 * stride;
          const rj = j * stride;
          let x0 = 0;
          let x1 = 0;
          let x2 = 0;
          let x3 = 0;
          for (let s = 0; s < stride; s++) {
            const v = d0[rj + s]!;
            x0 += d[r0 + s]! * v;
            x1 += d[r0 + stride + s]! * v;
            x2 += d[r0 + 2 * stride + s]! * v;
            x3 += d[r0 + 3 * stride + s]! * v;
          }
          out[0] = x0;
          out[1] = x1;
          out[2] = x2;
          out[3] = x3;
        },
        onRows,
      ),
  };
}
