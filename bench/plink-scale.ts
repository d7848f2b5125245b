// The largest scale of the performance issue: a binary PLINK fileset of `--n` individuals × `--snps`
// SNPs (default 10,000 × 200,000; Balding–Nichols, `--pops` populations, F_ST 0.05, 1 % missing),
// written here once (streamed, into the system's temporary folder, or `--dir`), then read through
// the engine's PLINK reader, prepared for clustering and fitted by one EM start at `--k` (default 5)
// on one thread. Reports the seconds of each step and the peak resident memory (Linux's VmHWM).
// Usage: node --import tsx bench/plink-scale.ts [--n 10000] [--snps 200000] [--k 5] [--pops 5] [--dir DIR]
import { existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDataset } from '../engine/index.ts';
import { datasetFiles } from '../engine/node/file-source.ts';
import { buildPreparedData } from '../engine/model/prepared/prepared-data.ts';
import { DEFAULT_FIT } from '../engine/model/fit-options.ts';
import { runStart, startSeed } from '../engine/model/start.ts';
import { writePlinkFileset } from './plink-fileset.ts';
import { scriptArg, scriptNumber } from './args.ts';

const N = scriptNumber('--n', 10_000);
const L = scriptNumber('--snps', 200_000);
const K = scriptNumber('--k', 5);
const POPS = scriptNumber('--pops', 5);
const stem = join(scriptArg('--dir', tmpdir()), `stratify-bench-${N}x${L}`);

/** Peak resident memory of this process in MB (VmHWM). */
function peakMb(): number {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return hwm ? Number(hwm[1]) / 1024 : NaN;
}

if (!existsSync(`${stem}.bed`)) {
  const t0 = performance.now();
  await writePlinkFileset(stem, N, L, POPS);
  console.log(
    `wrote ${stem}.bed (${(statSync(`${stem}.bed`).size / 2 ** 20).toFixed(0)} MiB) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}
const base = peakMb();
const t0 = performance.now();
const data = await readDataset(datasetFiles(`${stem}.bed`));
const t1 = performance.now();
const md = buildPreparedData(data);
const t2 = performance.now();
const r = runStart(md, K, { ...DEFAULT_FIT, algorithm: 'em' }, 0, startSeed(1, K, 0, 0));
const t3 = performance.now();
const s = (a: number, b: number) => ((b - a) / 1000).toFixed(1);
console.log(`${N} individuals × ${L} SNPs, K = ${K}, EM, one thread`);
console.log(
  `read: ${s(t0, t1)} s; prepare: ${s(t1, t2)} s; one start: ${s(t2, t3)} s, ${r.iterations} iterations (${((t3 - t2) / 1000 / Math.max(1, r.iterations + 1)).toFixed(1)} s per E step), converged ${r.converged}, ln L ${r.logLik.toFixed(1)}`,
);
console.log(
  `peak resident memory: ${(peakMb() / 1024).toFixed(2)} GB (before reading: ${(base / 1024).toFixed(2)} GB)`,
);
