// Clustering speed on eHGDP (1350 individuals × 678 loci): time per iteration and per start for
// K = 2..8, the speed-up from worker threads, the ratio against a deliberately plain E step,
// and a whole sweep K = 2..8 × `--starts` starts.
// Usage: node --import tsx bench/clustering.ts [--starts 100] [--skip-sweep]
import { readDataset, MISSING } from '../engine/index.ts';
import { datasetFiles } from '../engine/node/file-source.ts';
import { buildPreparedData, type PreparedData } from '../engine/model/prepared/prepared-data.ts';
import { fitSteps } from '../engine/model/mixture/fit.ts';
import { DEFAULT_FIT } from '../engine/model/fit-options.ts';
import { randomModel, type MixtureModel } from '../engine/model/mixture/mixture-model.ts';
import { createRng } from '../engine/util/rng.ts';
import { eStep, eStepBuffers } from '../engine/model/mixture/e-step.ts';
import { spawnWorkerThread } from '../engine/node/worker-pool.ts';
import { StartPool } from '../engine/runtime/pool.ts';
import { runSweep } from '../engine/service/cluster-sweep.ts';
import { dataPath } from '../data/datasets.ts';

const args = process.argv.slice(2);
const starts = Number(args[args.indexOf('--starts') + 1] ?? 100) || 100;
const data = await readDataset(datasetFiles(dataPath('eHGDP.str.gz')));
const md = buildPreparedData(data);

/** The plain E step: probabilities multiplied per individual, individual-outer, no genotype table. */
function plainEStep(d: PreparedData, m: MixtureModel, post: Float64Array): number {
  const { N, L, P, offsets } = d;
  const calls = data.calls;
  const K = m.K;
  let ll = 0;
  for (let n = 0; n < N; n++) {
    const logs: number[] = [];
    for (let c = 0; c < K; c++) {
      let s = Math.log(m.weights[c]!);
      for (let i = 0; i < L; i++)
        for (let p = 0; p < P; p++) {
          const a = calls[(i * N + n) * P + p]!;
          if (a !== MISSING) s += Math.log(m.theta[(offsets[i]! + a) * K + c]!);
        }
      logs.push(s);
    }
    const max = Math.max(...logs);
    const z = logs.reduce((acc, x) => acc + Math.exp(x - max), 0);
    logs.forEach((x, c) => (post[n * K + c] = Math.exp(x - max) / z));
    ll += max + Math.log(z);
  }
  return ll;
}

console.log(`eHGDP: ${md.N} individuals, ${md.L} loci, ${md.totalAlleles} alleles, ploidy ${md.P}`);
console.log('\nper start (single thread, EMA, default options):');
console.log('K     E steps  ms/iteration  ms/start   E-step ms  plain E-step ms  ratio');
for (let K = 2; K <= 8; K++) {
  let iters = 0;
  let ms = 0;
  for (let s = 0; s < 3; s++) {
    const t0 = performance.now();
    const it = fitSteps(md, randomModel(md, K, createRng(100 * K + s)), DEFAULT_FIT);
    let r = it.next();
    while (!r.done) r = it.next();
    ms += performance.now() - t0;
    iters += r.value.iterations + (r.value.converged ? 0 : 1); // E steps run
  }
  const m = randomModel(md, K, createRng(K));
  const buf = eStepBuffers(md, K);
  let t0 = performance.now();
  for (let k = 0; k < 5; k++) eStep(md, m, buf);
  const fast = (performance.now() - t0) / 5;
  const post = new Float64Array(md.N * K);
  t0 = performance.now();
  const llPlain = plainEStep(md, m, post);
  const plain = performance.now() - t0;
  const llFast = eStep(md, m, buf);
  if (Math.abs(llPlain - llFast) > 1e-6 * Math.abs(llFast))
    throw new Error(`plain and fast E steps disagree: ${llPlain} vs ${llFast}`);
  console.log(
    `${K}  ${(iters / 3).toFixed(1).padStart(10)}  ${(ms / iters).toFixed(1).padStart(12)}  ${(ms / 3).toFixed(0).padStart(8)}  ${fast.toFixed(1).padStart(10)}  ${plain.toFixed(1).padStart(15)}  ${(plain / fast).toFixed(1).padStart(5)}x`,
  );
}

/** A sweep on `threads` worker threads, timed after a warm-up run (module loading, compilation). */
async function timedSweep(threads: number, kValues: number[], m: number): Promise<number> {
  const pool = new StartPool(spawnWorkerThread, threads);
  await runSweep(
    data,
    { kValues: [2], replicates: 1, starts: 2 * threads, policy: 'best', seed: 9, fit: DEFAULT_FIT },
    pool,
  );
  const t0 = performance.now();
  await runSweep(data, { kValues, replicates: 1, starts: m, policy: 'best', seed: 1, fit: DEFAULT_FIT }, pool);
  pool.close();
  return (performance.now() - t0) / 1000;
}

console.log('\nthread speed-up (K = 5, 60 starts, 1 against 2 worker threads):');
const t1 = await timedSweep(1, [5], 60);
const t2 = await timedSweep(2, [5], 60);
console.log(`1 thread ${t1.toFixed(1)} s, 2 threads ${t2.toFixed(1)} s, speed-up ${(t1 / t2).toFixed(2)}x`);
if (!args.includes('--skip-sweep')) {
  const t = await timedSweep(2, [2, 3, 4, 5, 6, 7, 8], starts);
  console.log(`\nwhole sweep K = 2..8 × ${starts} starts on 2 threads: ${t.toFixed(1)} s`);
}
