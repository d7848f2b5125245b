#!/usr/bin/env node
// Browser end-to-end tests: builds the web app, serves it with `vite preview` on 127.0.0.1 and
// runs tests/e2e/*.test.ts (node's test runner driving Debian's Chromium via playwright-core).
import { existsSync, readdirSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.log(`e2e: Chromium not found at ${chromium} (apt-get install -y chromium); browser tests not run`);
  console.log('0 passed, 0 failed, 1 skipped');
  process.exit(process.env.CI ? 1 : 0);
}
const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const b = spawnSync(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
});
if (b.status !== 0) process.exit(b.status ?? 1);
const port = process.env.E2E_PORT ?? '4174';
const server = spawn(
  process.execPath,
  [vite, 'preview', '--config', 'renderer/vite.config.ts', '--port', port, '--strictPort'],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
const base = `http://127.0.0.1:${port}/`;
for (let k = 0; k < 100; k++) {
  try {
    if ((await fetch(base)).ok) break;
  } catch {
    /* not up yet */
  }
  await new Promise((r) => setTimeout(r, 100));
}
// `npm run test:e2e -- name` runs only the files whose names contain one of the given words.
const only = process.argv.slice(2);
const files = readdirSync(join(root, 'tests', 'e2e'))
  .filter((f) => f.endsWith('.test.ts') && (only.length === 0 || only.some((o) => f.includes(o))))
  .map((f) => join('tests', 'e2e', f));
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=tap', ...files],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, E2E_BASE_URL: base, CHROMIUM_PATH: chromium },
  },
);
server.kill();
process.exit(r.status ?? 1);
