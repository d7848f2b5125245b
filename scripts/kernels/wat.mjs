// WebAssembly text assembled with wabt (its wat2wasm, compiled to JavaScript): the step every
// hand-written kernel (wasm-*.mjs) ends with.
import wabtInit from 'wabt';

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
