// The accuracy suite: every clustering configuration on cases with known labels, real and
// simulated, over several seeds. The defaults of `stratify run` are chosen from this table
// (docs/accuracy.md), never from one example.
// Usage: node --import tsx bench/accuracy.ts [--seeds 5] [--only name,name] [--threads 2] > docs/accuracy.md
import { availableParallelism } from 'node:os';
import { readDataset } from '../engine/index.ts';
import { datasetFiles, fileSource } from '../engine/node/file-source.ts';
import { nodeStartPool } from '../engine/node/worker-pool.ts';
import { dataPath } from '../data/datasets.ts';
import { DEFAULT_FIT, type FitOptions } from '../engine/model/fit-options.ts';
import { AUTO_EMA_Z } from '../engine/model/algorithm-choice.ts';
import { combineStarts } from '../engine/model/combine-starts.ts';
import { type StartResult } from '../engine/model/start.ts';
import { buildPreparedData } from '../engine/model/prepared/prepared-data.ts';
import { sweepTasks } from '../engine/model/sweep.ts';
import { structuredMemberships } from '../engine/analysis/structured-start.ts';
import { snapclustGroups, snapclustMissing } from './snapclust.ts';
import { adjustedRandIndex, encodeLabels, hardAssignments } from '../engine/analysis/partition-scores.ts';
import { CLUSTER_DEFAULTS, SWEEP_DEFAULTS, type RankBy } from '../engine/util/choices.ts';
import type { GenotypeData } from '../engine/data/genotype-data.ts';
import {
  haplotypeFrequencyBlocks,
  multiAllelicPopulations,
  selectiveNaiveBayesData,
  SNP_BLOCKS_3,
  toyExample,
  unequalSizes,
} from '../tests/model/synthetic.ts';
import { scriptArg } from './args.ts';
import { madeAt } from './made-at.ts';

const SEEDS = Number(scriptArg('--seeds', '5'));
const ONLY = scriptArg('--only', '')
  .split(',')
  .filter((s) => s);
const THREADS = Number(scriptArg('--threads', String(availableParallelism())));
/** Multiplies every case's number of starts (the default run has 100). */
const STARTS_SCALE = Number(scriptArg('--starts-scale', '1'));

/** The seed multiple of cases that fit in seconds. */
const CHEAP_SEED_FACTOR = 4;
/** eHGDP's seeds change only the starts; twice the seeds halve the spread of their means' differences. */
const REAL_SEED_FACTOR = 2;

/** Why the snapclust column is left out (absent: it runs). */
const SNAPCLUST_MISSING = snapclustMissing();

/** One case: data with known labels, the K to fit, how many starts, and what it stands for. */
interface Case {
  readonly name: string;
  readonly what: string;
  readonly K: number;
  readonly starts: number;
  /** Loci carry chromosome positions (EMA-TAN applies). */
  readonly linked?: boolean;
  /**
   * Seeds of this case as a multiple of --seeds: small data whose ARI varies widely from one draw
   * to the next get more, so that a mean over seeds says something (the per-seed table shows the spread).
   */
  readonly seedFactor?: number;
  make(seed: number): Promise<{ data: GenotypeData; labels: readonly (string | number)[] }>;
}

/** Unequal cluster sizes from `min` to `max` (a fixed spread, as breeds or colonies are sampled). */

const real = async (file: string, labels: string, by: 'population' | 'group') => {
  const data = await readDataset(datasetFiles(dataPath(file)), { populations: fileSource(dataPath(labels)) });
  return { data, labels: data.individuals.map((i) => (by === 'group' ? i.group : i.population) ?? '') };
};
const cache = new Map<string, Promise<{ data: GenotypeData; labels: readonly (string | number)[] }>>();
const once = (key: string, f: () => ReturnType<Case['make']>) => {
  if (!cache.has(key)) cache.set(key, f());
  return cache.get(key)!;
};

