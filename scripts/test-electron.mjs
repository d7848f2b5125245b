#!/usr/bin/env node
// `npm run test:electron`: a smoke test of the real desktop shell (tests/electron-smoke/smoke.ts)
// through Playwright's Electron support, under Xvfb where there is no display. Where the Electron
// binary is not installed (it cannot be downloaded on every machine) it says so in one line and
// exits 0.
import { existsSync } from 'node:fs';
import { buildApp, electronBinary, runOrExit } from './app-build.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = electronBinary(root);
if (!bin) {
  console.log(
    'electron: the Electron binary is not installed (node_modules/electron/dist); the desktop smoke test was not run',
  );
  process.exit(0);
}
buildApp(root, { desktop: true });
const test = [process.execPath, '--import', 'tsx', '--test', '--test-reporter=tap', 'tests/electron-smoke/smoke.ts'];
const env = { ...process.env, ELECTRON_BINARY: bin };
if (process.platform === 'linux' && !process.env.DISPLAY) {
  if (!existsSync('/usr/bin/xvfb-run')) {
    console.log('electron: no display and no xvfb-run (apt-get install -y xvfb); the desktop smoke test was not run');
    process.exit(process.env.CI ? 1 : 0);
  }
  runOrExit(root, '/usr/bin/xvfb-run', ['-a', ...test], env);
} else runOrExit(root, test[0], test.slice(1), env);
