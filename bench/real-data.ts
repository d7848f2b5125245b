// Accuracy and adjusted Rand index of multi-start auto (the default), EMA and EM on the real datasets in
// data/ against their population (and region) labels, K = 2..7.
// Usage: node --import tsx bench/real-data.ts [--starts 30] [--out docs/real-data.md]
import { writeFileSync } from 'node:fs';
import { readDataset } from '../engine/index.ts';
import { datasetFiles, fileSource } from '../engine/node/file-source.ts';
import { nodeStartPool } from '../engine/node/worker-pool.ts';
import { runSweep } from '../engine/service/cluster-sweep.ts';
import { dataPath } from '../data/datasets.ts';
import { DEFAULT_FIT } from '../engine/model/fit-options.ts';
import { CLUSTER_DEFAULTS } from '../engine/util/choices.ts';

const DEFAULT_RANK_BY = CLUSTER_DEFAULTS.rankBy;
import {
  adjustedRandIndex,
  encodeLabels,
  hardAssignments,
  matchingAccuracy,
} from '../engine/analysis/partition-scores.ts';
import { scriptArg } from './args.ts';
import { madeAt } from './made-at.ts';

const starts = Number(scriptArg('--starts', '30'));
const out = scriptArg('--out', '');
const lines: string[] = [];
const log = (s: string) => {
  console.log(s);
  lines.push(s);
};
log(
  `# Clustering accuracy on real data\n\n${madeAt()}\n\nMulti-start (${starts} starts, \`--init ${DEFAULT_FIT.init}\` and best choice by ${DEFAULT_RANK_BY} (the defaults), seed 1); AUTO is \`--algorithm auto\` (the default: EM starts and EMA continued from the best of them, held-out individuals choose; the algorithm it kept in brackets). Accuracy = best one-to-one matching of clusters to labels, ARI = adjusted Rand index. The accuracy suite (docs/accuracy.md) covers more cases and seeds. Command: \`node --import tsx bench/real-data.ts --starts ${starts} --out docs/real-data.md\`.\n`,
);
const pool = nodeStartPool();
for (const name of ['nancycats', 'eHGDP']) {
  const data = await readDataset(datasetFiles(dataPath(name === 'eHGDP' ? 'eHGDP.str.gz' : `${name}.str`)), {
    populations: fileSource(dataPath(`${name}.labels.tsv`)),
  });
  const pops = encodeLabels(data.individuals.map((i) => i.population ?? ''));
  const hasGroups = data.individuals.some((i) => i.group);
  const groups = encodeLabels(data.individuals.map((i) => i.group ?? ''));
  log(
    `## ${name} (${data.individuals.length} individuals, ${data.loci.length} loci, ${pops.count} populations${hasGroups ? `, ${groups.count} regions` : ''})\n`,
  );
  log(
    `| K | algorithm | logLik | accuracy (pop) | ARI (pop) |${hasGroups ? ' accuracy (region) | ARI (region) |' : ''} time (s) |`,
  );
  log(`|---|---|---|---|---|${hasGroups ? '---|---|' : ''}---|`);
  for (const K of [2, 3, 4, 5, 6, 7]) {
    for (const algorithm of ['auto', 'ema', 'em'] as const) {
      const t0 = performance.now();
      const res = await runSweep(
        data,
        { kValues: [K], replicates: 1, starts, policy: 'best', seed: 1, fit: { ...DEFAULT_FIT, algorithm } },
        pool,
      );
      const c = res.runs[0]!.clustering;
      const hard = hardAssignments(c.Q, data.individuals.length, K);
      const cells = [
        K,
        `${algorithm.toUpperCase()}${c.algorithmChoice ? ` (${c.algorithmChoice.algorithm.toUpperCase()})` : ''}`,
        c.logLik.toFixed(0),
        matchingAccuracy(hard, pops.codes).toFixed(3),
        adjustedRandIndex(hard, pops.codes).toFixed(3),
      ];
      if (hasGroups)
        cells.push(matchingAccuracy(hard, groups.codes).toFixed(3), adjustedRandIndex(hard, groups.codes).toFixed(3));
      cells.push(((performance.now() - t0) / 1000).toFixed(1));
      log(`| ${cells.join(' | ')} |`);
    }
  }
  log('');
}
pool.close();
if (out) writeFileSync(out, lines.join('\n') + '\n');