const CASES: Case[] = [
  {
    name: 'toy',
    seedFactor: CHEAP_SEED_FACTOR,
    what: 'the toy example of section 8.3: 60 haploid 50-bit strings, 3 populations, 5 informative positions',
    K: 3,
    starts: 20,
    make: async (seed) => toyExample(seed),
  },
  {
    name: 'snb-8/30',
    seedFactor: CHEAP_SEED_FACTOR,
    what: 'selective naive Bayes (section 7.5): 300 individuals, 30 variables with 3 states, 8 relevant, K = 3',
    K: 3,
    starts: 20,
    make: async (seed) => selectiveNaiveBayesData(seed, { N: 300, n: 30, relevant: 8, r: 3, K: 3, separation: 0.2 }),
  },
  {
    name: 'noise-20/40',
    seedFactor: CHEAP_SEED_FACTOR,
    what: 'microsatellites, 4 populations × 50, 40 loci of which 20 carry no structure, F_ST 0.05',
    K: 4,
    starts: 20,
    make: async (seed) =>
      multiAllelicPopulations(seed, {
        pops: 4,
        perPop: 50,
        loci: 40,
        noiseLoci: 20,
        minAlleles: 3,
        maxAlleles: 12,
        fst: 0.05,
      }),
  },
  {
    name: 'breeds-15',
    what: 'microsatellites like the cattle breeds: 15 populations of 20–80, 30 loci, F_ST 0.05, 3% missing',
    K: 15,
    starts: 20,
    make: async (seed) =>
      multiAllelicPopulations(seed, {
        pops: 15,
        perPop: 0,
        sizes: unequalSizes(15, 20, 80),
        loci: 30,
        minAlleles: 4,
        maxAlleles: 14,
        fst: 0.05,
        missing: 0.03,
      }),
  },
  {
    name: 'breeds-10-strong',
    what: 'microsatellites: 10 populations of 20–60, 20 loci, F_ST 0.1',
    K: 10,
    starts: 20,
    make: async (seed) =>
      multiAllelicPopulations(seed, {
        pops: 10,
        perPop: 0,
        sizes: unequalSizes(10, 20, 60),
        loci: 20,
        minAlleles: 4,
        maxAlleles: 14,
        fst: 0.1,
      }),
  },
  {
    name: 'breeds-12-weak',
    what: 'microsatellites: 12 populations of 30–70, 40 loci, F_ST 0.03, 5% missing',
    K: 12,
    starts: 20,
    make: async (seed) =>
      multiAllelicPopulations(seed, {
        pops: 12,
        perPop: 0,
        sizes: unequalSizes(12, 30, 70),
        loci: 40,
        minAlleles: 4,
        maxAlleles: 14,
        fst: 0.03,
        missing: 0.05,
      }),
  },
  {
    name: 'snps-3',
    seedFactor: CHEAP_SEED_FACTOR,
    what: 'unlinked SNPs: 3 populations × 50, 500 SNPs, F_ST 0.05',
    K: 3,
    starts: 20,
    make: async (seed) =>
      multiAllelicPopulations(seed, { pops: 3, perPop: 50, loci: 500, minAlleles: 2, maxAlleles: 2, fst: 0.05 }),
  },
  {
    name: 'snp-blocks-3',
    seedFactor: CHEAP_SEED_FACTOR,
    what: 'linked SNPs: 3 populations × 40, 40 haplotype blocks of 2–6 SNPs, population-specific haplotype frequencies, F_ST 0.05',
    K: 3,
    starts: 20,
    linked: true,
    make: async (seed) => haplotypeFrequencyBlocks(seed, SNP_BLOCKS_3),
  },
  {
    name: 'nancycats-17',
    seedFactor: CHEAP_SEED_FACTOR,
    what: 'nancycats (real): 237 cats, 9 microsatellites, 17 colonies, K = 17',
    K: 17,
    starts: 20,
    make: () => once('nancycats', () => real('nancycats.str', 'nancycats.labels.tsv', 'population')),
  },
  ...[3, 5, 6, 7].map((K): Case => ({
    name: `eHGDP-regions-${K}`,
    seedFactor: REAL_SEED_FACTOR,
    what: `eHGDP (real): 1,350 individuals, 678 microsatellites, against the 7 regions, K = ${K}`,
    K,
    starts: 10,
    make: () => once('eHGDP-regions', () => real('eHGDP.str.gz', 'eHGDP.labels.tsv', 'group')),
  })),
  {
    name: 'eHGDP-populations-20',
    seedFactor: REAL_SEED_FACTOR,
    what: 'eHGDP (real) against its 79 populations, K = 20',
    K: 20,
    starts: 10,
    make: () => once('eHGDP-populations', () => real('eHGDP.str.gz', 'eHGDP.labels.tsv', 'population')),
  },
];

