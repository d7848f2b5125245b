// tier: slow — regenerates every WebAssembly kernel (run by npm test, not by npm run test:fast).
// The WebAssembly kernels under engine/**/generated/ are generated: the files in the repository
// must be what scripts/kernels/gen-kernels.mjs writes, so an edit to one of them alone is caught
// here, and nothing else sits in a generated/ folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers.ts';

test('the generated kernels are the output of scripts/kernels/gen-kernels.mjs', async () => {
  const generator = (await import(new URL('../../scripts/kernels/gen-kernels.mjs', import.meta.url).href)) as {
    kernelSources(): Promise<Record<string, string>>;
  };
  const sources = await generator.kernelSources();
  const generatedFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      if (!statSync(p).isDirectory()) return dir.endsWith('/generated') ? [relative(ROOT, p)] : [];
      return generatedFiles(p);
    });
  assert.deepEqual(Object.keys(sources).sort(), generatedFiles(join(ROOT, 'engine')).sort());
  assert.deepEqual(Object.keys(sources).sort(), [
    'engine/analysis/generated/pair-dots-wasm.ts',
    'engine/analysis/generated/pca-passes-wasm.ts',
    'engine/classify/generated/search-scores-wasm.ts',
    'engine/data/generated/ld-pairs-wasm.ts',
    'engine/model/admixture/generated/admixture-passes-wasm.ts',
    'engine/model/admixture/generated/newton-solves-wasm.ts',
    'engine/model/admixture/generated/two-allele-passes-wasm.ts',
    'engine/model/mixture/generated/row-kernels-wasm.ts',
    'engine/util/generated/det-math-wasm.ts',
  ]);
  for (const [path, text] of Object.entries(sources))
    assert.equal(
      readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'),
      text,
      `${path}: run node scripts/kernels/gen-kernels.mjs`,
    );
});
