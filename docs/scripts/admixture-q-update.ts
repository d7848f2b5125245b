// How the admixture fit updates Q: EM against one Newton step per individual (block relaxation),
// both under SQUAREM from the same start, on simulated SNPs and microsatellites and on eHGDP at
// K = 2..8: ln L reached, steps and seconds per start. The table that chose `--q-update auto`.
// The fits run in two processes (each a shard of the cases; one thread each).
// Usage: node --import tsx docs/scripts/admixture-q-update.ts > docs/admixture-q-update.md
import { cpus } from 'node:os';
import { admixtureWork } from '../../engine/model/admixture/admixture.ts';
import { admixtureFitSteps } from '../../engine/model/admixture/admixture-fit.ts';
import { admixtureStart } from '../../engine/model/admixture/admixture-start.ts';
import { resolvedQUpdate } from '../../engine/model/admixture/admixture-step.ts';
import { buildPreparedData, type PreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { createRng } from '../../engine/util/rng.ts';
import { CLUSTER_DEFAULTS } from '../../engine/util/choices.ts';
import { readDataset } from '../../engine/index.ts';
import { datasetFiles } from '../../engine/node/file-source.ts';
import { admixedData } from '../../tests/model/synthetic.ts';
import { dataPath } from '../../data/datasets.ts';
import { shardedResults } from '../../bench/shards.ts';

const T0 = performance.now();

interface Fit {
  logLik: number;
  steps: number;
  seconds: number;
}

/** One start from the default (mixture) initialisation, fitted by SQUAREM with Q updated by `qUpdate`. */
function fit(md: PreparedData, K: number, seed: number, qUpdate: 'em' | 'newton'): Fit {
  const t = performance.now();
  const start = admixtureStart(md, K, createRng(seed), DEFAULT_FIT);
  const steps = admixtureFitSteps(md, admixtureWork(md), start, {
    tolerance: CLUSTER_DEFAULTS.tolerance,
    maxIterations: 20000,
    acceleration: 'squarem',
    qUpdate,
    fUpdate: 'em',
  });
  let r = steps.next();
  while (!r.done) r = steps.next();
  return { logLik: r.value.logLik, steps: r.value.emSteps, seconds: (performance.now() - t) / 1000 };
}

interface Job {
  name: string;
  kind: 'snp' | 'microsatellite';
  data: () => Promise<PreparedData>;
  K: number;
  seed: number;
}

const SIMULATED = [
  ...[2, 4, 6].map((K) => ({ N: 300, L: 3000, K, fst: 0.05, alleles: 2 })),
  { N: 500, L: 5000, K: 3, fst: 0.1, alleles: 2 },
  ...[3, 6].map((K) => ({ N: 300, L: 200, K, fst: 0.05, alleles: 12 })),
];
let ehgdp: PreparedData | undefined;
const EHGDP_SEEDS = [1, 2, 3];
const jobs: Job[] = [
  ...SIMULATED.flatMap((c) =>
    [1, 2].map((seed): Job => {
      const kind = c.alleles === 2 ? 'snp' : 'microsatellite';
      return {
        name: `simulated ${c.N} × ${c.L} ${kind === 'snp' ? 'SNPs' : `loci (${c.alleles} alleles)`}, F_ST ${c.fst}`,
        kind,
        data: async () =>
          buildPreparedData(
            admixedData(seed, { N: c.N, L: c.L, K: c.K, alpha: 0.5, fst: c.fst, alleles: c.alleles }).data,
          ),
        K: c.K,
        seed,
      };
    }),
  ),
  ...[2, 3, 4, 5, 6, 7, 8].flatMap((K) =>
    EHGDP_SEEDS.map((seed): Job => ({
      name: 'eHGDP, 1,350 × 678 microsatellites',
      kind: 'microsatellite',
      data: async () => (ehgdp ??= buildPreparedData(await readDataset(datasetFiles(dataPath('eHGDP.str.gz'))))),
      K,
      seed,
    })),
  ),
];

/** Both arms of every job, fitted in two processes. */
const SHARDS = 2;
const results = (
  await shardedResults(
    import.meta.url,
    jobs.length,
    async (j) => {
      const job = jobs[j]!;
      const md = await job.data();
      return { em: fit(md, job.K, job.seed, 'em'), newton: fit(md, job.K, job.seed, 'newton') };
    },
    SHARDS,
  )
).map((r, j) => ({ j, ...r }));

const rows: string[] = [];
const ratios = { snp: [] as number[], microsatellite: [] as number[] };
const lower = { snp: 0, microsatellite: 0 };
/** eHGDP per K: Newton's ln L minus EM's, per seed. */
const ehgdpDelta = new Map<number, number[]>();
/** Seconds in all per arm, by kind of data. */
const total = { snp: { em: 0, newton: 0 }, microsatellite: { em: 0, newton: 0 } };
for (const { j, em, newton } of results) {
  const job = jobs[j]!;
  const ratio = em.seconds / newton.seconds;
  ratios[job.kind].push(ratio);
  total[job.kind].em += em.seconds;
  total[job.kind].newton += newton.seconds;
  if (newton.logLik < em.logLik - 0.01) lower[job.kind]++;
  if (job.name.startsWith('eHGDP'))
    ehgdpDelta.set(job.K, [...(ehgdpDelta.get(job.K) ?? []), newton.logLik - em.logLik]);
  const cell = (f: Fit) => `${f.logLik.toFixed(2)} | ${f.steps} | ${f.seconds.toFixed(1)}`;
  rows.push(
    `| ${job.name} | ${job.K} | ${job.seed} | ${cell(em)} | ${cell(newton)} | ${ratio.toFixed(2)} | ${(newton.logLik - em.logLik).toFixed(2)} |`,
  );
}

const range = (x: number[]) =>
  x.length
    ? `${Math.min(...x).toFixed(2)}–${Math.max(...x).toFixed(2)} × (median ${[...x].sort((a, b) => a - b)[x.length >> 1]!.toFixed(2)})`
    : '—';
const sums = (t: { em: number; newton: number }) =>
  `${t.em.toFixed(0)} s against ${t.newton.toFixed(0)} s (${(t.em / t.newton).toFixed(2)} ×)`;
process.stdout.write(`# Updating Q in the admixture fit: EM or a Newton step per individual

Made by \`node --import tsx docs/scripts/admixture-q-update.ts > docs/admixture-q-update.md\` on this
machine (${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}; ${SHARDS} processes of one thread each) in ${((performance.now() - T0) / 60000).toFixed(0)} minutes.

Both arms run SQUAREM from the same start (the default: the mixture model's EM clustering, seed as
listed) to the same stopping rule (ln L changes by less than ${CLUSTER_DEFAULTS.tolerance} between accepted steps).
**EM**: every step is the EM step of Q and F. **Newton**: F by the EM step, then Q by one
safeguarded Newton step per individual with F fixed (docs/algorithms.md §14). A Newton step costs
an EM pass, a derivative pass and for some individuals a gain pass (all WebAssembly), so it pays
only where it needs fewer steps. Simulated data as in
Pritchard et al. (2000): ancestry ~ Dirichlet(0.5), Balding–Nichols frequencies. "Steps": EM steps
or Newton steps over the data (three per SQUAREM cycle); "EM / Newton": the ratio of seconds (> 1:
Newton faster); "Δ ln L": Newton's ln L minus EM's.

| data | K | seed | EM: ln L | steps | s | Newton: ln L | steps | s | EM / Newton | Δ ln L |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Time ratio EM / Newton: SNP data ${range(ratios.snp)}; microsatellites ${range(ratios.microsatellite)}.
Seconds in all, EM against Newton: SNP data ${sums(total.snp)}; microsatellites ${sums(total.microsatellite)}.
\`--q-update auto\` (the default) runs ${resolvedQUpdate('auto', 'squarem')} under SQUAREM (the default acceleration) and
${resolvedQUpdate('auto', 'anderson')} under Anderson.
Newton ended more than 0.01 below EM in ${lower.snp} of ${ratios.snp.length} SNP cases and ${lower.microsatellite} of
${ratios.microsatellite.length} microsatellite cases (each arm may stop on a different local optimum).

eHGDP, Newton's ln L minus EM's per K over seeds ${EHGDP_SEEDS.join(', ')} (mean; how many seeds Newton ended higher):
${[...ehgdpDelta]
  .map(
    ([K, d]) =>
      `K = ${K}: ${(d.reduce((a, b) => a + b, 0) / d.length).toFixed(2)} (${d.filter((x) => x > 0.01).length} of ${d.length})`,
  )
  .join('; ')}.
`);
