// Starts on individuals against random frequencies around the observed ones (`--init individuals`
// against `--init data`), with the other defaults (auto, best start by likelihood, 10 starts), on
// cases that are not in the accuracy suite the default was chosen on (docs/accuracy.md): a check
// on data the choice did not see. Writes a markdown report to stdout.
// Usage: node --import tsx bench/starts-on-individuals.ts > docs/starts-on-individuals.md
import { readDataset } from '../engine/index.ts';
import { datasetFiles, fileSource } from '../engine/node/file-source.ts';
import { nodeStartPool } from '../engine/node/worker-pool.ts';
import { dataPath } from '../data/datasets.ts';
import { DEFAULT_FIT, type FitOptions } from '../engine/model/fit-options.ts';
import { combineStarts } from '../engine/model/combine-starts.ts';
import { type StartResult } from '../engine/model/start.ts';
import { buildPreparedData } from '../engine/model/prepared/prepared-data.ts';
import { sweepTasks } from '../engine/model/sweep.ts';
import { usedClusters } from '../engine/model/cluster-use.ts';
import { adjustedRandIndex, encodeLabels, hardAssignments } from '../engine/analysis/partition-scores.ts';
import { multiAllelicPopulations, unequalSizes } from '../tests/model/synthetic.ts';
import type { GenotypeData } from '../engine/data/genotype-data.ts';
const eh = await readDataset(datasetFiles(dataPath('eHGDP.str.gz')), {
  populations: fileSource(dataPath('eHGDP.labels.tsv')),
});
const cases: {
  name: string;
  K: number;
  seeds: number;
  make: (s: number) => { data: GenotypeData; labels: readonly (string | number)[] };
}[] = [
  {
    name: 'eHGDP-regions-10',
    K: 10,
    seeds: 5,
    make: () => ({ data: eh, labels: eh.individuals.map((i) => i.group ?? '') }),
  },
  {
    name: 'eHGDP-populations-15',
    K: 15,
    seeds: 5,
    make: () => ({ data: eh, labels: eh.individuals.map((i) => i.population ?? '') }),
  },
  {
    name: 'sim-20pops-30loci',
    K: 20,
    seeds: 5,
    make: (s) =>
      multiAllelicPopulations(100 + s, {
        pops: 20,
        perPop: 0,
        sizes: unequalSizes(20, 20, 60),
        loci: 30,
        minAlleles: 4,
        maxAlleles: 14,
        fst: 0.08,
        missing: 0.02,
      }),
  },
  {
    name: 'sim-snps-6pops',
    K: 6,
    seeds: 5,
    make: (s) =>
      multiAllelicPopulations(200 + s, { pops: 6, perPop: 30, loci: 2000, minAlleles: 2, maxAlleles: 2, fst: 0.02 }),
  },
  {
    name: 'sim-8pops-weak-noise',
    K: 8,
    seeds: 5,
    make: (s) =>
      multiAllelicPopulations(300 + s, {
        pops: 8,
        perPop: 40,
        loci: 60,
        noiseLoci: 30,
        minAlleles: 3,
        maxAlleles: 10,
        fst: 0.03,
      }),
  },
];
const pool = nodeStartPool(2);
const t0 = performance.now();
console.log('# Starts on individuals, on cases outside the accuracy suite');
console.log();
console.log('ARI of the best start (auto, ranked by likelihood, 10 starts) against the labels, mean over 5 seeds');
console.log('(simulated cases draw new data per seed; eHGDP seeds change the starts), with the clusters used');
console.log("(expected size ≥ max(1, 1 % N)) per seed in brackets. `data`: each cluster's frequencies drawn around");
console.log('the observed ones (the default before); `individuals`: clusters on K individuals chosen far apart (the');
console.log('default, docs/algorithms.md §3). None of these cases is in bench/accuracy.ts.');
console.log('Regenerate: `node --import tsx bench/starts-on-individuals.ts > docs/starts-on-individuals.md`.');
console.log();
console.log('| case | K | init data | init individuals |');
console.log('|---|---|---|---|');
for (const c of cases) {
  const res: Record<string, number[]> = { data: [], individuals: [] };
  const used: Record<string, number[]> = { data: [], individuals: [] };
  for (let seed = 1; seed <= c.seeds; seed++) {
    const { data, labels } = c.make(seed);
    const md = buildPreparedData(data);
    const truth = encodeLabels(labels).codes;
    for (const init of ['data', 'individuals'] as const) {
      const fit: FitOptions = { ...DEFAULT_FIT, init };
      const run = await pool.run(
        data,
        sweepTasks({ kValues: [c.K], replicates: 1, starts: 10, policy: 'best', seed, fit }),
        fit,
      );
      const best = combineStarts(
        md,
        run.results.filter((s): s is StartResult => s !== undefined),
        'best',
        'likelihood',
        fit,
      );
      res[init]!.push(adjustedRandIndex(hardAssignments(best.Q, md.N, c.K), truth));
      used[init]!.push(usedClusters(best.Q, md.N, c.K));
    }
  }
  const m = (x: number[]) => (x.reduce((a, b) => a + b, 0) / x.length).toFixed(3);
  console.log(
    `| ${c.name} | ${c.K} | ${m(res.data!)} (${used.data!.join(',')}) | ${m(res.individuals!)} (${used.individuals!.join(',')}) |`,
  );
}
pool.close();
console.log();
console.log(`${((performance.now() - t0) / 1000).toFixed(0)} s on 2 threads.`);
