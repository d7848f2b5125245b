// The written-out kernels (genotype-rows.ts, em-pass.ts, newton-passes.ts, cholesky-written-out.ts, row-kernels-wasm.ts, det-math-wasm.ts, admixture-passes-wasm.ts, newton-solves-wasm.ts) are generated: the files in the repository
// must be what scripts/gen-kernels.mjs writes, so an edit to one of them alone is caught here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

test('the written-out kernels are the output of scripts/gen-kernels.mjs', async () => {
  const generator = (await import(new URL('../scripts/gen-kernels.mjs', import.meta.url).href)) as {
    kernelSources(): Promise<Record<string, string>>;
  };
  const sources = await generator.kernelSources();
  assert.deepEqual(Object.keys(sources).sort(), [
    'engine/model/admixture/admixture-passes-wasm.ts',
    'engine/model/admixture/em-pass.ts',
    'engine/model/admixture/newton-passes.ts',
    'engine/model/admixture/newton-solves-wasm.ts',
    'engine/model/mixture/genotype-rows.ts',
    'engine/model/mixture/row-kernels-wasm.ts',
    'engine/util/cholesky-written-out.ts',
    'engine/util/det-math-wasm.ts',
  ]);
  for (const [path, text] of Object.entries(sources))
    assert.equal(
      readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'),
      text,
      `${path}: run node scripts/gen-kernels.mjs`,
    );
});
