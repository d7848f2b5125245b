// The largest scale of the performance issue: a binary PLINK fileset of `--n` individuals × `--snps`
// SNPs (default 10,000 × 200,000; Balding–Nichols, `--pops` populations, F_ST 0.05, 1 % missing),
// written here once (streamed, into the system's temporary folder, or `--dir`), then read through
// the engine's PLINK reader, prepared for clustering and fitted by one EM start at `--k` (default 5)
// on one thread. Reports the seconds of each step and the peak resident memory (Linux's VmHWM).
// Usage: node --import tsx bench/plink-scale.ts [--n 10000] [--snps 200000] [--k 5] [--pops 5] [--dir DIR]
import { createWriteStream, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDataset } from '../engine/index.ts';
import { datasetFiles } from '../engine/node/file-source.ts';
import { mixtureData } from '../engine/model/mixture/mixture-data.ts';
import { DEFAULT_FIT } from '../engine/model/mixture/fit.ts';
import { runStart, startSeed } from '../engine/model/multi-start.ts';
import { createRng, gammaDraw } from '../engine/util/rng.ts';
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

/** Writes stem.bed/.bim/.fam, one SNP at a time (memory stays at one batch of SNPs). */
async function writeFileset(): Promise<void> {
  const rng = createRng(1);
  const fst = 0.05;
  const c = (1 - fst) / fst;
  const per = Math.ceil(N / 4);
  const batch = 1000;
  const bed = createWriteStream(`${stem}.bed.part`);
  const bim = createWriteStream(`${stem}.bim`);
  await new Promise((resolve) => bed.write(Buffer.from([0x6c, 0x1b, 0x01]), resolve));
  const buf = Buffer.alloc(per * batch);
  const f = new Float64Array(POPS);
  for (let l0 = 0; l0 < L; l0 += batch) {
    const n = Math.min(batch, L - l0);
    buf.fill(0);
    const lines: string[] = [];
    for (let s = 0; s < n; s++) {
      const l = l0 + s;
      const p = 0.05 + 0.9 * rng.uniform();
      for (let k = 0; k < POPS; k++) {
        const x = gammaDraw(p * c, rng);
        f[k] = x / (x + gammaDraw((1 - p) * c, rng));
      }
      for (let d = 0; d < N; d++) {
        const q = f[d % POPS]!;
        // PLINK's 2-bit codes, low bits first: 00 hom A1, 01 missing, 10 het, 11 hom A2.
        let bits = 1;
        if (rng.uniform() >= 0.01) {
          const a2 = (rng.uniform() < q ? 1 : 0) + (rng.uniform() < q ? 1 : 0);
          bits = a2 === 0 ? 0 : a2 === 1 ? 2 : 3;
        }
        buf[s * per + (d >> 2)]! |= bits << ((d & 3) * 2);
      }
      lines.push(`1\tsnp${l}\t0\t${l + 1}\tA\tG`);
    }
    if (!bed.write(buf.subarray(0, n * per))) await once(bed, 'drain');
    if (!bim.write(lines.join('\n') + '\n')) await once(bim, 'drain');
  }
  await Promise.all([new Promise((r) => bed.end(r)), new Promise((r) => bim.end(r))]);
  writeFileSync(`${stem}.fam`, Array.from({ length: N }, (_, d) => `p${d % POPS} i${d} 0 0 0 -9`).join('\n') + '\n');
  renameSync(`${stem}.bed.part`, `${stem}.bed`);
}

if (!existsSync(`${stem}.bed`)) {
  const t0 = performance.now();
  await writeFileset();
  console.log(
    `wrote ${stem}.bed (${(statSync(`${stem}.bed`).size / 2 ** 20).toFixed(0)} MiB) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}
const base = peakMb();
const t0 = performance.now();
const data = await readDataset(datasetFiles(`${stem}.bed`));
const t1 = performance.now();
const md = mixtureData(data);
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
