// Scale: simulated SNP data of the size RAD-seq and SNP-chip users have (default 2,000 individuals
// × 100,000 SNPs, 3 populations, F_ST 0.05), generated here. Reports the time to prepare the data
// for clustering (buildPreparedData), one start at K = 3 on one thread (iterations, seconds, seconds per
// iteration) and the peak resident memory.
// With --threads T (T ≥ 2), instead: a multi-start of T starts (one per worker thread) through the
// worker pool, which shares the prepared data with the threads, and the peak memory of the process.
// Usage: node --import tsx bench/large-snps.ts [--n 2000] [--snps 100000] [--k 3] [--algorithm em] [--init individuals] [--threads 1]
import { readFileSync } from 'node:fs';
import { buildPreparedData } from '../engine/model/prepared/prepared-data.ts';
import { DEFAULT_FIT } from '../engine/model/fit-options.ts';
import { runStart, startSeed } from '../engine/model/start.ts';
import { createRng, gammaDraw } from '../engine/util/rng.ts';
import { ALGORITHM, INIT_METHOD } from '../engine/util/choices.ts';
import type { GenotypeData } from '../engine/data/genotype-data.ts';
import { nodeStartPool } from '../engine/node/worker-pool.ts';
import { runSweep } from '../engine/service/cluster-sweep.ts';
import { scriptArg } from './args.ts';

const N = Number(scriptArg('--n', '2000'));
const L = Number(scriptArg('--snps', '100000'));
const K = Number(scriptArg('--k', '3'));
const algorithm = scriptArg('--algorithm', 'em');
const threads = Number(scriptArg('--threads', '1'));
if (!ALGORITHM.values.includes(algorithm as never))
  throw new Error(`--algorithm: one of ${ALGORITHM.values.join(', ')}`);
const init = scriptArg('--init', DEFAULT_FIT.init);
if (!INIT_METHOD.values.includes(init as never)) throw new Error(`--init: one of ${INIT_METHOD.values.join(', ')}`);

/** Balding–Nichols SNPs: 3 populations of equal size, F_ST 0.05, 1% missing genotypes. */
function simulate(): GenotypeData {
  const rng = createRng(1);
  const pops = 3;
  const fst = 0.05;
  const calls = new Int8Array(L * N * 2);
  const c = (1 - fst) / fst;
  for (let l = 0; l < L; l++) {
    const p = 0.05 + 0.9 * rng.uniform();
    const f = Array.from({ length: pops }, () => {
      const x = gammaDraw(p * c, rng);
      return x / (x + gammaDraw((1 - p) * c, rng));
    });
    for (let d = 0; d < N; d++) {
      const missing = rng.uniform() < 0.01;
      const q = f[d % pops]!;
      for (let h = 0; h < 2; h++) calls[(l * N + d) * 2 + h] = missing ? -1 : rng.uniform() < q ? 1 : 0;
    }
  }
  return {
    ploidy: 2,
    phased: false,
    individuals: Array.from({ length: N }, (_, d) => ({ id: `i${d}`, population: `p${d % pops}` })),
    loci: Array.from({ length: L }, (_, l) => ({ name: `snp${l}`, alleles: ['A', 'G'] })),
    calls,
  };
}

const t0 = performance.now();
const data = simulate();
const t1 = performance.now();
const fit = {
  ...DEFAULT_FIT,
  algorithm: algorithm as (typeof ALGORITHM.values)[number],
  init: init as (typeof INIT_METHOD.values)[number],
};
/**
 * Peak resident memory of this process (MB): Linux's VmHWM, which starts afresh with the process
 * image (getrusage's maxRSS keeps the high-water mark of the process that spawned this one);
 * maxRSS elsewhere.
 */
function mb(): string {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return (Number(hwm[1]) / 1024).toFixed(0);
  } catch {
    // not Linux
  }
  return (process.resourceUsage().maxRSS / 1024).toFixed(0);
}
if (threads >= 2) {
  const pool = nodeStartPool(threads);
  const sweep = { kValues: [K], replicates: 1, starts: threads, policy: 'best' as const, seed: 1, fit };
  const res = await runSweep(data, sweep, pool);
  pool.close();
  const run = res.runs[0]!;
  console.log(
    `${N} individuals × ${L} SNPs (simulated in ${((t1 - t0) / 1000).toFixed(1)} s), K = ${K}, ${algorithm}, --init ${init}, ${threads} starts on ${threads} worker threads`,
  );
  console.log(
    `prepare + starts: ${((performance.now() - t1) / 1000).toFixed(2)} s, best ln L ${run.clustering.logLik.toFixed(1)}; peak resident memory ${mb()} MB`,
  );
} else {
  const md = buildPreparedData(data);
  const t2 = performance.now();
  const r = runStart(md, K, fit, 0, startSeed(1, K, 0, 0));
  const t3 = performance.now();
  console.log(
    `${N} individuals × ${L} SNPs (simulated in ${((t1 - t0) / 1000).toFixed(1)} s), K = ${K}, ${algorithm}, --init ${init}, one thread`,
  );
  console.log(`prepare (buildPreparedData): ${((t2 - t1) / 1000).toFixed(2)} s`);
  console.log(
    `one start: ${((t3 - t2) / 1000).toFixed(2)} s, ${r.iterations} iterations (${((t3 - t2) / Math.max(1, r.iterations)).toFixed(0)} ms each), converged ${r.converged}, ln L ${r.logLik.toFixed(1)}`,
  );
  console.log(`prepare + start: ${((t3 - t1) / 1000).toFixed(2)} s; peak resident memory ${mb()} MB`);
}
