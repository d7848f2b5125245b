// The bundled command line (scripts/build-cli.mjs, what `stratify` runs after `npm install`)
// starts without TypeScript, runs starts on worker threads, and writes the same results as the
// TypeScript sources run through tsx.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers.ts';
import { dataPath } from '../../data/datasets.ts';
// @ts-expect-error: a JavaScript build script without type declarations
import { buildCli } from '../../scripts/build-cli.mjs';

test('the CLI bundle runs a two-thread sweep like the sources, bit for bit', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-cli-bundle-'));
  await (buildCli as (outdir: string, root: string) => Promise<unknown>)(join(dir, 'cli'), ROOT);
  assert.deepEqual(
    readdirSync(join(dir, 'cli'))
      .filter((f) => f.endsWith('.mjs'))
      .sort(),
    ['start-worker.mjs', 'stratify.mjs'],
  );
  const args = (out: string) => [
    'run',
    dataPath('nancycats.str'),
    '--k',
    '2..3',
    '--starts',
    '4',
    '--threads',
    '2',
    '--seed',
    '7',
    '--out',
    join(dir, out),
  ];
  // The bundle, imported by a plain Node process without any loader.
  const bundle = pathToFileURL(join(dir, 'cli', 'stratify.mjs')).href;
  // (A file, not --eval: worker threads inherit the process's flags, and --input-type refuses files.)
  const runner = join(dir, 'run-bundle.mjs');
  writeFileSync(
    runner,
    `const { run } = await import(${JSON.stringify(bundle)});\nprocess.exitCode = await run(['node', 'stratify', ...process.argv.slice(2)]);\n`,
  );
  const b = spawnSync(process.execPath, [runner, ...args('bundle')], { encoding: 'utf8' });
  assert.equal(b.status, 0, b.stderr);
  const s = spawnSync(process.execPath, [join(ROOT, 'bin', 'stratify.mjs'), ...args('source')], {
    encoding: 'utf8',
    env: { ...process.env, STRATIFY_FROM_SOURCE: '1' },
  });
  assert.equal(s.status, 0, s.stderr);
  const runs = (out: string) =>
    (
      JSON.parse(readFileSync(join(dir, out, 'stratify.json'), 'utf8')) as {
        runs: { K: number; logLik: number; Q: number[][] }[];
      }
    ).runs;
  const [fromBundle, fromSource] = [runs('bundle'), runs('source')];
  assert.equal(fromBundle.length, 2);
  assert.deepEqual(
    fromBundle.map((r) => [r.K, r.logLik, r.Q]),
    fromSource.map((r) => [r.K, r.logLik, r.Q]),
  );
});
