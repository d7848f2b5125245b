import { detLog, detLogGamma } from './det-math.ts';
import { DET_MATH_WASM } from './generated/det-math-wasm.ts';
import { compileBase64, WASM_PAGE } from './wasm-module.ts';

/**
 * det-math.ts's ln and ln Γ over whole arrays, as WebAssembly (scripts/kernels/assembly/det-math.ts): the same
 * operations in the same order, so the same bits, about 4× faster than calling the JavaScript
 * functions element by element (they read a double's words through a typed array). The E step takes
 * ln θ for every allele and cluster and the MA step ln Γ of every expected count this way. Where
 * WebAssembly is missing, the JavaScript functions run.
 */
interface DetMathExports {
  readonly memory: WebAssembly.Memory;
  log(src: number, dst: number, n: number): void;
  logGamma(src: number, dst: number, n: number, shift: number): void;
}

let instance: DetMathExports | null | undefined;
let view = new Float64Array(0);

function detMath(): DetMathExports | null {
  if (instance === undefined) {
    const module = compileBase64(DET_MATH_WASM);
    instance = module ? (new WebAssembly.Instance(module).exports as unknown as DetMathExports) : null;
  }
  return instance;
}

/** The module's memory as doubles, grown to hold at least n (the arrays are computed in place). */
function room(w: DetMathExports, n: number): Float64Array {
  const bytes = n * 8;
  if (w.memory.buffer.byteLength < bytes) w.memory.grow(Math.ceil((bytes - w.memory.buffer.byteLength) / WASM_PAGE));
  if (view.buffer !== w.memory.buffer) view = new Float64Array(w.memory.buffer);
  return view;
}

/** dst[j] = detLog(src[j]) for j < n. */
export function detLogInto(src: Float64Array, dst: Float64Array, n = src.length): void {
  const w = detMath();
  if (!w) {
    for (let j = 0; j < n; j++) dst[j] = detLog(src[j]!);
    return;
  }
  const v = room(w, n);
  v.set(src.subarray(0, n));
  w.log(0, 0, n);
  dst.set(v.subarray(0, n));
}

/** dst[j] = detLogGamma(shift + src[j]) for j < n. */
export function detLogGammaInto(src: Float64Array, shift: number, dst: Float64Array, n = src.length): void {
  const w = detMath();
  if (!w) {
    for (let j = 0; j < n; j++) dst[j] = detLogGamma(shift + src[j]!);
    return;
  }
  const v = room(w, n);
  v.set(src.subarray(0, n));
  w.logGamma(0, 0, n, shift);
  dst.set(v.subarray(0, n));
}
