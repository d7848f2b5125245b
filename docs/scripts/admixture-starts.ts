// How the admixture model's starts are drawn: from an EM fit of the mixture model (`--admixture-init
// mixture`) or at random (`random`). Every start of each (data, K) — 10 starts, the sweep's seeds (run
// seed 1, replicate 1), every other default — is fitted from both kinds of start, and three ways of
// drawing a multi-start's 10 starts are compared from that record: all from the mixture model, all at
// random, and alternating (even starts from the mixture model, odd ones at random). The fits run in two
// processes (each a shard of the starts; one thread each).
// Usage: node --import tsx docs/scripts/admixture-starts.ts > docs/admixture-starts.md
import { cpus } from 'node:os';
import type { PreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { startSeed, startSteps } from '../../engine/model/start.ts';
import { CLUSTER_DEFAULTS, type AdmixtureInit } from '../../engine/util/choices.ts';
import { shardedResults } from '../../bench/shards.ts';
import { ADMIXTURE_CASES } from '../../bench/admixture-cases.ts';
import { resolvedAdmixtureInit } from '../../engine/model/admixture/admixture-start.ts';

const T0 = performance.now();
const STARTS = 10;
const INITS = ['mixture', 'random'] as const satisfies readonly AdmixtureInit[];

interface Start {
  logLik: number;
  steps: number;
  seconds: number;
  converged: boolean;
}

function runStart(md: PreparedData, K: number, index: number, init: AdmixtureInit): Start {
  const t = performance.now();
  const opts = { ...DEFAULT_FIT, model: 'admixture' as const, admixtureInit: init };
  const steps = startSteps(md, K, opts, index, startSeed(1, K, 0, index));
  let r = steps.next();
  while (!r.done) r = steps.next();
  return {
    logLik: r.value.logLik,
    steps: r.value.iterations,
    seconds: (performance.now() - t) / 1000,
    converged: r.value.converged,
  };
}

const CASES = ADMIXTURE_CASES;
const jobs = CASES.flatMap((c, ci) =>
  c.kValues.flatMap((K) =>
    INITS.flatMap((init) => Array.from({ length: STARTS }, (_, index) => ({ ci, K, index, init }))),
  ),
);
const SHARDS = 2;
const starts = await shardedResults(
  import.meta.url,
  jobs.length,
  async (j) => runStart(await CASES[jobs[j]!.ci]!.data(), jobs[j]!.K, jobs[j]!.index, jobs[j]!.init),
  SHARDS,
);

/** Ways of drawing a multi-start's starts: the kind of start i. */
const STRATEGIES = [
  { name: 'mixture', kind: (): AdmixtureInit => 'mixture' },
  { name: 'random', kind: (): AdmixtureInit => 'random' },
  { name: 'alternating', kind: (i: number): AdmixtureInit => (i % 2 === 0 ? 'mixture' : 'random') },
] as const;

const groups = CASES.flatMap((c, ci) =>
  c.kValues.map((K) => {
    const of = (init: AdmixtureInit, index: number) =>
      starts[jobs.findIndex((x) => x.ci === ci && x.K === K && x.init === init && x.index === index)]!;
    const outcomes = STRATEGIES.map((s) => {
      const picked = Array.from({ length: STARTS }, (_, i) => of(s.kind(i), i));
      return {
        best: Math.max(...picked.map((p) => p.logLik)),
        seconds: picked.reduce((a, p) => a + p.seconds, 0),
        steps: picked.reduce((a, p) => a + p.steps, 0),
        capped: picked.filter((p) => !p.converged).length,
      };
    });
    return { ci, K, outcomes, top: Math.max(...outcomes.map((o) => o.best)) };
  }),
);
const f2 = (x: number) => x.toFixed(2);
const rows = groups.map((g) => {
  const ref = g.outcomes[0]!.best;
  const cells = g.outcomes.map(
    (o, s) => `${s === 0 ? f2(o.best) : (o.best - ref >= 0 ? '+' : '') + f2(o.best - ref)} | ${o.seconds.toFixed(0)}`,
  );
  return `| ${CASES[g.ci]!.name} | ${g.K} | ${cells.join(' | ')} |`;
});
const summary = STRATEGIES.map((s, si) => {
  const deltas = groups.map((g) => g.outcomes[si]!.best - g.top);
  return {
    name: s.name,
    atTop: deltas.filter((d) => d >= -0.01).length,
    worst: Math.min(...deltas),
    seconds: groups.reduce((a, g) => a + g.outcomes[si]!.seconds, 0),
    ehgdp: groups.filter((g) => g.ci === 0).reduce((a, g) => a + g.outcomes[si]!.seconds, 0),
    capped: groups.reduce((a, g) => a + g.outcomes[si]!.capped, 0),
  };
});
const chosen = [...summary].sort((a, b) => b.atTop - a.atTop || a.seconds - b.seconds)[0]!;

process.stdout.write(`# How the admixture model's starts are drawn

Made by \`node --import tsx docs/scripts/admixture-starts.ts > docs/admixture-starts.md\` on this
machine (${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}; ${SHARDS} processes of one thread each) in ${((performance.now() - T0) / 60000).toFixed(0)} minutes.

Every start of each (data, K) — ${STARTS} starts, the sweep's seeds (run seed 1, replicate 1) and every
other default (SQUAREM, \`--q-update ${CLUSTER_DEFAULTS.qUpdate}\`, \`--f-update ${CLUSTER_DEFAULTS.fUpdate}\`, tolerance ${CLUSTER_DEFAULTS.tolerance}, at most
${DEFAULT_FIT.maxIterations} accepted steps) — is fitted from the mixture-model start (\`--admixture-init mixture\`: EM of the
mixture model from the start's random parameters, memberships halfway to uniform) and from the
random start (\`random\`: Q rows from Dirichlet(1), F around the pooled frequencies), from the same
seed. Three ways of drawing a multi-start's ${STARTS} starts are replayed from that record: all from the
mixture model, all at random, and alternating (even starts from the mixture model, odd ones at
random). Each cell: the best ln L of the ${STARTS} starts (for random and alternating: minus the
mixture-start multi-start's) | the seconds they take (one thread, summed over the starts).

| data | K | mixture: best ln L | s | random: Δ best | s | alternating: Δ best | s |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

| starts | cases within 0.01 of the best of the three | worst Δ against that best | seconds in all | eHGDP K = 2..8 | capped starts |
|---|---|---|---|---|---|
${summary.map((s) => `| ${s.name} | ${s.atTop} of ${groups.length} | ${f2(s.worst)} | ${s.seconds.toFixed(0)} | ${s.ehgdp.toFixed(0)} | ${s.capped} |`).join('\n')}

Most cases at the best (ties: fewer seconds): **${chosen.name}**. The default, \`--admixture-init ${CLUSTER_DEFAULTS.admixtureInit}\`, draws
${resolvedAdmixtureInit(CLUSTER_DEFAULTS.admixtureInit, DEFAULT_FIT)} starts under the default (Newton) updates and mixture-model starts when either block is
updated by EM (where the mixture start needs 2–3.5 × fewer passes, docs/admixture.md); it is set from
this table. Alternating is a replay of the record, not an option.
`);
