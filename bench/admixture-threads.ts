// One admixture start on every thread it is given (issue #65): as users run it, `stratify run` with
// one start at 1 and 2 threads (wall time and peak memory from GNU time, best of --rounds runs
// taken in turn); then where the time of that start goes, in a process of its own at 1, 2 and 8
// threads (8 on any machine: the memory and the division into shares): reading the fileset,
// preparing it, and the start itself split into the passes helper threads share (the parallel part)
// and the rest (the serial part: the EM pass, the acceleration's arithmetic, building the codes,
// the fit's bookkeeping), and the process's peak memory. From the 1-thread figures, the serial
// fraction s and Amdahl's prediction of the speed-up at n threads, 1 / (s + (1 − s) / n).
// Input: a simulated PLINK fileset (bench/plink-fileset.ts: 3 populations, F_ST 0.05, 1 % missing),
// written once into the system's temporary folder (or --dir).
// Usage: node --import tsx bench/admixture-threads.ts [--n 2000] [--snps 100000] [--k 3] [--rounds 2] [--dir DIR] > table.md
// (--part T: the breakdown at T threads alone, as JSON; the script runs itself so for each T.)
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDataset } from '../engine/index.ts';
import { datasetFiles } from '../engine/node/file-source.ts';
import { preparedData } from '../engine/model/prepared/prepared-data.ts';
import { preparedForAdmixture } from '../engine/service/start-work.ts';
import { fitOptions } from '../engine/service/cluster-sweep.ts';
import { CLUSTER_DEFAULTS as D } from '../engine/util/choices.ts';
import { runStart, startSeed } from '../engine/model/start.ts';
import { registerKernelHelpers } from '../engine/node/kernel-helper.ts';
import { setKernelHelpers, sharedPassSeconds } from '../engine/util/kernel-team.ts';
import { writePlinkFileset } from './plink-fileset.ts';
import { scriptArg } from './args.ts';
import { madeAt } from './made-at.ts';
import { timed } from './timed.ts';

const N = Number(scriptArg('--n', '2000'));
const L = Number(scriptArg('--snps', '100000'));
const K = Number(scriptArg('--k', '3'));
const rounds = Number(scriptArg('--rounds', '2'));
const dir = scriptArg('--dir', tmpdir());
const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'stratify.mjs');

const stem = join(dir, `stratify-bench-${N}x${L}`);
if (!existsSync(`${stem}.bed`)) await writePlinkFileset(stem, N, L, 3);
const bed = `${stem}.bed`;
const size = `${N.toLocaleString('en')} × ${L.toLocaleString('en')} SNPs`;
const s1 = (x: number) => x.toFixed(1);

/** Peak resident memory of this process (MB): Linux's VmHWM. */
function peakMb(): number {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return hwm ? Number(hwm[1]) / 1024 : NaN;
}

interface Part {
  readonly threads: number;
  readonly read: number;
  readonly prepare: number;
  readonly seconds: number;
  readonly parallel: number;
  readonly logLik: number;
  readonly iterations: number;
  readonly mb: number;
}

/** Reads and prepares the fileset and runs one start at `threads` threads, in this process. */
async function part(threads: number): Promise<Part> {
  registerKernelHelpers();
  const t0 = performance.now();
  const data = await readDataset(datasetFiles(bed));
  const t1 = performance.now();
  const md = preparedForAdmixture(preparedData(data), K);
  const t2 = performance.now();
  // The command line's admixture defaults (engine/cli/run.ts's fitOptionsFrom).
  const fit = fitOptions({
    model: 'admixture',
    tolerance: D.tolerance,
    acceleration: D.acceleration,
    qUpdate: D.qUpdate,
    fUpdate: D.fUpdate,
    admixtureInit: D.admixtureInit,
  });
  setKernelHelpers(threads - 1);
  const r = runStart(md, K, fit, 0, startSeed(1, K, 0, 0));
  const seconds = (performance.now() - t2) / 1000;
  return {
    threads,
    read: (t1 - t0) / 1000,
    prepare: (t2 - t1) / 1000,
    seconds,
    parallel: sharedPassSeconds(),
    logLik: r.logLik,
    iterations: r.iterations,
    mb: peakMb(),
  };
}

const asPart = scriptArg('--part', '');
if (asPart !== '') {
  console.log(JSON.stringify(await part(Number(asPart))));
  process.exit(0);
}

