// Speed and memory as users run the program: the `stratify` command with default options (unless a
// row says otherwise), reading the file and writing the results, each command a fresh process, one
// after the other. Wall time and peak resident memory come from GNU time (`/usr/bin/time -f`), so
// they include Node's start-up and the worker threads.
// Inputs: data/eHGDP.str.gz from the repository, and simulated binary PLINK filesets (written once
// into the system's temporary folder, or `--dir`): 2,000 × 100,000 SNPs and 324 × 14,000 SNPs (the
// size of the HapMap3 set users try the admixture model on). The admixture rows of one start turn off
// the model's default 5-fold cross-validation (`--cv 0`), so that they measure the one start they name.
// `--only a,b` runs the rows whose names contain one of the words; `--skip-slow` leaves out the
// admixture model on 2,000 × 100,000 SNPs. `--scale` runs instead the largest scale the issue asks
// about, 10,000 × 200,000 SNPs (5 populations; a 477 MiB .bed written once): reading it
// (`inspect`), one start of the mixture model and one of the admixture model at K = 5, on one
// thread (about an hour in all on 2 cores; docs/scripts/scale.ts).
// Usage: node --import tsx bench/cli-defaults.ts [--dir DIR] [--only WORDS] [--skip-slow] [--scale] > table.md
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writePlinkFileset } from './plink-fileset.ts';
import { scriptArg } from './args.ts';
import { madeAt } from './made-at.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'stratify.mjs');
const dir = scriptArg('--dir', tmpdir());
const only = scriptArg('--only', '')
  .split(',')
  .filter((w) => w !== '');
const skipSlow = process.argv.includes('--skip-slow');
const scale = process.argv.includes('--scale');
const TIME = '/usr/bin/time';
if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed for the peak memory: apt install time`);

/** The fileset of N × L SNPs in `dir`, written when missing; returns the .bed path. */
async function fileset(N: number, L: number, pops: number): Promise<string> {
  const stem = join(dir, `stratify-bench-${N}x${L}`);
  if (!existsSync(`${stem}.bed`)) await writePlinkFileset(stem, N, L, pops);
  return `${stem}.bed`;
}

interface Row {
  readonly name: string;
  readonly args: readonly string[];
}

/** The largest scale: reading, and one start of each model at K = 5 on one thread. */
async function scaleRows(): Promise<Row[]> {
  const largest = await fileset(10_000, 200_000, 5);
  return [
    { name: 'inspect 10,000 × 200,000 SNPs (reading the files)', args: ['inspect', largest] },
    {
      name: 'run 10,000 × 200,000 SNPs K 5, 1 start, 1 thread',
      args: ['run', largest, '--k', '5', '--starts', '1', '--threads', '1'],
    },
    {
      name: 'run 10,000 × 200,000 SNPs K 5, admixture, 1 start, 1 thread',
      args: ['run', largest, '--k', '5', '--model', 'admixture', '--starts', '1', '--cv', '0', '--threads', '1'],
    },
  ];
}

const rows: Row[] = scale ? await scaleRows() : await defaultRows();

async function defaultRows(): Promise<Row[]> {
  const big = await fileset(2000, 100_000, 3);
  const hapmapSized = await fileset(324, 14_000, 3);
  const ehgdp = join(root, 'data', 'eHGDP.str.gz');
  return [
    {
      name: 'sweep eHGDP K 2..8, 100 starts, 1 replicate, 2 threads',
      args: ['sweep', ehgdp, '--k', '2..8', '--replicates', '1', '--threads', '2'],
    },
    {
      name: 'sweep eHGDP K 2..8, 100 starts, 1 replicate, 2 threads, --algorithm em',
      args: ['sweep', ehgdp, '--k', '2..8', '--replicates', '1', '--threads', '2', '--algorithm', 'em'],
    },
    {
      name: 'run 2,000 × 100,000 SNPs K 3, 1 start, 1 thread',
      args: ['run', big, '--k', '3', '--starts', '1', '--threads', '1'],
    },
    {
      name: 'run 2,000 × 100,000 SNPs K 3, 1 start, 1 thread, --algorithm em',
      args: ['run', big, '--k', '3', '--starts', '1', '--threads', '1', '--algorithm', 'em'],
    },
    {
      name: 'run 2,000 × 100,000 SNPs K 3, 2 starts, 2 threads',
      args: ['run', big, '--k', '3', '--starts', '2', '--threads', '2'],
    },
    {
      name: 'run 324 × 14,000 SNPs K 3, admixture, 1 start, 1 thread',
      args: ['run', hapmapSized, '--k', '3', '--model', 'admixture', '--starts', '1', '--cv', '0', '--threads', '1'],
    },
    {
      name: 'run 324 × 14,000 SNPs K 3, admixture, 1 start, 2 threads',
      args: ['run', hapmapSized, '--k', '3', '--model', 'admixture', '--starts', '1', '--cv', '0', '--threads', '2'],
    },
    ...(skipSlow
      ? []
      : [
          {
            name: 'run 2,000 × 100,000 SNPs K 3, admixture, 1 start, 1 thread',
            args: ['run', big, '--k', '3', '--model', 'admixture', '--starts', '1', '--cv', '0', '--threads', '1'],
          },
          {
            name: 'run 2,000 × 100,000 SNPs K 3, admixture, 1 start, 2 threads',
            args: ['run', big, '--k', '3', '--model', 'admixture', '--starts', '1', '--cv', '0', '--threads', '2'],
          },
        ]),
  ];
}

console.log(madeAt());
console.log(
  'Each row one `stratify` process (bin/stratify.mjs), defaults unless the row says; results written to a temporary folder.',
);
console.log();
console.log('| command | wall time (s) | peak memory (MB) |');
console.log('|---|---|---|');
for (const row of rows) {
  if (only.length > 0 && !only.some((w) => row.name.includes(w))) continue;
  const out = mkdtempSync(join(tmpdir(), 'stratify-cli-bench-'));
  // inspect writes no files (its report goes to standard output).
  const outArgs = row.args[0] === 'inspect' ? [] : ['--out', out];
  const r = spawnSync(TIME, ['-f', 'TIME %e %M', process.execPath, cli, ...row.args, ...outArgs], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  rmSync(out, { recursive: true, force: true });
  const m = /TIME ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  if (r.status !== 0 || !m) {
    console.log(`| ${row.name} | failed (exit ${r.status}) | ${r.stderr.trim().split('\n').slice(-1)[0] ?? ''} |`);
    continue;
  }
  console.log(`| ${row.name} | ${Number(m[1]).toFixed(1)} | ${(Number(m[2]) / 1024).toFixed(0)} |`);
}
