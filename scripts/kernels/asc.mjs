// AssemblyScript to WebAssembly for the kernels: one module from one source text, optimised, with
// no runtime of its own, importing its memory ("env" "memory", at most 65,536 pages so that it can
// be declared shared: engine/util/wasm-module.ts) and without assertions or an abort import.
import asc from 'assemblyscript/asc';

/** The module compiled from `source` (named `name`.ts in messages), base64; `simd` enables SIMD. */
export async function assembleBase64(name, source, { simd = false } = {}) {
  const outputs = {};
  const { error, stderr } = await asc.main(
    [
      `${name}.ts`,
      '-O3',
      '--runtime',
      'stub',
      '--importMemory',
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
      readFile: (file) => (file === `${name}.ts` ? source : null),
      writeFile: (file, contents) => {
        outputs[file] = contents;
      },
      listFiles: () => [],
    },
  );
  if (error) throw new Error(`${name}: ${error.message}\n${stderr.toString().slice(0, 4000)}`);
  return Buffer.from(outputs[`${name}.wasm`]).toString('base64');
}
