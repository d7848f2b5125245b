// Does a selected marker panel keep the structure of eHGDP (Figure 8.5 in spirit)? Clusters K = 3
// with the panel of a `stratify select` ranking and with the top 25/50/100 markers by I(X;C),
// and compares with clustering on all 678 markers: accuracy against regions, ARI, F_ST on all markers.
// Usage: node --import tsx bench/panel-eval.ts PANEL_DIR/ranking.tsv
import { readDataset, subsetData, range } from '../engine/index.ts';
import { datasetFiles, fileSource } from '../engine/node/file-source.ts';
import { nodeStartPool } from '../engine/node/worker-pool.ts';
import { runSweep } from '../engine/service/cluster-sweep.ts';
import { DEFAULT_FIT } from '../engine/model/fit-options.ts';
import { fstFromAssignments } from '../engine/analysis/fst.ts';
import {
  adjustedRandIndex,
  encodeLabels,
  hardAssignments,
  matchingAccuracy,
} from '../engine/analysis/partition-scores.ts';
import { readFileSync } from 'node:fs';
import { dataPath } from '../data/datasets.ts';
const data = await readDataset(datasetFiles(dataPath('eHGDP.str.gz')), {
  populations: fileSource(dataPath('eHGDP.labels.tsv')),
});
const regions = encodeLabels(data.individuals.map((i) => i.group!));
const ranking = readFileSync(process.argv[2] ?? 'stratify-panel/ranking.tsv', 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split('\t'));
const selected = ranking.filter((r) => r[11] === 'yes').map((r) => data.loci.findIndex((l) => l.name === r[1]));
const byMi = ranking.map((r) => data.loci.findIndex((l) => l.name === r[1]));
const pool = nodeStartPool(2);
const full = (
  await runSweep(data, { kValues: [3], replicates: 1, starts: 30, policy: 'best', seed: 1, fit: DEFAULT_FIT }, pool)
).runs[0]!;
const fullHard = hardAssignments(full.clustering.Q, 1350, 3);
console.log(
  'full: acc regions',
  matchingAccuracy(fullHard, regions.codes).toFixed(3),
  'F_ST(all markers, hard)',
  fstFromAssignments(data, fullHard).fst.toFixed(4),
);
for (const [name, loci] of [
  ['selected', selected],
  ['top 25 MI', byMi.slice(0, 25)],
  ['top 50 MI', byMi.slice(0, 50)],
  ['top 100 MI', byMi.slice(0, 100)],
] as const) {
  const sub = subsetData(data, loci as number[], range(1350));
  const r = (
    await runSweep(sub, { kValues: [3], replicates: 1, starts: 30, policy: 'best', seed: 1, fit: DEFAULT_FIT }, pool)
  ).runs[0]!;
  const hard = hardAssignments(r.clustering.Q, 1350, 3);
  console.log(
    name,
    loci.length,
    'acc regions',
    matchingAccuracy(hard, regions.codes).toFixed(3),
    'ARI vs full',
    adjustedRandIndex(hard, fullHard).toFixed(3),
    'F_ST(all markers, hard)',
    fstFromAssignments(data, hard).fst.toFixed(4),
  );
}
pool.close();
