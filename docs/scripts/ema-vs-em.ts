// EMA against EM on data sampled from random selective naive Bayes models, as in Table 7.1 of
// the dissertation (a smaller grid). For each model, both multi-starts (m starts, best choice)
// cluster the data; the winner is the partition whose cluster matrix is closer (Hamming
// distance, section 7.5.3) to the true partition; equal distances are draws.
// Usage: node --import tsx docs/scripts/ema-vs-em.ts [--models 10] [--starts 10] > docs/ema-vs-em.md
import { mixtureData } from '../../engine/model/mixture-data.ts';
import { DEFAULT_FIT } from '../../engine/model/fit.ts';
import { combineStarts, runStart, startSeed } from '../../engine/model/multi-start.ts';
import { coMembershipDistance, hardAssignments } from '../../engine/analysis/partition-scores.ts';
import { createRng, deriveSeed } from '../../engine/model/rng.ts';
import { makeData, dirichlet, draw } from '../../tests/model/synthetic.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : def);
const MODELS = opt('--models', 10);
const STARTS = opt('--starts', 10);
const NS = [4, 10, 20];
const KS = [2, 3];
const SIZES = [40, 160, 640];

/** A random selective naive Bayes model: each variable has 2..5 states and depends on C with probability ½. */
function sample(seed: number, n: number, K: number, N: number) {
  const rng = createRng(seed);
  const states = Array.from({ length: n }, () => 2 + Math.floor(rng.uniform() * 4));
  const relevant = states.map(() => rng.uniform() < 0.5);
  if (!relevant.some(Boolean)) relevant[0] = true;
  const weights = dirichlet(K, rng, 1);
  const cpt = states.map((r, i) => {
    if (!relevant[i]) {
      const p = dirichlet(r, rng);
      return Array.from({ length: K }, () => p);
    }
    return Array.from({ length: K }, () => dirichlet(r, rng));
  });
  const labels = Array.from({ length: N }, () => draw(weights, rng));
  const values = states.map((_, i) => labels.map((c) => draw(cpt[i]![c]!, rng)));
  return { data: makeData(N, n, 1, states, (l, d) => values[l]![d]!), labels };
}

function cluster(data: ReturnType<typeof sample>['data'], K: number, algorithm: 'ema' | 'em', seed: number): Int32Array {
  const md = mixtureData(data);
  const starts = Array.from({ length: STARTS }, (_, s) => runStart(md, K, { ...DEFAULT_FIT, algorithm }, s, startSeed(seed, K, 0, s)));
  return hardAssignments(combineStarts(md, starts, 'best').Q, md.N, K);
}

const rows: string[] = [];
const totals = { win: 0, draw: 0, loss: 0 };
const byN = new Map<number, { win: number; draw: number; loss: number }>();
for (const K of KS) for (const n of NS) {
  const cells: string[] = [];
  for (const N of SIZES) {
    let win = 0;
    let drawn = 0;
    let loss = 0;
    for (let m = 0; m < MODELS; m++) {
      const seed = deriveSeed(2007, K, n, N, m);
      const { data, labels } = sample(seed, n, K, N);
      const truth = Int32Array.from(labels);
      const dEma = coMembershipDistance(cluster(data, K, 'ema', seed), truth);
      const dEm = coMembershipDistance(cluster(data, K, 'em', seed), truth);
      if (dEma < dEm) win++;
      else if (dEma > dEm) loss++;
      else drawn++;
    }
    totals.win += win;
    totals.draw += drawn;
    totals.loss += loss;
    const t = byN.get(n) ?? { win: 0, draw: 0, loss: 0 };
    byN.set(n, { win: t.win + win, draw: t.draw + drawn, loss: t.loss + loss });
    cells.push(`${win}/${drawn}/${loss}`);
  }
  rows.push(`| ${K} | ${n} | ${cells.join(' | ')} |`);
}
console.log(`# EMA against EM on synthetic selective naive Bayes data (after Table 7.1)

Random selective naive Bayes models (2–5 states per variable, each variable relevant with
probability ½), ${MODELS} models per cell, one dataset each; multi-start EMA and multi-start EM
(${STARTS} starts each, best choice, default options: ε = 0.01, α = 1, learned structure prior).
Each cell is EMA wins/draws/losses by the Hamming distance between the cluster matrices of the
found and the true partition (section 7.5.3). Regenerate with
\`node --import tsx docs/scripts/ema-vs-em.ts --models ${MODELS} --starts ${STARTS} > docs/ema-vs-em.md\`.

| K | n | N = ${SIZES.join(' | N = ')} |
|---|---|${SIZES.map(() => '---').join('|')}|
${rows.join('\n')}

Total: ${totals.win} wins, ${totals.draw} draws, ${totals.loss} losses for EMA.
By number of variables: ${[...byN].map(([n, t]) => `n = ${n}: ${t.win}/${t.draw}/${t.loss}`).join('; ')}.

The dissertation (Table 7.1, 50 models per cell, m = 30) reports EMA ahead of EM in most cells.
Compare the totals above with that claim; cells with few variables leave little for model
averaging to discount, and there EM can match or beat EMA.`);
