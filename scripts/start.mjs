#!/usr/bin/env node
// `npm start`: builds and starts the desktop app; where the Electron binary is missing, says
// how to get it and starts the web build instead (same UI, engine in a Web Worker).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildApp, electronBinary } from './app-build.mjs';

const root = new URL('..', import.meta.url).pathname;
const webOnly = process.argv.includes('--web');
const bin = webOnly ? undefined : electronBinary(root);
console.log('Building the user interface…');
buildApp(root, { desktop: bin !== undefined });
if (bin) {
  const child = spawn(bin, ['.'], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  if (!webOnly) {
    console.log(`
  The Electron binary is not installed, so the desktop window cannot open.
  Electron downloads its binary on first use; that download is not possible on this machine.
  To run the desktop app, on a machine with internet access run:
      npx install-electron        (or: rm -rf node_modules/electron && npm install)
  or point ELECTRON_OVERRIDE_DIST_PATH at an unpacked Electron 45 directory.

  Starting the web build instead: the same app, with the engine in a Web Worker.
`);
  }
  const port = process.env.PORT ?? '4173';
  console.log(`  Open http://127.0.0.1:${port}/ in your browser (Ctrl+C to stop).\n`);
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'preview',
      '--config',
      'renderer/vite.config.ts',
      '--port',
      port,
      '--strictPort',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  child.on('exit', (code) => process.exit(code ?? 0));
}
