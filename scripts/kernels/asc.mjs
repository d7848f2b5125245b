// AssemblyScript to WebAssembly for the kernels: one module from one source text, optimised, with
// no runtime of its own, importing its memory ("env" "memory", at most 65,536 pages so that it can
// be declared shared: engine/util/wasm-module.ts) and without assertions or an abort import.
import { existsSync, readFileSync } from 'node:fs';
import asc from 'assemblyscript/asc';

/**
 * The module compiled from `source` (named `name`.ts in messages), base64; `simd` enables SIMD;
 * `ownMemory`: the module has its own memory (exported, grown by its caller) instead of importing one.
 */
export async function assembleBase64(name, source, { simd = false, ownMemory = false } = {}) {
  const outputs = {};
  const { error, stderr } = await asc.main(
    [
      `${name}.ts`,
      '-O3',
      '--runtime',
      'stub',
      ...(ownMemory ? [] : ['--importMemory']),
      '--maximumMemory',
      '65536',
      '--noAssert',
      ...(simd ? ['--enable', 'simd'] : []),
      '--use',
      'abort=',
      '-o',
      `${name}.wasm`,
    ],
    {
      // The kernel's own text; modules it imports ('./det-log') from scripts/kernels/assembly/.
      readFile: (file) => {
        if (file === `${name}.ts`) return source;
        const shared = new URL(`./assembly/${file}`, import.meta.url);
        return /^[a-z0-9-]+\.ts$/.test(file) && existsSync(shared) ? readFileSync(shared, 'utf8') : null;
      },
      writeFile: (file, contents) => {
        outputs[file] = contents;
      },
      listFiles: () => [],
    },
  );
  if (error) throw new Error(`${name}: ${error.message}\n${stderr.toString().slice(0, 4000)}`);
  return Buffer.from(outputs[`${name}.wasm`]).toString('base64');
}
