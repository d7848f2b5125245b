#!/usr/bin/env node
// Bundles the Electron main process, preload, engine utility process and start worker into
// dist-electron/ (the renderer is built by Vite into dist-web/). Every bundle inlines its
// imports but Electron and Node's built-ins, so the packed app needs no node_modules.
// `--outdir DIR` builds elsewhere (tests/electron/packaging.test.ts).
import { build } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bundles: entry, output name in dist-electron/, module format. */
export const BUNDLES = [
  { entry: 'electron/main.ts', out: 'main.cjs', format: 'cjs' },
  // A sandboxed preload must be one CommonJS file that requires nothing but 'electron'.
  { entry: 'electron/preload.ts', out: 'preload.cjs', format: 'cjs' },
  // Started by utilityProcess.fork and new Worker(): unpacked from the asar (electron-builder.yml).
  { entry: 'electron/engine-host-entry.ts', out: 'engine-host-entry.mjs', format: 'esm' },
  { entry: 'engine/node/start-worker-main.ts', out: 'start-worker.mjs', format: 'esm' },
];

/** Builds every bundle into `outdir`; returns esbuild's metafiles. */
export async function buildElectron(outdir = 'dist-electron', root = process.cwd()) {
  return Promise.all(
    BUNDLES.map((b) =>
      build({
        absWorkingDir: root,
        entryPoints: [b.entry],
        outfile: join(outdir, b.out),
        format: b.format,
        bundle: true,
        platform: 'node',
        target: 'node20',
        sourcemap: true,
        external: ['electron'],
        metafile: true,
        logLevel: 'warning',
      }),
    ),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--outdir');
  const outdir = i > 0 ? process.argv[i + 1] : 'dist-electron';
  await buildElectron(outdir);
  console.log(`built ${outdir}/`);
}
