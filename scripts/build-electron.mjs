#!/usr/bin/env node
// Bundles the Electron main process, preload, engine utility process and start worker into
// dist-electron/ (the renderer is built by Vite into dist-web/).
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: ['electron'],
  logLevel: 'warning',
};
await Promise.all([
  build({ ...common, entryPoints: ['electron/main.ts'], outfile: 'dist-electron/main.cjs', format: 'cjs' }),
  build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'dist-electron/preload.cjs', format: 'cjs' }),
  build({
    ...common,
    entryPoints: ['electron/engine-host-entry.ts'],
    outfile: 'dist-electron/engine-host-entry.mjs',
    format: 'esm',
  }),
  build({
    ...common,
    entryPoints: ['engine/node/start-worker-main.ts'],
    outfile: 'dist-electron/start-worker.mjs',
    format: 'esm',
  }),
]);
console.log('built dist-electron/');
