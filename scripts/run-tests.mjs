#!/usr/bin/env node
// Runs the unit tests (every *.test.ts under tests/ but tests/e2e) with node's test runner, in two
// tiers: the fast tier, what a developer runs while working (`npm run test:fast`), and the slow
// tier — files whose first line is `// tier: slow` (kernel regeneration, published-value suites,
// whole CLI sweeps). `npm test` runs both. Each tier's duration and its slowest files are printed
// at the end, so the suite's time is on record in every run.
// Usage: node scripts/run-tests.mjs [--tier fast|slow|all] [substring ...]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const TIERS = ['fast', 'slow', 'all'];

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'e2e' ? [] : find(p);
    return name.endsWith('.test.ts') ? [p] : [];
  });
}

/** The tier a test file declares on its first line (fast unless it says slow). */
function tierOf(text) {
  return /^\/\/ tier: slow\b/.test(text) ? 'slow' : 'fast';
}

const args = process.argv.slice(2);
const tierAt = args.indexOf('--tier');
const tier = tierAt >= 0 ? args[tierAt + 1] : 'all';
if (!TIERS.includes(tier)) {
  console.error(`--tier must be one of ${TIERS.join(', ')} (got ${tier})`);
  process.exit(2);
}
const only = tierAt >= 0 ? args.filter((_, i) => i !== tierAt && i !== tierAt + 1) : args;
const files = find(join(root, 'tests'))
  .map((p) => relative(root, p))
  .filter((p) => only.length === 0 || only.some((o) => p.includes(o)))
  .sort();
const byTier = { fast: [], slow: [] };
for (const f of files) byTier[tierOf(readFileSync(join(root, f), 'utf8'))].push(f);
const tiers = tier === 'all' ? ['fast', 'slow'] : [tier];
if (tiers.every((t) => byTier[t].length === 0)) {
  console.error('no test files found');
  process.exit(1);
}

/** Runs one test file in its own process; resolves to its status, TAP output, seconds and counts. */
function runFile(file) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    // Without the parent's test-runner context (set when this script runs inside a test), else
    // the child's runner would skip its files.
    const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => {
      const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
      // A file that ran no test is a failure too (a test file that cannot fail is a defect).
      const ran = count('pass') + count('fail') + count('cancelled') + count('skipped') > 0;
      resolve({
        file,
        status: code === 0 && !ran ? 1 : (code ?? 1),
        out,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        pass: count('pass'),
        fail: count('fail') + count('cancelled'),
        skipped: count('skipped'),
      });
    });
  });
}

/** Runs one tier's files, as many at once as node's test runner would (cores − 1), each file's
 * output printed whole when it ends; resolves to the tier's wall seconds and each file's result. */
async function runTier(list) {
  const started = process.hrtime.bigint();
  const queue = [...list];
  const results = [];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const r = await runFile(file);
      process.stdout.write(`# ${file} (${r.seconds.toFixed(1)} s)\n${r.out}`);
      results.push(r);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, availableParallelism() - 1) }, worker));
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, results };
}

const minutes = (s) => `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
const summary = [];
let status = 0;
for (const t of tiers) {
  if (byTier[t].length === 0) continue;
  const { seconds, results } = await runTier(byTier[t]);
  const failed = results.filter((r) => r.status !== 0);
  if (failed.length) status = 1;
  const sum = (key) => results.reduce((a, r) => a + r[key], 0);
  const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 5);
  summary.push(
    `unit tests, ${t} tier: ${results.length} files, ${sum('pass')} passed, ${sum('fail')} failed, ` +
      `${sum('skipped')} skipped, in ${minutes(seconds)}; slowest: ` +
      slowest.map((r) => `${r.file} ${r.seconds.toFixed(0)} s`).join(', '),
  );
  for (const r of failed) summary.push(`  FAILED: ${r.file}`);
}
console.log(`\n${summary.join('\n')}`);
process.exit(status);
