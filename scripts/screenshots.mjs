#!/usr/bin/env node
// `npm run screenshots`: remakes docs/screenshots/ (the README's pictures) by running the browser
// tests with SCREENSHOT_DIR pointing there; an ordinary test run saves them to a temporary folder.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const r = spawnSync(process.execPath, [join(root, 'scripts', 'run-e2e.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SCREENSHOT_DIR: join(root, 'docs', 'screenshots') },
});
process.exit(r.status ?? 1);
