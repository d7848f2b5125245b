// One admixture start on every thread it is given (issue #65): as users run it, `stratify run` with
// one start at 1, 2 and 8 threads (wall time and peak memory from GNU time, best of --rounds runs
// taken in turn); then where the time of that start goes, in this process: reading the fileset,
// preparing it, and the start itself split into the passes helper threads share (the parallel part)
// and the rest (the serial part: F's and Q's solves, the EM pass, the subset stage's carry, the
// fit's bookkeeping). From the 1-thread figures, the serial fraction s and Amdahl's prediction of
// the speed-up at n threads, 1 / (s + (1 − s) / n).
// Input: a simulated PLINK fileset (bench/plink-fileset.ts: 3 populations, F_ST 0.05, 1 % missing),
// written once into the system's temporary folder (or --dir).
// Usage: node --import tsx bench/admixture-threads.ts [--n 2000] [--snps 100000] [--k 3] [--rounds 2] [--dir DIR] > table.md
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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

console.log(`# One admixture start on every thread it is given\n`);
console.log(
  `${madeAt()} \`node --import tsx bench/admixture-threads.ts --n ${N} --snps ${L} --k ${K} --rounds ${rounds}\`.\n`,
);

// As users run it.
const out = mkdtempSync(join(tmpdir(), 'stratify-threads-'));
const THREADS = [1, 2, 8];
const best = new Map<number, { seconds: number; mb: number }>();
for (let r = 0; r < rounds; r++)
  for (const t of THREADS) {
    const args = ['run', bed, '--model', 'admixture', '--k', String(K), '--starts', '1', '--cv', '0'];
    const m = timed('node', [cli, ...args, '--threads', String(t), '--out', join(out, `t${t}`)]);
    if (!best.has(t) || m.seconds < best.get(t)!.seconds) best.set(t, m);
  }
rmSync(out, { recursive: true, force: true });
console.log(`## As users run it: \`stratify run FILE --model admixture --k ${K} --starts 1 --cv 0 --threads T\`\n`);
console.log(`${size}; best of ${rounds} runs taken in turn (8 threads on this machine's cores: for the memory).\n`);
console.log('| threads | wall time (s) | × the 1-thread time | peak memory (MB) | × the 1-thread peak |');
console.log('|---|---|---|---|---|');
const one = best.get(1)!;
for (const t of THREADS) {
  const m = best.get(t)!;
  console.log(
    `| ${t} | ${s1(m.seconds)} | ${(m.seconds / one.seconds).toFixed(2)} | ${m.mb.toFixed(0)} | ${(m.mb / one.mb).toFixed(2)} |`,
  );
}

// Where the time goes, in this process.
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
const parts = [1, 2].map((threads) => {
  setKernelHelpers(threads - 1);
  const shared0 = sharedPassSeconds();
  const a = performance.now();
  const r = runStart(md, K, fit, 0, startSeed(1, K, 0, 0));
  const seconds = (performance.now() - a) / 1000;
  const parallel = sharedPassSeconds() - shared0;
  return { threads, seconds, parallel, serial: seconds - parallel, logLik: r.logLik, iterations: r.iterations };
});
setKernelHelpers(0);
const read = (t1 - t0) / 1000;
const prepare = (t2 - t1) / 1000;
const [p1, p2] = parts as [(typeof parts)[0], (typeof parts)[0]];
console.log(`\n## Where the start's time goes (one process: read, prepare, the start at 1 and 2 threads)\n`);
console.log(
  `The start's passes that helper threads share (Q's derivatives and step checks by individuals; F's derivatives and ln L by loci) are the parallel part; everything else is serial. Same ln L on both: ${p1.logLik === p2.logLik ? 'yes' : 'NO'} (${p1.logLik.toFixed(1)}, ${p1.iterations} steps).\n`,
);
console.log('| part | 1 thread (s) | 2 threads (s) |');
console.log('|---|---|---|');
console.log(`| read the fileset | ${s1(read)} | (${s1(read)}) |`);
console.log(`| prepare (codes, counts) | ${s1(prepare)} | (${s1(prepare)}) |`);
console.log(`| start: shared passes (parallel) | ${s1(p1.parallel)} | ${s1(p2.parallel)} |`);
console.log(`| start: the rest (serial) | ${s1(p1.serial)} | ${s1(p2.serial)} |`);
const total1 = read + prepare + p1.seconds;
const total2 = read + prepare + p2.seconds;
console.log(`| **all** | ${s1(total1)} | ${s1(total2)} (× ${(total2 / total1).toFixed(2)}) |`);
const serial = (read + prepare + p1.serial) / total1;
const predict = (n: number) => 1 / (serial + (1 - serial) / n);
console.log(
  `\nSerial fraction (read + prepare + the start's serial part, over the 1-thread total): **${(100 * serial).toFixed(1)} %**; Amdahl's speed-up at 2 threads ${predict(2).toFixed(2)} × (measured ${(total1 / total2).toFixed(2)} ×), at 8 threads ${predict(8).toFixed(2)} ×, at 16 threads ${predict(16).toFixed(2)} ×.`,
);
console.log(`The parallel part alone ran ${(p1.parallel / p2.parallel).toFixed(2)} × faster on 2 threads than on 1.`);
