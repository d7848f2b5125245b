// How many starts does the admixture model need per K? Every (dataset, K) of the suite is fitted
// from 60 starts (the sweep's seeds: run seed 1, replicate 1, every default, no screening: the
// screening report found no screening rule that kept the best start everywhere), each to
// convergence on one thread; the best of the 60 is the reference. Starts are independent draws, so
// a sweep of n starts is replayed as the first n of a random order of the 60 (1,000 orders a case):
// the share of orders whose best is within 0.1 ln L of the reference is the chance that n starts
// find it. The adaptive rule — run starts in rounds; stop at a K once two starts agree within 0.1
// ln L on the best value seen, or at the cap — is replayed the same way, with how often it stops
// below the reference and the starts it runs.
// Usage: node --import tsx docs/scripts/admixture-defaults.ts [--records FILE] > docs/admixture-defaults.md
// (--records keeps every start's ln L and seconds in FILE, and reads them from there when it exists.)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { PreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { startSeed, startSteps } from '../../engine/model/start.ts';
import { ADMIXTURE_START_RULE } from '../../engine/util/choices.ts';
import { agreedStop } from '../../engine/model/start-rule.ts';
import { createRng } from '../../engine/util/rng.ts';
import { shardedResults } from '../../bench/shards.ts';
import { ADMIXTURE_CASES, type AdmixtureCase } from '../../bench/admixture-cases.ts';
import { scriptArg } from '../../bench/args.ts';
import { madeAt } from '../../bench/made-at.ts';
import { admixedData } from '../../tests/model/synthetic.ts';

const T0 = performance.now();
const STARTS = 60;
const K_VALUES = [2, 3, 4, 5];
/** ln L units within which a sweep "found" the reference optimum (the issue's criterion). */
const WITHIN = 0.1;
const ORDERS = 1000;
const OPTS = { ...DEFAULT_FIT, model: 'admixture' as const };

const hapmapSize: AdmixtureCase = {
  name: 'simulated 324 × 14,000 SNPs (HapMap3 size), K = 3, F_ST 0.1',
  data: (() => {
    let d: Promise<PreparedData> | undefined;
    return () =>
      (d ??= Promise.resolve(
        buildPreparedData(admixedData(21, { N: 324, L: 14_000, K: 3, alpha: 0.3, fst: 0.1 }).data),
      ));
  })(),
  kValues: K_VALUES,
};
const CASES = [...ADMIXTURE_CASES, hapmapSize];

interface Start {
  logLik: number;
  seconds: number;
}

function runStart(md: PreparedData, K: number, index: number): Start {
  const t = performance.now();
  const steps = startSteps(md, K, OPTS, index, startSeed(1, K, 0, index));
  let r = steps.next();
  while (!r.done) r = steps.next();
  return { logLik: r.value.logLik, seconds: (performance.now() - t) / 1000 };
}

const jobs = CASES.flatMap((_c, ci) =>
  K_VALUES.flatMap((K) => Array.from({ length: STARTS }, (_, index) => ({ ci, K, index }))),
);
const recordsFile = scriptArg('--records', '');
const starts: Start[] =
  recordsFile && existsSync(recordsFile)
    ? (JSON.parse(readFileSync(recordsFile, 'utf8')) as Start[])
    : await shardedResults(import.meta.url, jobs.length, async (j) =>
        runStart(await CASES[jobs[j]!.ci]!.data(), jobs[j]!.K, jobs[j]!.index),
      );
if (recordsFile && !existsSync(recordsFile)) writeFileSync(recordsFile, JSON.stringify(starts));

const groups = CASES.flatMap((c, ci) =>
  K_VALUES.map((K) => ({
    name: c.name,
    K,
    starts: jobs.flatMap((job, j) => (job.ci === ci && job.K === K ? [starts[j]!] : [])),
  })),
);

/** Random orders of 0..n-1 (seeded: the report is the same on every run). */
function orders(n: number, count: number, seed: number): number[][] {
  const rng = createRng(seed);
  return Array.from({ length: count }, () => {
    const o = Array.from({ length: n }, (_, k) => k);
    for (let k = n - 1; k > 0; k--) {
      const j = Math.floor(rng.uniform() * (k + 1));
      [o[k], o[j]] = [o[j]!, o[k]!];
    }
    return o;
  });
}

const FIXED = [1, 2, 3, 4, 5, 6, 8, 10, 15, 20];
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const lines: string[] = [];
const out = (s = '') => lines.push(s);

