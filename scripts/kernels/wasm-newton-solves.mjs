// The admixture model's Newton solves — F's per locus (engine/model/admixture/f-newton.ts's
// solveLocus), Q's per individual (q-newton.ts's solveStep and qNewtonStep's loop) — compiled to
// WebAssembly from their AssemblyScript form (scripts/kernels/assembly/newton-solves.ts: the same operations
// in the same order, so the same bits; tests/model/wasm-passes.test.ts checks them).
// The module imports the admixture passes' memory ("env" "memory") and keeps no data of its own.
import { readFileSync } from 'node:fs';
import asc from 'assemblyscript/asc';

const SOURCE = new URL('./assembly/newton-solves.ts', import.meta.url);

/** The compiled module, base64. */
export async function newtonSolvesBase64() {
  const outputs = {};
  const { error, stderr } = await asc.main(
    [
      'newton-solves.ts',
      '-O3',
      '--runtime',
      'stub',
      '--importMemory',
      '--maximumMemory',
      '65536',
      '--noAssert',
      '--use',
      'abort=',
      '-o',
      'newton-solves.wasm',
    ],
    {
      readFile: (name) => (name === 'newton-solves.ts' ? readFileSync(SOURCE, 'utf8') : null),
      writeFile: (name, contents) => {
        outputs[name] = contents;
      },
      listFiles: () => [],
    },
  );
  if (error) throw new Error(`scripts/kernels/assembly/newton-solves.ts: ${error.message}\n${stderr.toString()}`);
  return Buffer.from(outputs['newton-solves.wasm']).toString('base64');
}