console.log(`# One admixture start on every thread it is given\n`);
console.log(
  `${madeAt()} \`node --import tsx bench/admixture-threads.ts --n ${N} --snps ${L} --k ${K} --rounds ${rounds}\`.\n`,
);

// As users run it.
const out = mkdtempSync(join(tmpdir(), 'stratify-threads-'));
const THREADS = [1, 2];
const best = new Map<number, { seconds: number; mb: number }>();
for (let r = 0; r < rounds; r++)
  for (const t of THREADS) {
    const args = ['run', bed, '--model', 'admixture', '--k', String(K), '--starts', '1', '--cv', '0'];
    const m = timed('node', [cli, ...args, '--threads', String(t), '--out', join(out, `t${t}`)]);
    if (!best.has(t) || m.seconds < best.get(t)!.seconds) best.set(t, m);
  }
rmSync(out, { recursive: true, force: true });
console.log(`## As users run it: \`stratify run FILE --model admixture --k ${K} --starts 1 --cv 0 --threads T\`\n`);
console.log(`${size}; best of ${rounds} runs taken in turn.\n`);
console.log('| threads | wall time (s) | × the 1-thread time | peak memory (MB) |');
console.log('|---|---|---|---|');
const one = best.get(1)!;
for (const t of THREADS) {
  const m = best.get(t)!;
  console.log(`| ${t} | ${s1(m.seconds)} | ${(m.seconds / one.seconds).toFixed(2)} | ${m.mb.toFixed(0)} |`);
}

// Where the time goes: each thread count in a process of its own (its peak memory its own).
const script = fileURLToPath(import.meta.url);
const parts = [1, 2, 8].map((t): Part => {
  const r = spawnSync(
    'node',
    [
      '--import',
      'tsx',
      script,
      '--n',
      String(N),
      '--snps',
      String(L),
      '--k',
      String(K),
      '--dir',
      dir,
      '--part',
      String(t),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  );
  if (r.status !== 0) throw new Error(`--part ${t} failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Part;
});
const [p1, p2, p8] = parts as [Part, Part, Part];
const same = parts.every((p) => p.logLik === p1.logLik);
console.log(`\n## Where the start's time goes (a process each: read, prepare, the start)\n`);
console.log(
  `The passes and solves helper threads share (Q's derivatives, step checks and solves by individuals; F's derivatives, ln L and solves by loci) are the parallel part; the rest of the start is serial. The same ln L on 1, 2 and 8 threads: ${same ? 'yes' : 'NO'} (${p1.logLik.toFixed(1)} after ${p1.iterations} steps). 8 threads on this machine's cores: for the memory, not the time.\n`,
);
console.log('| part | 1 thread (s) | 2 threads (s) | 8 threads (s) |');
console.log('|---|---|---|---|');
const row = (name: string, f: (p: Part) => number) =>
  console.log(`| ${name} | ${parts.map((p) => s1(f(p))).join(' | ')} |`);
row('read the fileset', (p) => p.read);
row('prepare (genotype codes and counts)', (p) => p.prepare);
row('start: shared passes and solves (parallel)', (p) => p.parallel);
row('start: the rest (serial)', (p) => p.seconds - p.parallel);
const total = (p: Part) => p.read + p.prepare + p.seconds;
row('**all**', total);
console.log(`| peak memory (MB) | ${parts.map((p) => p.mb.toFixed(0)).join(' | ')} |`);
const serial = (p1.read + p1.prepare + p1.seconds - p1.parallel) / total(p1);
const predict = (n: number) => 1 / (serial + (1 - serial) / n);
console.log(
  `\nSerial fraction (read + prepare + the start's serial part, over the 1-thread total): **${(100 * serial).toFixed(1)} %**. Amdahl's speed-up from it: 2 threads ${predict(2).toFixed(2)} × (measured here ${(total(p1) / total(p2)).toFixed(2)} ×), 8 threads ${predict(8).toFixed(2)} ×, 16 threads ${predict(16).toFixed(2)} ×. The parallel part alone ran ${(p1.parallel / p2.parallel).toFixed(2)} × as fast on 2 threads as on 1. Peak memory at 8 threads: ${(p8.mb / p1.mb).toFixed(2)} × the 1-thread peak.`,
);
