#!/usr/bin/env node
// Bundles the command line into dist/cli/ so that `stratify` starts without compiling
// TypeScript: the CLI and its start worker (engine/node/worker-pool.ts finds start-worker.mjs
// beside the module that spawns it). Run by `npm install` (the prepare script) and by
// `npm run build:cli`; bin/stratify.mjs falls back to the TypeScript sources through tsx when
// the bundle is missing or older than a source file, so an edit is never run stale.
import { build } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bundles: entry and output name in dist/cli/. */
export const CLI_BUNDLES = [
  { entry: 'engine/cli/main.ts', out: 'stratify.mjs' },
  { entry: 'engine/node/start-worker-main.ts', out: 'start-worker.mjs' },
];

/** Builds the CLI bundles into `outdir` (relative to `root`). */
export async function buildCli(outdir = join('dist', 'cli'), root = process.cwd()) {
  return Promise.all(
    CLI_BUNDLES.map((b) =>
      build({
        absWorkingDir: root,
        entryPoints: [b.entry],
        outfile: join(outdir, b.out),
        format: 'esm',
        bundle: true,
        platform: 'node',
        target: 'node20',
        // CommonJS dependencies that require Node built-ins need a require in an ES module.
        banner: {
          js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
        },
        sourcemap: 'linked',
        logLevel: 'warning',
      }),
    ),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  await buildCli(join('dist', 'cli'), root);
}
