// How the admixture fit is accelerated: SQUAREM (three steps a cycle) or Anderson acceleration (one
// step a cycle), over the map of the default updates (Newton steps of F, then of Q). Every start of
// each (data, K) — 10 starts, the sweep's seeds (run seed 1, replicate 1), every other default — is
// fitted under both, from the same start. The fits run in two processes (each a shard of the
// starts; one thread each).
// Usage: node --import tsx docs/scripts/admixture-acceleration.ts > docs/admixture-acceleration.md
import { buildPreparedData, type PreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { startSeed, startSteps } from '../../engine/model/start.ts';
import { CLUSTER_DEFAULTS, type Acceleration } from '../../engine/util/choices.ts';
import { shardedResults } from '../../bench/shards.ts';
import { ADMIXTURE_CASES, type AdmixtureCase } from '../../bench/admixture-cases.ts';
import { admixedData } from '../../tests/model/synthetic.ts';
import { ANDERSON_FROM_LOCI } from '../../engine/model/admixture/admixture-step.ts';
import { madeAt } from '../../bench/made-at.ts';

const T0 = performance.now();
// The commit the fits run at (read now: commits made while the script runs do not change them).
const MADE_AT = madeAt();
const STARTS = 10;
const ARMS = ['squarem', 'anderson'] as const satisfies readonly Acceleration[];

/** The report cases and one SNP set of the size where a start takes seconds. */
let larger: Promise<PreparedData> | undefined;
const CASES: readonly AdmixtureCase[] = [
  ...ADMIXTURE_CASES,
  {
    name: 'simulated 1,000 × 10,000 SNPs, K = 3, F_ST 0.05',
    data: () =>
      (larger ??= Promise.resolve(
        buildPreparedData(admixedData(13, { N: 1000, L: 10000, K: 3, alpha: 0.5, fst: 0.05 }).data),
      )),
    kValues: [2, 3, 4],
  },
];

interface Start {
  logLik: number;
  seconds: number;
  converged: boolean;
}

function runStart(md: PreparedData, K: number, index: number, acceleration: Acceleration): Start {
  const t = performance.now();
  const opts = { ...DEFAULT_FIT, model: 'admixture' as const, acceleration };
  const steps = startSteps(md, K, opts, index, startSeed(1, K, 0, index));
  let r = steps.next();
  while (!r.done) r = steps.next();
  return {
    logLik: r.value.logLik,
    seconds: (performance.now() - t) / 1000,
    converged: r.value.converged,
  };
}

const jobs = CASES.flatMap((c, ci) =>
  c.kValues.flatMap((K) =>
    ARMS.flatMap((arm) => Array.from({ length: STARTS }, (_, index) => ({ ci, K, index, arm }))),
  ),
);
const SHARDS = 2;
const starts = await shardedResults(
  import.meta.url,
  jobs.length,
  async (j) => runStart(await CASES[jobs[j]!.ci]!.data(), jobs[j]!.K, jobs[j]!.index, jobs[j]!.arm),
  SHARDS,
);

const groups = CASES.flatMap((c, ci) =>
  c.kValues.map((K) => {
    const outcomes = ARMS.map((arm) => {
      const picked = jobs.flatMap((x, j) => (x.ci === ci && x.K === K && x.arm === arm ? [starts[j]!] : []));
      return {
        best: Math.max(...picked.map((p) => p.logLik)),
        mean: picked.reduce((a, p) => a + p.logLik, 0) / picked.length,
        seconds: picked.reduce((a, p) => a + p.seconds, 0),
        capped: picked.filter((p) => !p.converged).length,
      };
    });
    return { ci, K, outcomes, top: Math.max(...outcomes.map((o) => o.best)) };
  }),
);
const f2 = (x: number) => x.toFixed(2);
const signed = (x: number) => (x >= 0 ? '+' : '') + f2(x);
const rows = groups.map((g) => {
  const [s, a] = g.outcomes as [(typeof g.outcomes)[0], (typeof g.outcomes)[0]];
  return `| ${CASES[g.ci]!.name} | ${g.K} | ${f2(s.best)} | ${s.seconds.toFixed(1)} | ${signed(a.best - s.best)} | ${signed(a.mean - s.mean)} | ${a.seconds.toFixed(1)} | ${(s.seconds / a.seconds).toFixed(2)} |`;
});
const summary = ARMS.map((arm, si) => {
  const deltas = groups.map((g) => g.outcomes[si]!.best - g.top);
  return {
    arm,
    atTop: deltas.filter((d) => d >= -0.01).length,
    worst: Math.min(...deltas),
    seconds: groups.reduce((a, g) => a + g.outcomes[si]!.seconds, 0),
    capped: groups.reduce((a, g) => a + g.outcomes[si]!.capped, 0),
  };
});

process.stdout.write(`# How the admixture fit is accelerated: SQUAREM or Anderson

Made by \`node --import tsx docs/scripts/admixture-acceleration.ts > docs/admixture-acceleration.md\`. ${MADE_AT}
${SHARDS} processes of one thread each; ${((performance.now() - T0) / 60000).toFixed(0)} minutes.

Every start of each (data, K) — ${STARTS} starts, the sweep's seeds (run seed 1, replicate 1) and every
other default (\`--q-update ${CLUSTER_DEFAULTS.qUpdate}\`, \`--f-update ${CLUSTER_DEFAULTS.fUpdate}\`: Newton steps of F, then of Q; tolerance ${CLUSTER_DEFAULTS.tolerance}, at most
${DEFAULT_FIT.maxIterations} accepted steps) — is fitted under SQUAREM (\`--acceleration squarem\`: two steps, an
extrapolation tested by an ln L pass, a stabilising step) and under Anderson acceleration
(\`anderson\`, order 5: one step a cycle; the fit ends only when a plain step also gains less than the
tolerance). Seconds: one thread, summed over the ${STARTS} starts.
Δ: Anderson minus SQUAREM.

| data | K | SQUAREM: best ln L | s | Anderson: Δ best | Δ mean ln L | s | SQUAREM s / Anderson s |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

| acceleration | cases within 0.01 of the better best | worst Δ against it | seconds in all | capped starts |
|---|---|---|---|---|
${summary.map((s) => `| ${s.arm} | ${s.atTop} of ${groups.length} | ${f2(s.worst)} | ${s.seconds.toFixed(0)} | ${s.capped} |`).join('\n')}

Neither wins everywhere: Anderson is faster where most of a fit is the linear tail (the large SNP
set at every K, and small K elsewhere), slower where fits travel far through flat valleys (eHGDP at
K ≥ 5, where SQUAREM's three steps a cycle cover more ground), with as many cases at the better best
ln L. The default, \`--acceleration ${CLUSTER_DEFAULTS.acceleration}\`, is set from this table: Anderson's with Newton updates
on data of ${ANDERSON_FROM_LOCI.toLocaleString('en')} loci or more (here the 1,000 × 10,000 SNPs), SQUAREM below. (The cap of ${DEFAULT_FIT.maxIterations} accepted
steps counts Anderson's single steps and SQUAREM's cycles of three.)
`);
