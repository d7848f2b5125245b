// WebAssembly text assembled with wabt (its wat2wasm, compiled to JavaScript): the step every
// hand-written kernel (wasm-*.mjs) ends with; and the text of functions compiled from
// AssemblyScript, for kernels still written as text (the one fdlibm log: assembly/det-log.ts).
import { readFileSync } from 'node:fs';
import wabtInit from 'wabt';
import { assembleBase64 } from './asc.mjs';

/** The module of `wat` (named `name` in errors), validated, as base64; `simd` enables SIMD. */
export async function watBase64(name, wat, simd = false) {
  const wabt = await wabtInit();
  const module = wabt.parseWat(name, wat, simd ? { simd: true } : {});
  try {
    module.validate();
    return Buffer.from(module.toBinary({}).buffer).toString('base64');
  } finally {
    module.destroy();
  }
}

/** The exact WebAssembly text of a double (hexadecimal float; finite values only). */
export function hexFloat(x) {
  if (!Number.isFinite(x)) throw new RangeError(`hexFloat: ${x}`);
  if (x === 0) return Object.is(x, -0) ? '-0x0p+0' : '0x0p+0';
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? '-' : '';
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const mantissa = (bits & 0xfffffffffffffn).toString(16).padStart(13, '0');
  return exponent === 0 ? `${sign}0x0.${mantissa}p-1022` : `${sign}0x1.${mantissa}p${exponent - 1023}`;
}

/**
 * assembly/det-log.ts's detLog (engine/util/det-math.ts's fdlibm log) as the text of a function
 * named `$name`, f64 → f64: compiled by AssemblyScript and Binaryen (which keep IEEE arithmetic:
 * the same bits), then printed by wabt — so the text kernels take their logarithms from the one
 * source the AssemblyScript kernels import. It uses no memory, global or other function.
 */
export async function detLogFunction(name) {
  const source = readFileSync(new URL('./assembly/det-log.ts', import.meta.url), 'utf8');
  const binary = Buffer.from(await assembleBase64('det-log', source, { ownMemory: true }), 'base64');
  const wabt = await wabtInit();
  const module = wabt.readWasm(new Uint8Array(binary), { readDebugNames: false });
  let text;
  try {
    text = module.toText({ foldExprs: false, inlineExport: false });
  } finally {
    module.destroy();
  }
  // The module's only function (its comments dropped: they hold parentheses of their own).
  const plain = text.replace(/\(;[^;]*;\)/g, '');
  const defined = [...plain.matchAll(/\(func\s+\(type \d+\)/g)];
  if (defined.length !== 1) throw new Error('det-log: expected one function');
  const from = defined[0].index;
  let depth = 0;
  let to = from;
  for (; to < plain.length; to++) {
    if (plain[to] === '(') depth++;
    else if (plain[to] === ')' && --depth === 0) break;
  }
  const fn = plain.slice(from, to + 1).replace(/^\(func\s+\(type \d+\)/, `(func $${name}`);
  if (/\b(call|global\.|memory\.|[if]\d\d\.load|[if]\d\d\.store)/.test(fn))
    throw new Error('det-log: not self-contained');
  return fn;
}