/** A way of fitting the starts; several rankings reuse its starts. */
interface Fitting {
  readonly name: string;
  readonly fit: FitOptions;
  readonly rankings: readonly RankBy[];
  readonly linkedOnly?: boolean;
  /** The first start begins from the data's structure (SweepOptions.structuredStart). */
  readonly structured?: boolean;
  /** No fit: the structured start's own clustering (PCA, Ward, k-means), scored as it is. */
  readonly startOnly?: boolean;
  /** The peer, snapclust (bench/snapclust.ts): one deterministic fit from its Ward start. */
  readonly peer?: boolean;
}
const FITTINGS: Fitting[] = [
  {
    name: 'EMA, random starts (before)',
    fit: { ...DEFAULT_FIT, init: 'data', algorithm: 'ema', emaStarts: 'random' },
    rankings: ['evidence', 'likelihood'],
  },
  {
    name: 'EMA, mixed starts',
    fit: { ...DEFAULT_FIT, init: 'data', algorithm: 'ema', emaStarts: 'mixed' },
    rankings: ['evidence', 'likelihood'],
  },
  {
    name: 'EMA, mixed starts, π = ½',
    fit: {
      ...DEFAULT_FIT,
      init: 'data',
      algorithm: 'ema',
      emaStarts: 'mixed',
      priors: { ...DEFAULT_FIT.priors, priorInformative: 0.5 },
    },
    rankings: ['evidence'],
  },
  {
    name: 'EMA, after EM',
    fit: { ...DEFAULT_FIT, init: 'data', algorithm: 'ema', emaStarts: 'after-em' },
    rankings: ['evidence'],
  },
  { name: 'EM', fit: { ...DEFAULT_FIT, init: 'data', algorithm: 'em' }, rankings: ['evidence', 'likelihood'] },
  { name: 'auto', fit: { ...DEFAULT_FIT, init: 'data', algorithm: 'auto' }, rankings: ['evidence', 'likelihood'] },
  {
    name: 'EM on individuals',
    fit: { ...DEFAULT_FIT, init: 'individuals', algorithm: 'em' },
    rankings: ['evidence', 'likelihood'],
  },
  {
    name: 'auto on individuals',
    fit: { ...DEFAULT_FIT, init: 'individuals', algorithm: 'auto' },
    rankings: ['evidence', 'likelihood'],
  },
  {
    name: 'auto on individuals + structured start',
    fit: { ...DEFAULT_FIT, init: 'individuals', algorithm: 'auto' },
    rankings: ['evidence', 'likelihood'],
    structured: true,
  },
  {
    name: 'structured start alone (PCA, Ward, k-means; no fit)',
    fit: DEFAULT_FIT,
    rankings: ['likelihood'],
    startOnly: true,
  },
  ...(SNAPCLUST_MISSING
    ? []
    : [{ name: 'snapclust, Ward start (adegenet)', fit: DEFAULT_FIT, rankings: ['likelihood'] as const, peer: true }]),
  {
    name: 'EMA-TAN',
    fit: { ...DEFAULT_FIT, init: 'data', algorithm: 'ema-tan' },
    rankings: ['likelihood'],
    linkedOnly: true,
  },
];
const columns = FITTINGS.flatMap((f) => f.rankings.map((r) => ({ fitting: f, rankBy: r, key: `${f.name} / ${r}` })));
/** The fitting of the CLI's and the app's defaults (algorithm and random starts; EMA's schedule and priors as default). */
const DEFAULT_FITTING = FITTINGS.find(
  (f) =>
    f.fit.algorithm === CLUSTER_DEFAULTS.algorithm &&
    f.fit.init === CLUSTER_DEFAULTS.init &&
    f.fit.emaStarts === CLUSTER_DEFAULTS.emaStarts &&
    f.fit.priors.priorInformative === DEFAULT_FIT.priors.priorInformative &&
    !f.startOnly &&
    !f.peer &&
    (f.structured ?? false) === SWEEP_DEFAULTS.mixture.structuredStart,
)!;
const DEFAULT_KEY = `${DEFAULT_FITTING.name} / ${CLUSTER_DEFAULTS.rankBy}`;

