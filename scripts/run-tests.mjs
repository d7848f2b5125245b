#!/usr/bin/env node
// Runs every *.test.ts under tests/ with node's test runner (Node 20 does not expand globs).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'e2e' ? [] : find(p);
    return name.endsWith('.test.ts') ? [p] : [];
  });
}
const only = process.argv.slice(2);
const files = find(join(root, 'tests'))
  .map((p) => relative(root, p))
  .filter((p) => only.length === 0 || only.some((o) => p.includes(o)))
  .sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', ...files], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
