// F's Newton step solve per locus (engine/model/admixture/f-newton.ts's solveLocus) compiled to
// WebAssembly from its AssemblyScript form (scripts/assembly/f-solve.ts: the same operations in
// the same order, so the same bits; tests/model/wasm-passes.test.ts checks them locus by locus).
// The module imports the admixture passes' memory ("env" "memory") and keeps no data of its own.
import { readFileSync } from 'node:fs';
import asc from 'assemblyscript/asc';

const SOURCE = new URL('./assembly/f-solve.ts', import.meta.url);

/** The compiled module, base64. */
export async function fSolveBase64() {
  const outputs = {};
  const { error, stderr } = await asc.main(
    ['f-solve.ts', '-O3', '--runtime', 'stub', '--importMemory', '--noAssert', '--use', 'abort=', '-o', 'f-solve.wasm'],
    {
      readFile: (name) => (name === 'f-solve.ts' ? readFileSync(SOURCE, 'utf8') : null),
      writeFile: (name, contents) => {
        outputs[name] = contents;
      },
      listFiles: () => [],
    },
  );
  if (error) throw new Error(`scripts/assembly/f-solve.ts: ${error.message}\n${stderr.toString()}`);
  return Buffer.from(outputs['f-solve.wasm']).toString('base64');
}
