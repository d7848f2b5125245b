// The admixture analysis as users run it, side by side with fastmixture in one run: Stratify's
// default admixture sweep (`stratify sweep FILE --model admixture --k 2..5`: adaptive starts, 5-fold
// CV, every core) against one fastmixture fit of K = 3 (and one with its 5-fold CV), on the same
// simulated HapMap3-size fileset (324 × 14,000 SNPs, 3 populations), each a fresh process timed
// by GNU time (wall and peak memory). With --reference, also Stratify's 60 starts of every start
// at each K (no CV): the best ln L the default sweep should reach (within 0.1).
// fastmixture is built from ../shared/peers/fastmixture (build.sh); point FASTMIXTURE at the
// folder that holds its built package (default: that folder); absent, its rows say so.
// Usage: node --import tsx bench/admixture-sweep.ts [--dir DIR] [--reference] > table.md
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writePlinkFileset } from './plink-fileset.ts';
import { scriptArg } from './args.ts';
import { madeAt } from './made-at.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'stratify.mjs');
const dir = scriptArg('--dir', tmpdir());
const TIME = '/usr/bin/time';
if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed for the peak memory: apt install time`);
const threads = String(availableParallelism());

const stem = join(dir, 'stratify-bench-324x14000');
if (!existsSync(`${stem}.bed`)) await writePlinkFileset(stem, 324, 14_000, 3);

interface Timed {
  seconds: number;
  megabytes: number;
  stdout: string;
  ok: boolean;
  error: string;
}

function timed(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Timed {
  const r = spawnSync(TIME, ['-f', 'TIME %e %M', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, env });
  const m = /TIME ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  return {
    seconds: m ? Number(m[1]) : NaN,
    megabytes: m ? Number(m[2]) / 1024 : NaN,
    stdout: r.stdout,
    ok: r.status === 0 && m !== null,
    error: r.stderr.trim().split('\n').slice(-2)[0] ?? '',
  };
}

interface SweepJson {
  runs: { K: number; logLik: number; completedStarts: number; cvError?: number }[];
}

/** A `stratify sweep` of the fileset with these extra flags: time, memory, and per K ln L, starts, CV. */
function stratifySweep(extra: readonly string[]) {
  const out = mkdtempSync(join(tmpdir(), 'stratify-adm-sweep-'));
  const t = timed(process.execPath, [
    cli,
    'sweep',
    `${stem}.bed`,
    '--model',
    'admixture',
    '--k',
    '2..5',
    ...extra,
    '--out',
    out,
  ]);
  const json = t.ok ? (JSON.parse(readFileSync(join(out, 'stratify.json'), 'utf8')) as SweepJson) : { runs: [] };
  return { ...t, runs: json.runs };
}

const FASTMIXTURE = process.env.FASTMIXTURE ?? join(root, '..', 'shared', 'peers', 'fastmixture');
const fastmixtureBuilt =
  existsSync(join(FASTMIXTURE, 'fastmixture')) &&
  readdirSync(join(FASTMIXTURE, 'fastmixture')).some((f) => f.endsWith('.so'));

/** One fastmixture fit of K = 3 on the fileset (seed 1, every core), with `extra` flags. */
function fastmixture(extra: readonly string[]) {
  const out = join(mkdtempSync(join(tmpdir(), 'fastmixture-')), 'fm');
  const t = timed(
    'python3',
    [
      '-m',
      'fastmixture.main',
      '--bfile',
      stem,
      '--K',
      '3',
      '--threads',
      threads,
      '--seed',
      '1',
      '--out',
      out,
      ...extra,
    ],
    {
      ...process.env,
      PYTHONPATH: FASTMIXTURE,
    },
  );
  const log = t.ok ? readFileSync(`${out}.K3.s1.log`, 'utf8') : '';
  const like = /Final log-likelihood: (-?[\d.]+)/.exec(log)?.[1];
  const cv = /Cross-validation error \(SD\): ([\d.]+)/.exec(t.stdout)?.[1];
  return { ...t, logLik: like ? Number(like) : NaN, cv: cv ? Number(cv) : undefined };
}

const lines: string[] = [];
const out = (s = '') => lines.push(s);
out(madeAt());
out(
  `Fileset: 324 × 14,000 simulated SNPs (3 populations, F_ST 0.05, 1 % missing; bench/plink-fileset.ts). Each row one process, ${threads} threads, timed by GNU time.`,
);
out();
const sweep = stratifySweep([]);
out('| command | wall time (s) | peak memory (MB) | result |');
out('|---|---|---|---|');
const perK = sweep.runs
  .map((r) => `K=${r.K}: ln L ${r.logLik.toFixed(1)}, ${r.completedStarts} starts, CV ${r.cvError?.toFixed(5) ?? '–'}`)
  .join('; ');
const lowest = sweep.runs.length
  ? sweep.runs.reduce((a, b) => ((b.cvError ?? Infinity) < (a.cvError ?? Infinity) ? b : a)).K
  : '–';
out(
  `| \`stratify sweep FILE --model admixture --k 2..5\` (defaults) | ${sweep.ok ? sweep.seconds.toFixed(1) : `failed: ${sweep.error}`} | ${sweep.megabytes.toFixed(0)} | ${perK}; lowest CV error at K = ${lowest} |`,
);
if (fastmixtureBuilt) {
  for (const [label, extra] of [
    ['fastmixture, K = 3', []],
    ['fastmixture, K = 3, `--cv 5`', ['--cv', '5']],
  ] as const) {
    const f = fastmixture(extra);
    out(
      `| ${label} | ${f.ok ? f.seconds.toFixed(1) : `failed: ${f.error}`} | ${f.megabytes.toFixed(0)} | ln L ${f.logLik.toFixed(1)}${f.cv !== undefined ? `, CV ${f.cv.toFixed(5)}` : ''} |`,
    );
  }
} else out(`| fastmixture | not built (${FASTMIXTURE}: run its build.sh, or set FASTMIXTURE) | | |`);
if (process.argv.includes('--reference')) {
  const ref = stratifySweep(['--starts', '60', '--starts-rule', 'all', '--cv', '0']);
  out(
    `| reference: \`… --starts 60 --starts-rule all --cv 0\` | ${ref.seconds.toFixed(1)} | ${ref.megabytes.toFixed(0)} | ${ref.runs.map((r) => `K=${r.K}: ${r.logLik.toFixed(1)}`).join('; ')} |`,
  );
  out();
  out(
    `Default sweep's best ln L minus the 60-start best: ${sweep.runs
      .map((r) => `K=${r.K} ${(r.logLik - (ref.runs.find((x) => x.K === r.K)?.logLik ?? NaN)).toFixed(2)}`)
      .join(', ')}.`,
  );
}
process.stdout.write(lines.join('\n') + '\n');