const pool = nodeStartPool(THREADS);
const results = new Map<string, Map<string, number[]>>();
const autoPicks = new Map<string, { em: number; ema: number }>();
/** auto's choice per seed (best start by the default ranking), for the per-seed table. */
const autoPerSeed = new Map<string, string[]>();
const seconds = new Map<string, number>();
const t00 = performance.now();
for (const c of CASES.filter((x) => ONLY.length === 0 || ONLY.includes(x.name))) {
  const row = new Map<string, number[]>();
  results.set(c.name, row);
  const peerRuns: { data: GenotypeData; truth: ArrayLike<number> }[] = [];
  for (let seed = 1; seed <= SEEDS * (c.seedFactor ?? 1); seed++) {
    const { data, labels } = await c.make(seed);
    const md = buildPreparedData(data);
    const truth = encodeLabels(labels).codes;
    peerRuns.push({ data, truth });
    for (const f of FITTINGS) {
      if ((f.linkedOnly && !c.linked) || f.peer) continue;
      const t0 = performance.now();
      const structured = f.structured || f.startOnly ? structuredMemberships(md, [c.K]) : undefined;
      if (f.startOnly) {
        const ari = structured?.has(c.K) ? adjustedRandIndex(Array.from(structured.get(c.K)!), truth) : NaN;
        const key = `${f.name} / likelihood`;
        row.set(key, [...(row.get(key) ?? []), ari]);
        seconds.set(f.name, (seconds.get(f.name) ?? 0) + (performance.now() - t0) / 1000);
        continue;
      }
      const tasks = sweepTasks(
        {
          kValues: [c.K],
          replicates: 1,
          starts: Math.round(c.starts * STARTS_SCALE),
          policy: 'best',
          seed,
          fit: f.fit,
        },
        structured,
      );
      const run = await pool.run(data, tasks, f.fit);
      seconds.set(f.name, (seconds.get(f.name) ?? 0) + (performance.now() - t0) / 1000);
      const starts = run.results.filter((s): s is StartResult => s !== undefined);
      for (const rankBy of f.rankings) {
        const best = combineStarts(md, starts, 'best', rankBy, f.fit);
        const ari = adjustedRandIndex(hardAssignments(best.Q, md.N, c.K), truth);
        const key = `${f.name} / ${rankBy}`;
        row.set(key, [...(row.get(key) ?? []), ari]);
        if (f === DEFAULT_FITTING && rankBy === CLUSTER_DEFAULTS.rankBy) {
          const picks = autoPicks.get(c.name) ?? { em: 0, ema: 0 };
          const choice = best.algorithmChoice?.algorithm ?? 'ema';
          picks[choice]++;
          autoPicks.set(c.name, picks);
          autoPerSeed.set(c.name, [...(autoPerSeed.get(c.name) ?? []), choice.toUpperCase()]);
        }
      }
    }
    process.stderr.write(`${c.name} seed ${seed} done (${((performance.now() - t00) / 1000).toFixed(0)} s)\n`);
  }
  const peer = FITTINGS.find((f) => f.peer);
  if (peer) {
    // One R process per case; real data (the same object every seed) are fitted once.
    const distinct = [...new Set(peerRuns.map((r) => r.data))];
    const fits = snapclustGroups(distinct.map((data) => ({ data, K: c.K })));
    const key = `${peer.name} / likelihood`;
    for (const r of peerRuns) {
      const fit = fits[distinct.indexOf(r.data)]!;
      row.set(key, [...(row.get(key) ?? []), adjustedRandIndex(fit.groups, r.truth)]);
    }
    seconds.set(peer.name, (seconds.get(peer.name) ?? 0) + fits.reduce((a, f) => a + f.seconds, 0));
  }
}
pool.close();

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const out: string[] = [];
const log = (s = '') => out.push(s);
log('# Clustering accuracy suite: which defaults hold across datasets');
log();
log(madeAt());
log();
log('Adjusted Rand index (ARI) of the best start against the known labels, mean over the seeds listed per case');
log('(for simulated cases each seed also draws new data). Best choice; each configuration ranks');
log('the same starts by evidence (`ev`) or likelihood (`lik`). Columns:');
log();
log('- **EMA, random starts (before)**: every start begins its MA steps from random parameters (the text; the');
log('  default until this suite).');
log('- **EMA, mixed starts**: the odd-numbered starts begin their MA steps after EM has converged');
log('  (`--ema-starts mixed`, docs/algorithms.md §3); π = ½ fixes the structure prior instead of learning it.');
log('- **EMA, after EM**: every start does.');
log('- **EM**; **auto** (`--algorithm auto`): the starts of the EM column; EMA is continued from the best');
log('  of them (as an after-EM start), and both fits are refitted on 4/5 of the');
log('  individuals and scored on the rest (5 folds); EMA is kept when it predicts held-out individuals');
log(`  better by more than ${AUTO_EMA_Z} standard errors, else EM. The error is paired over individuals; where the`);
log('  markers have positions (snp-blocks-3 here) it also counts the sampling of genome windows (a delete-one-window');
log('  jackknife, docs/algorithms.md §4).');
log("- **EM on individuals**, **auto on individuals**: the same with every start's clusters on K individuals");
log('  chosen far apart (`--init individuals`, k-means++ with the allele-sharing distance; docs/algorithms.md §3);');
log("  every other column draws each cluster's frequencies around the observed ones (`--init data`).");
log('- **EMA-TAN**: only where markers are linked and ordered.');
log(
  "- **auto on individuals + structured start**: the same, with the first start from the data's structure (PCA, Ward's",
);
log(
  '  clustering of the scores cut at K, k-means from that cut: `--structured-start`, docs/algorithms.md §3); **structured',
);
log('  start alone**: that clustering itself, before any fit.');
log(
  SNAPCLUST_MISSING
    ? `- snapclust (the peer) left out: ${SNAPCLUST_MISSING}.`
    : "- **snapclust, Ward start**: R adegenet's `snapclust(x, k = K, pop.ini = \"ward\")`, one deterministic fit (bench/snapclust.R; seconds by R's clock, without R's start).",
);
log();
log(`The default (\`${DEFAULT_KEY}\`) must reach 0.95 × the best configuration's mean ARI on every case.`);
log(
  'Regenerate: `node --import tsx bench/accuracy.ts > docs/accuracy.md` (2 threads: about 25 minutes with snapclust).',
);
log();
log('## Cases');
log();
log('| case | what | K | starts | seeds |');
log('|---|---|---|---|---|');
for (const c of CASES)
  if (results.has(c.name))
    log(`| ${c.name} | ${c.what} | ${c.K} | ${Math.round(c.starts * STARTS_SCALE)} | ${SEEDS * (c.seedFactor ?? 1)} |`);
