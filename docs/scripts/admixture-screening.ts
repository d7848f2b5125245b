// Screening an admixture multi-start by a loose tolerance: every start of a (dataset, K) is run to
// the default tolerance, and the ln L and seconds at which it would have stopped at a looser one
// (|Δ ln L| < τ) are recorded on the way. From these, each rule "run every start to τ, then only
// the m starts highest there to the default tolerance (again from their seeds)" is replayed
// exactly: the best ln L it ends with against the full multi-start's, and the seconds it takes.
// Starts, seeds and options are the sweep's (seed 1, replicate 1, every default; 10 starts).
// The fits run in two processes (each a shard of the starts; one thread each).
// Usage: node --import tsx docs/scripts/admixture-screening.ts > docs/admixture-screening.md
import { cpus } from 'node:os';
import type { PreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { startSeed, startSteps } from '../../engine/model/start.ts';
import { CLUSTER_DEFAULTS } from '../../engine/util/choices.ts';
import { shardedResults } from '../../bench/shards.ts';
import { ADMIXTURE_CASES } from '../../bench/admixture-cases.ts';

const T0 = performance.now();
const STARTS = 10;
/** The looser tolerances replayed, and how many starts each rule runs on to the default tolerance. */
const TAUS = [1, 0.1, 0.01] as const;
const KEEPS = [1, 2, 3] as const;
const OPTS = { ...DEFAULT_FIT, model: 'admixture' as const };

interface Point {
  logLik: number;
  seconds: number;
  iteration: number;
}
interface Start {
  /** Where the start stops at each τ of TAUS (its end when it never got there first). */
  at: Point[];
  end: Point & { converged: boolean };
}

function runStart(md: PreparedData, K: number, index: number): Start {
  const t = performance.now();
  const at: (Point | undefined)[] = TAUS.map(() => undefined);
  const steps = startSteps(md, K, OPTS, index, startSeed(1, K, 0, index));
  let r = steps.next();
  while (!r.done) {
    const { logLik, change, iteration } = r.value;
    TAUS.forEach((tau, j) => {
      // The fit stops at iteration > 0 when |change| < tolerance; the yield after it is the same test passed.
      if (at[j] === undefined && iteration > 1 && Math.abs(change) < tau)
        at[j] = { logLik, seconds: (performance.now() - t) / 1000, iteration: iteration - 1 };
    });
    r = steps.next();
  }
  const end = {
    logLik: r.value.logLik,
    seconds: (performance.now() - t) / 1000,
    iteration: r.value.iterations,
    converged: r.value.converged,
  };
  return { at: at.map((p) => p ?? end), end };
}

const CASES = ADMIXTURE_CASES;
const jobs = CASES.flatMap((c, ci) =>
  c.kValues.flatMap((K) => Array.from({ length: STARTS }, (_, index) => ({ ci, K, index }))),
);

const SHARDS = 2;
/** Every start's record, fitted in two processes, in job order. */
const starts = await shardedResults(
  import.meta.url,
  jobs.length,
  async (j) => runStart(await CASES[jobs[j]!.ci]!.data(), jobs[j]!.K, jobs[j]!.index),
  SHARDS,
);

/** The starts of each (case, K), in start order. */
const groups = CASES.flatMap((c, ci) =>
  c.kValues.map((K) => ({
    ci,
    K,
    starts: jobs.flatMap((job, j) => (job.ci === ci && job.K === K ? [starts[j]!] : [])),
  })),
);

interface Outcome {
  /** Best ln L of the rule minus the full multi-start's. */
  delta: number;
  seconds: number;
}
/** Rule (τ index j, keep m) on one group: every start to τ, the m highest there rerun to the end. */
function replay(g: readonly Start[], j: number, m: number): Outcome {
  const order = g.map((_, s) => s).sort((a, b) => g[b]!.at[j]!.logLik - g[a]!.at[j]!.logLik || a - b);
  const kept = order.slice(0, m);
  const best = Math.max(...g.map((s) => s.end.logLik));
  return {
    delta: Math.max(...kept.map((s) => g[s]!.end.logLik)) - best,
    seconds: g.reduce((a, s) => a + s.at[j]!.seconds, 0) + kept.reduce((a, s) => a + g[s]!.end.seconds, 0),
  };
}
const full = (g: readonly Start[]) => g.reduce((a, s) => a + s.end.seconds, 0);

const rules = TAUS.flatMap((tau, j) => KEEPS.map((m) => ({ tau, j, m })));
const ruleName = (r: (typeof rules)[number]) => `τ = ${r.tau}, keep ${r.m}`;
const f2 = (x: number) => x.toFixed(2);
const rows = groups.map((g) => {
  const c = CASES[g.ci]!;
  const ends = g.starts.map((s) => s.end);
  const capped = ends.filter((e) => !e.converged).length;
  const cells = rules.map((r) => {
    const o = replay(g.starts, r.j, r.m);
    return `${f2(o.delta)} / ${o.seconds.toFixed(0)}`;
  });
  return `| ${c.name} | ${g.K} | ${f2(Math.max(...ends.map((e) => e.logLik)))} | ${full(g.starts).toFixed(0)} | ${capped} | ${cells.join(' | ')} |`;
});
const totals = rules.map((r) => {
  const outcomes = groups.map((g) => replay(g.starts, r.j, r.m));
  return {
    rule: r,
    seconds: outcomes.reduce((a, o) => a + o.seconds, 0),
    ehgdpSeconds: outcomes.filter((_, gi) => groups[gi]!.ci === 0).reduce((a, o) => a + o.seconds, 0),
    worst: Math.min(...outcomes.map((o) => o.delta)),
    missed: outcomes.filter((o) => o.delta < -0.01).length,
  };
});
const fullSeconds = groups.reduce((a, g) => a + full(g.starts), 0);
const fullEhgdp = groups.filter((g) => g.ci === 0).reduce((a, g) => a + full(g.starts), 0);
const safe = totals.filter((t) => t.missed === 0).sort((a, b) => a.seconds - b.seconds)[0];

process.stdout.write(`# Screening the admixture model's starts by a loose tolerance

Made by \`node --import tsx docs/scripts/admixture-screening.ts > docs/admixture-screening.md\` on this
machine (${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}; ${SHARDS} processes of one thread each) in ${((performance.now() - T0) / 60000).toFixed(0)} minutes.

Every start of each (data, K) — ${STARTS} starts, the sweep's seeds (run seed 1, replicate 1) and every
default (\`--admixture-init ${CLUSTER_DEFAULTS.admixtureInit}\`, SQUAREM, \`--q-update ${CLUSTER_DEFAULTS.qUpdate}\`, at most ${DEFAULT_FIT.maxIterations} accepted steps) — is run
to the default tolerance (|Δ ln L| < ${CLUSTER_DEFAULTS.tolerance}), and where it would have stopped at a looser
tolerance τ is recorded on the way (ln L, seconds). A rule "τ, keep m" runs every start to τ, then
reruns the m starts of highest ln L there from their seeds to the default tolerance, and keeps the
best of those: its outcome is replayed exactly from the record. Each cell: the rule's best ln L minus
the full multi-start's / the seconds the rule takes (one thread, summed over the starts).
"Full": the seconds of the full multi-start; "capped": its starts stopped by the step cap.

| data | K | full: best ln L | full: s | capped | ${rules.map(ruleName).join(' | ')} |
|---|---|---|---|---|${rules.map(() => '---|').join('')}
${rows.join('\n')}

| rule | seconds in all (full: ${fullSeconds.toFixed(0)}) | eHGDP K = 2..8 (full: ${fullEhgdp.toFixed(0)}) | cases more than 0.01 below the full best | worst Δ best ln L |
|---|---|---|---|---|
${totals.map((t) => `| ${ruleName(t.rule)} | ${t.seconds.toFixed(0)} (${((100 * t.seconds) / fullSeconds).toFixed(0)} %) | ${t.ehgdpSeconds.toFixed(0)} | ${t.missed} of ${groups.length} | ${f2(t.worst)} |`).join('\n')}

${
  safe
    ? `The cheapest rule that ends within 0.01 of the full multi-start's best ln L on every case: **${ruleName(safe.rule)}**
(${((100 * safe.seconds) / fullSeconds).toFixed(0)} % of the full multi-start's seconds; eHGDP K = 2..8: ${safe.ehgdpSeconds.toFixed(0)} s against ${fullEhgdp.toFixed(0)} s on one thread).`
    : 'No rule ends within 0.01 of the full multi-start on every case.'
}
The default (\`--screen-tolerance ${CLUSTER_DEFAULTS.admixtureScreenTolerance}\`${CLUSTER_DEFAULTS.admixtureScreenTolerance > 0 ? `, \`--screen-starts ${CLUSTER_DEFAULTS.admixtureScreenStarts}\`` : ': every start runs to the default tolerance'}) is set from this table:
screening is on by default only if a rule is safe on every case here.
`);