out('# How many starts the admixture model needs');
out();
out(`${madeAt()} \`node --import tsx docs/scripts/admixture-defaults.ts > docs/admixture-defaults.md\`,`);
out(`2 processes of one thread; RUNTIME.`);
out();
out(
  `Each (data, K) is fitted from ${STARTS} starts (the sweep's seeds, every default, no screening), each to convergence;`,
);
out(`the best of the ${STARTS} is the reference. A sweep of n starts is replayed as the first n of a random order of`);
out(
  `the ${STARTS} (${ORDERS.toLocaleString('en')} orders): the share of orders whose best is within ${WITHIN} ln L of the`,
);
out(
  `reference. The adaptive rule (${ADMIXTURE_START_RULE.round} starts a round, at most ${ADMIXTURE_START_RULE.cap}): stop`,
);
out(
  `once the two best starts agree within ${ADMIXTURE_START_RULE.agree} ln L. "Spread": the reference minus the worst start.`,
);
out();
out(
  `| data | K | reference ln L | spread | s a start | ${FIXED.map((n) => `n = ${n}`).join(' | ')} | adaptive: found | adaptive: starts (mean) |`,
);
out(`|---|---|---|---|---|${FIXED.map(() => '---|').join('')}---|---|`);
const summary = { fixed: FIXED.map(() => 1), adaptiveWorst: 1, misses: 0, runs: 0, startsUsed: 0 };
let seconds = 0;
groups.forEach((g, gi) => {
  const lls = g.starts.map((s) => s.logLik);
  const best = Math.max(...lls);
  const found = (subset: readonly number[]) => Math.max(...subset.map((k) => lls[k]!)) >= best - WITHIN;
  const perm = orders(STARTS, ORDERS, 1000 + gi);
  const fixed = FIXED.map((n) => perm.filter((o) => found(o.slice(0, n))).length / ORDERS);
  fixed.forEach((f, k) => (summary.fixed[k] = Math.min(summary.fixed[k]!, f)));
  let ok = 0;
  let used = 0;
  for (const o of perm) {
    const n = agreedStop(o.map((k) => lls[k]!));
    used += n;
    if (found(o.slice(0, n))) ok++;
  }
  summary.adaptiveWorst = Math.min(summary.adaptiveWorst, ok / ORDERS);
  summary.misses += ORDERS - ok;
  summary.runs += ORDERS;
  summary.startsUsed += used;
  const mean = g.starts.reduce((a, s) => a + s.seconds, 0) / g.starts.length;
  seconds += g.starts.reduce((a, s) => a + s.seconds, 0);
  out(
    `| ${g.name} | ${g.K} | ${best.toFixed(2)} | ${(best - Math.min(...lls)).toFixed(2)} | ${mean.toFixed(2)} | ${fixed.map(pct).join(' | ')} | ${pct(ok / ORDERS)} | ${(used / ORDERS).toFixed(1)} |`,
  );
});
out();
out(
  `Worst case over the ${groups.length} (data, K): ${FIXED.map((n, k) => `n = ${n}: ${pct(summary.fixed[k]!)}`).join('; ')}.`,
);
out(
  `Adaptive rule: found the reference in ${pct(1 - summary.misses / summary.runs)} of the ${summary.runs.toLocaleString('en')} replayed sweeps (worst (data, K): ${pct(summary.adaptiveWorst)}), with ${(summary.startsUsed / summary.runs).toFixed(1)} starts a K on average.`,
);
out(`Fitting time of all ${starts.length} starts on one thread: ${Math.round(seconds)} s.`);
out();
out('Other rules, replayed on the same orders (found: share of all replayed sweeps within 0.1 of the reference;');
out(
  'worst: the worst (data, K); CPU: one-thread seconds of the starts run, summed over the 20 (data, K), mean over orders):',
);
out();
out('| rule | found | worst | starts a K (mean) | CPU s |');
out('|---|---|---|---|---|');
const RULES = [
  { round: 4, cap: 20, agree: 0.1 },
  { round: 4, cap: 12, agree: 0.1 },
  { round: 4, cap: 8, agree: 0.1 },
  { round: 2, cap: 8, agree: 0.1 },
  { round: 4, cap: 12, agree: 1 },
  { round: 20, cap: 20, agree: 0 },
];
for (const rule of RULES) {
  let found = 0;
  let used = 0;
  let cpu = 0;
  let worst = 1;
  groups.forEach((g, gi) => {
    const lls = g.starts.map((x) => x.logLik);
    const best = Math.max(...lls);
    let ok = 0;
    for (const o of orders(STARTS, ORDERS, 1000 + gi)) {
      const n = agreedStop(
        o.map((k) => lls[k]!),
        rule,
      );
      used += n;
      cpu += o.slice(0, n).reduce((a, k) => a + g.starts[k]!.seconds, 0);
      if (Math.max(...o.slice(0, n).map((k) => lls[k]!)) >= best - WITHIN) ok++;
    }
    found += ok;
    worst = Math.min(worst, ok / ORDERS);
  });
  const runs = groups.length * ORDERS;
  const name =
    rule.round === rule.cap
      ? `every start, ${rule.cap}`
      : `rounds of ${rule.round}, agree ${rule.agree}, at most ${rule.cap}`;
  out(`| ${name} | ${pct(found / runs)} | ${pct(worst)} | ${(used / runs).toFixed(1)} | ${Math.round(cpu / ORDERS)} |`);
}
const minutes = Math.round((performance.now() - T0) / 60_000);
process.stdout.write(lines.join('\n').replace('RUNTIME', `${minutes} minutes`) + '\n');