log();
log('## ARI per case and configuration');
log();
const short = (k: string) => k.replace(' / evidence', ' / ev').replace(' / likelihood', ' / lik');
log(`| case | ${columns.map((c) => short(c.key)).join(' | ')} | default ÷ best |`);
log(`|---|${columns.map(() => '---|').join('')}---|`);
const ratios: number[] = [];
for (const [name, row] of results) {
  const means = columns.map((c) => (row.has(c.key) ? mean(row.get(c.key)!) : undefined));
  const best = Math.max(...means.filter((m): m is number => m !== undefined));
  const def = row.has(DEFAULT_KEY) ? mean(row.get(DEFAULT_KEY)!) : NaN;
  const ratio = best > 0 ? def / best : 1;
  ratios.push(ratio);
  const cells = means.map((m) => (m === undefined ? '' : m === best ? `**${m.toFixed(3)}**` : m.toFixed(3)));
  log(`| ${name} | ${cells.join(' | ')} | ${ratio.toFixed(3)}${ratio >= 0.95 ? '' : ' ✗'} |`);
}
log();
const colMeans = columns.map((c) => {
  const vals = [...results.values()]
    .filter((r) => r.has(c.key) && !c.fitting.linkedOnly)
    .map((r) => mean(r.get(c.key)!));
  return c.fitting.linkedOnly ? '' : mean(vals).toFixed(3);
});
log(
  `Mean over cases: ${columns
    .map((c, k) => (colMeans[k] ? `${short(c.key)} ${colMeans[k]}` : ''))
    .filter((s) => s)
    .join('; ')}.`,
);
log();
const BEFORE_KEY = 'auto on individuals / likelihood';
const meanOf = (key: string) => mean([...results.values()].filter((r) => r.has(key)).map((r) => mean(r.get(key)!)));
log(
  `Mean ARI over the cases: the previous default (\`${short(BEFORE_KEY)}\`) ${meanOf(BEFORE_KEY).toFixed(3)}, the default (\`${short(DEFAULT_KEY)}\`) ${meanOf(DEFAULT_KEY).toFixed(3)}.`,
);
log();
log(
  `The default reaches 0.95 × the best on ${ratios.filter((r) => r >= 0.95).length} of ${ratios.length} cases (lowest ratio ${Math.min(...ratios).toFixed(3)}).`,
);
log();
log('## Seed to seed: the spread of the default before and after the structured start');
log();
log('Standard deviation of the ARI over seeds (real data: the seeds change only the random starts).');
log();
log(`| case | \`${short(BEFORE_KEY)}\` | \`${short(DEFAULT_KEY)}\` |`);
log('|---|---|---|');
const sd = (xs: readonly number[]) => {
  const m = mean(xs);
  return xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1)) : 0;
};
for (const [name, row] of results)
  if (row.has(BEFORE_KEY) && row.has(DEFAULT_KEY))
    log(`| ${name} | ${sd(row.get(BEFORE_KEY)!).toFixed(3)} | ${sd(row.get(DEFAULT_KEY)!).toFixed(3)} |`);
