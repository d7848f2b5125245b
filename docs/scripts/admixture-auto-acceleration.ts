// `--acceleration auto` on SNP data of 8,000 loci or more: Anderson acceleration alone (the
// default before 0.17.0), SQUAREM alone, and Anderson for its first ANDERSON_STEPS steps then SQUAREM
// (the default since), from the same starts — the sweep's seeds (run seed 1, replicate 1), every
// other default. Where the structure is there to find, fits converge within Anderson's first steps
// and the two defaults are one; above it (K more than the populations) fits travel along flat
// ridges. The fits run in two processes (each a shard of the starts; one thread each).
// Usage: node --import tsx docs/scripts/admixture-auto-acceleration.ts > docs/admixture-auto-acceleration.md
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPreparedData, type PreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { readDataset } from '../../engine/index.ts';
import { datasetFiles } from '../../engine/node/file-source.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { startSeed, startSteps } from '../../engine/model/start.ts';
import { ANDERSON_STEPS } from '../../engine/model/admixture/admixture-fit.ts';
import { shardedResults } from '../../bench/shards.ts';
import { writePlinkFileset } from '../../bench/plink-fileset.ts';
import { admixedData } from '../../tests/model/synthetic.ts';
import { madeAt } from '../../bench/made-at.ts';

const T0 = performance.now();
const MADE_AT = madeAt();
const STARTS = 2;
/** 'anderson-only': `--acceleration anderson`; 'auto': Anderson, then SQUAREM; 'squarem'. */
const ARMS = [
  { name: 'Anderson alone', acceleration: 'anderson' },
  { name: `Anderson ${ANDERSON_STEPS} steps, then SQUAREM (auto)`, acceleration: 'auto' },
  { name: 'SQUAREM alone', acceleration: 'squarem' },
] as const;

interface Case {
  readonly name: string;
  readonly data: () => Promise<PreparedData>;
  readonly kValues: readonly number[];
}
let hapmap: Promise<PreparedData> | undefined;
let larger: PreparedData | undefined;
const CASES: readonly Case[] = [
  {
    name: 'simulated 324 × 14,000 SNPs (HapMap3 size; bench/plink-fileset.ts, 3 populations)',
    data: () =>
      (hapmap ??= (async () => {
        const dir = mkdtempSync(join(tmpdir(), 'stratify-auto-acceleration-'));
        const stem = join(dir, 'hapmap-size');
        await writePlinkFileset(stem, 324, 14_000, 3);
        const md = buildPreparedData(await readDataset(datasetFiles(`${stem}.bed`), {}));
        rmSync(dir, { recursive: true, force: true });
        return md;
      })()),
    kValues: [2, 3, 4, 5],
  },
  {
    name: 'simulated 1,000 × 10,000 SNPs, K = 3, F_ST 0.05',
    data: async () =>
      (larger ??= buildPreparedData(admixedData(13, { N: 1000, L: 10000, K: 3, alpha: 0.5, fst: 0.05 }).data)),
    kValues: [3, 4],
  },
];

interface Start {
  logLik: number;
  seconds: number;
  converged: boolean;
}

function runStart(md: PreparedData, K: number, index: number, acceleration: 'anderson' | 'auto' | 'squarem'): Start {
  const t = performance.now();
  const steps = startSteps(
    md,
    K,
    { ...DEFAULT_FIT, model: 'admixture', acceleration },
    index,
    startSeed(1, K, 0, index),
  );
  let r = steps.next();
  while (!r.done) r = steps.next();
  return { logLik: r.value.logLik, seconds: (performance.now() - t) / 1000, converged: r.value.converged };
}

const jobs = CASES.flatMap((c, ci) =>
  c.kValues.flatMap((K) =>
    Array.from({ length: STARTS }, (_, index) => ARMS.map((_, arm) => ({ ci, K, index, arm }))).flat(),
  ),
);
const SHARDS = 2;
const starts = await shardedResults(
  import.meta.url,
  jobs.length,
  async (j) => runStart(await CASES[jobs[j]!.ci]!.data(), jobs[j]!.K, jobs[j]!.index, ARMS[jobs[j]!.arm]!.acceleration),
  SHARDS,
);

const rows: string[] = [];
const totals = ARMS.map(() => ({ seconds: 0, unconverged: 0, below: 0 }));
CASES.forEach((c, ci) =>
  c.kValues.forEach((K) => {
    for (let index = 0; index < STARTS; index++) {
      const of = ARMS.map(
        (_, arm) => starts[jobs.findIndex((x) => x.ci === ci && x.K === K && x.index === index && x.arm === arm)]!,
      );
      const top = Math.max(...of.map((s) => s.logLik));
      of.forEach((s, arm) => {
        totals[arm]!.seconds += s.seconds;
        if (!s.converged) totals[arm]!.unconverged++;
        if (s.logLik < top - 0.1) totals[arm]!.below++;
      });
      const cell = (s: Start) =>
        `${(s.logLik - top).toFixed(2)} | ${s.seconds.toFixed(1)}${s.converged ? '' : ' (cap)'}`;
      rows.push(`| ${c.name} | ${K} | ${index + 1} | ${top.toFixed(2)} | ${of.map(cell).join(' | ')} |`);
    }
  }),
);

process.stdout.write(`# Anderson, then SQUAREM: the admixture fit's \`--acceleration auto\` on SNP data

Made by \`node --import tsx docs/scripts/admixture-auto-acceleration.ts > docs/admixture-auto-acceleration.md\`. ${MADE_AT}
${SHARDS} processes of one thread each; ${((performance.now() - T0) / 60000).toFixed(0)} minutes.

On data of 8,000 loci or more, \`--acceleration auto\` was Anderson acceleration
([admixture-acceleration.md](admixture-acceleration.md): faster where a fit is mostly its linear
tail). Where K is above the structure the data hold, a fit travels far along a flat ridge, where
Anderson gains a fraction of an ln L unit a step for hundreds of steps and stops at the cap of
${DEFAULT_FIT.maxIterations} steps unconverged. Each start (the sweep's seeds: run seed 1, replicate 1; the
subset stage first; every other default) is fitted three ways from the same point. Δ: ln L minus
the best of the three for that start; s: seconds on one thread; (cap): stopped by the cap, not
converged.

| data | K | start | best ln L | ${ARMS.map((a) => `${a.name}: Δ | s`).join(' | ')} |
|---|---|---|---|${ARMS.map(() => '---|---').join('|')}|
${rows.join('\n')}

| acceleration | seconds in all | starts more than 0.1 below the best | stopped by the cap |
|---|---|---|---|
${ARMS.map((a, arm) => `| ${a.name} | ${totals[arm]!.seconds.toFixed(0)} | ${totals[arm]!.below} of ${rows.length} | ${totals[arm]!.unconverged} |`).join('\n')}

Where K is at most the populations every start converges within Anderson's first steps, and the
three agree; \`auto\` is as fast as Anderson alone there. Above, Anderson alone stopped at the cap on
${totals[0]!.unconverged} of ${rows.length} starts, ${totals[0]!.below} of them more than 0.1 ln L below
the best; Anderson then SQUAREM was within 0.1 of the best on ${rows.length - totals[1]!.below} of ${rows.length} (SQUAREM alone on
${rows.length - totals[2]!.below}), and cost ${(totals[1]!.seconds / totals[0]!.seconds).toFixed(2)} × Anderson's seconds in all — the price of running to convergence
the fits Anderson left on the ridge, not a faster fit.
`);
