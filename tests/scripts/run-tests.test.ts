import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers.ts';

const runner = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'run-tests.mjs'), ...args], { cwd: ROOT, encoding: 'utf8' });

test('the unit runner: a file that says `// tier: slow` runs in the slow tier only; an unknown tier is refused', () => {
  // tests/scripts/kernels.test.ts regenerates every kernel: slow. Asked for in the fast tier, nothing runs.
  const fast = runner('--tier', 'fast', 'tests/scripts/kernels.test.ts');
  assert.equal(fast.status, 1);
  assert.match(fast.stderr, /no test files found/);
  const bogus = runner('--tier', 'quick');
  assert.equal(bogus.status, 2);
  assert.match(bogus.stderr, /--tier must be one of fast, slow, all \(got quick\)/);
  // A fast file runs, and the tier's line gives its count and time.
  const one = runner('--tier', 'fast', 'tests/version.test.ts');
  assert.equal(one.status, 0, one.stderr);
  assert.match(one.stdout, /unit tests, fast tier: 1 files, 1 passed, 0 failed, 0 skipped, in 0 min \d+ s/);
});