log();
log('## Per seed: the default against the best configuration of each case');
log();
log("ARI of the default and of the configuration with the best mean, seed by seed (auto's choice in");
log('brackets); the mean difference with its standard error over seeds says whether a shortfall is more');
log('than the spread between seeds.');
log();
log('| case | best configuration | seeds: default (auto chose) / best | mean difference ± s.e. |');
log('|---|---|---|---|');
for (const [name, row] of results) {
  const keys = columns.map((c) => c.key).filter((k) => row.has(k));
  const bestKey = keys.reduce((a, b) => (mean(row.get(b)!) > mean(row.get(a)!) ? b : a));
  const def = row.get(DEFAULT_KEY) ?? [];
  const top = row.get(bestKey)!;
  const picks = autoPerSeed.get(name) ?? [];
  const cells = def.map((d, s) => `${d.toFixed(2)}${picks[s] ? ` (${picks[s]})` : ''} / ${(top[s] ?? NaN).toFixed(2)}`);
  const diffs = def.map((d, s) => d - (top[s] ?? NaN));
  const m = mean(diffs);
  const se =
    diffs.length > 1 ? Math.sqrt(diffs.reduce((a, x) => a + (x - m) ** 2, 0) / (diffs.length - 1) / diffs.length) : 0;
  log(`| ${name} | ${short(bestKey)} | ${cells.join('; ')} | ${m.toFixed(3)} ± ${se.toFixed(3)} |`);
}
log();
log(
  `## What auto chose (best start by ${CLUSTER_DEFAULTS.rankBy}; seeds on which held-out individuals chose EM / EMA)`,
);
log();
log('| case | EM | EMA |');
log('|---|---|---|');
for (const [name, p] of autoPicks) log(`| ${name} | ${p.em} | ${p.ema} |`);
log();
log(
  `Seconds per configuration over the whole suite (${THREADS} threads): ${FITTINGS.filter((f) => seconds.has(f.name))
    .map((f) => `${f.name} ${seconds.get(f.name)!.toFixed(0)}`)
    .join('; ')}.`,
);
console.log(out.join('\n'));
