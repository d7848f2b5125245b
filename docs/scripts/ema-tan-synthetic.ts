// The synthetic experiment of section 7.6 (Tables 7.5 and 7.6): data from random TAN models
// (3 states per variable, K = 2), clustered by multi-start EMA-TAN, multi-start EMA (naive
// Bayes) and multi-start EM on the complete Bayesian network for the same random order π
// (mEM-BNET); wins/draws/losses of mEMA-TAN by best-matching accuracy against the true partition.
// Usage: node --import tsx docs/scripts/ema-tan-synthetic.ts [--models 10] [--starts 10] > docs/ema-tan-synthetic.md
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { combineStarts } from '../../engine/model/combine-starts.ts';
import { runStart, startContext, startSeed } from '../../engine/model/start.ts';
import { hardAssignments, matchingAccuracy } from '../../engine/analysis/partition-scores.ts';
import { createRng, deriveSeed, type Rng } from '../../engine/util/rng.ts';
import { normalizeLogRow } from '../../engine/util/log-math.ts';
import { dirichlet, draw, makeData, shuffle } from '../../tests/model/synthetic.ts';
import { scriptNumber } from '../../bench/args.ts';

const MODELS = scriptNumber('--models', 10);
const STARTS = scriptNumber('--starts', 10);
const NS = [8, 10, 12, 14];
const SIZES = [160, 320, 640];
const R = 3;
const K = 2;

/** A random TAN model (C → every X_i; each X_i after the first has one parent among the earlier ones) and a sample. */
function sampleTan(seed: number, n: number, N: number) {
  const rng = createRng(seed);
  const parent = Array.from({ length: n }, (_, i) => (i === 0 ? -1 : Math.floor(rng.uniform() * i)));
  const cpt = parent.map((p) => Array.from({ length: K * (p < 0 ? 1 : R) }, () => dirichlet(R, rng, 1)));
  const weights = dirichlet(K, rng, 1);
  const labels: number[] = [];
  const rows: number[][] = [];
  for (let d = 0; d < N; d++) {
    const c = draw(weights, rng);
    const x: number[] = [];
    for (let i = 0; i < n; i++)
      x.push(draw(cpt[i]![c * (parent[i]! < 0 ? 1 : R) + (parent[i]! < 0 ? 0 : x[parent[i]!]!)]!, rng));
    labels.push(c);
    rows.push(x);
  }
  return { data: makeData(N, n, 1, new Array(n).fill(R), (l, d) => rows[d]![l]!), rows, labels };
}

/** Multi-start EM on the complete network for order π: p(x | c) = Π_i θ(x_π(i) | c, x_π(<i)). */
function emBnet(rows: number[][], order: number[], seed: number): Int32Array {
  const N = rows.length;
  const n = order.length;
  // Dense ids of the prefix configurations present in the data, per position in π.
  const prefix: Int32Array[] = [];
  const nConfigs: number[] = [];
  for (let i = 0; i < n; i++) {
    const ids = new Map<string, number>();
    const ix = new Int32Array(N);
    for (let d = 0; d < N; d++) {
      const key = order
        .slice(0, i)
        .map((v) => rows[d]![v])
        .join(',');
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      ix[d] = id;
    }
    prefix.push(ix);
    nConfigs.push(ids.size);
  }
  let best = { ll: -Infinity, post: new Float64Array(N * K) };
  for (let s = 0; s < STARTS; s++) {
    const rng: Rng = createRng(deriveSeed(seed, 77, s));
    let theta = order.map((_, i) => Float64Array.from({ length: K * nConfigs[i]! * R }, () => 0));
    theta = theta.map((t) => {
      for (let k = 0; k < t.length; k += R) dirichlet(R, rng, 1).forEach((p, x) => (t[k + x] = p));
      return t;
    });
    let w = new Float64Array(K).fill(1 / K);
    const post = new Float64Array(N * K);
    let ll = -Infinity;
    for (let it = 0; it < 200; it++) {
      for (let d = 0; d < N; d++)
        for (let c = 0; c < K; c++) {
          let s2 = Math.log(w[c]!);
          for (let i = 0; i < n; i++)
            s2 += Math.log(theta[i]![(c * nConfigs[i]! + prefix[i]![d]!) * R + rows[d]![order[i]!]!]!);
          post[d * K + c] = s2;
        }
      let newLl = 0;
      for (let d = 0; d < N; d++) newLl += normalizeLogRow(post, d, K);
      const counts = theta.map((t) => new Float64Array(t.length));
      const nc = new Float64Array(K);
      for (let d = 0; d < N; d++)
        for (let c = 0; c < K; c++) {
          const g = post[d * K + c]!;
          nc[c]! += g;
          for (let i = 0; i < n; i++) counts[i]![(c * nConfigs[i]! + prefix[i]![d]!) * R + rows[d]![order[i]!]!]! += g;
        }
      w = Float64Array.from(nc, (x) => (1 + x) / (K + N));
      theta = counts.map((t) => {
        const out = new Float64Array(t.length);
        for (let k = 0; k < t.length; k += R) {
          const tot = t[k]! + t[k + 1]! + t[k + 2]!;
          for (let x = 0; x < R; x++) out[k + x] = (1 + t[k + x]!) / (R + tot);
        }
        return out;
      });
      if (Math.abs(newLl - ll) < 1e-6 * Math.abs(newLl)) {
        ll = newLl;
        break;
      }
      ll = newLl;
    }
    if (ll > best.ll) best = { ll, post: Float64Array.from(post) };
  }
  return hardAssignments(best.post, N, K);
}

type Tally = { win: number; draw: number; loss: number };
const cells = new Map<string, { bnet: Tally; ema: Tally }>();
const add = (t: Tally, a: number, b: number) => (a > b + 1e-12 ? t.win++ : a < b - 1e-12 ? t.loss++ : t.draw++);
for (const n of NS)
  for (const N of SIZES) {
    const cell = { bnet: { win: 0, draw: 0, loss: 0 }, ema: { win: 0, draw: 0, loss: 0 } };
    for (let m = 0; m < MODELS; m++) {
      const seed = deriveSeed(76, n, N, m);
      const { data, rows, labels } = sampleTan(seed, n, N);
      const truth = Int32Array.from(labels);
      const ctx = startContext(data);
      const orderSeed = deriveSeed(seed, 1);
      const fit = (algorithm: 'ema' | 'ema-tan') => {
        const starts = Array.from({ length: STARTS }, (_, s) =>
          runStart(
            ctx,
            K,
            { ...DEFAULT_FIT, algorithm, tan: { window: n, order: 'random', orderSeed } },
            s,
            startSeed(seed, K, 0, s),
          ),
        );
        return matchingAccuracy(hardAssignments(combineStarts(ctx.md, starts, 'best').Q, N, K), truth);
      };
      const tan = fit('ema-tan');
      const ema = fit('ema');
      // The same random order π as EMA-TAN's (tanData shuffles 0..n-1 with orderSeed).
      const order = shuffle(
        Array.from({ length: n }, (_, i) => i),
        createRng(orderSeed),
      );
      const bnet = matchingAccuracy(emBnet(rows, order, seed), truth);
      add(cell.bnet, tan, bnet);
      add(cell.ema, tan, ema);
    }
    cells.set(`${n}/${N}`, cell);
  }
const fmt = (t: Tally) => `${t.win}/${t.draw}/${t.loss}`;
const table = (key: 'bnet' | 'ema') =>
  NS.map((n) => `| ${n} | ${SIZES.map((N) => fmt(cells.get(`${n}/${N}`)![key])).join(' | ')} |`).join('\n');
const total = (key: 'bnet' | 'ema') =>
  [...cells.values()].reduce(
    (t, c) => ({ win: t.win + c[key].win, draw: t.draw + c[key].draw, loss: t.loss + c[key].loss }),
    { win: 0, draw: 0, loss: 0 },
  );
console.log(`# EMA-TAN on data from random TAN models (after Tables 7.5 and 7.6)

Random TAN models (C → every variable, each variable after the first with one random earlier
parent, 3 states, K = 2, Dirichlet(1) tables), ${MODELS} models per cell, one dataset each. Every
learner uses the same random order π (not the true one). mEMA-TAN averages over the whole TAN
class for π (window = n − 1), mEMA over selective naive Bayes models, mEM-BNET is multi-start EM
(MAP, α = 1) on the complete network for π; ${STARTS} starts each, best choice. Cells: mEMA-TAN
wins/draws/losses by best-matching accuracy against the true partition. Regenerate with
\`node --import tsx docs/scripts/ema-tan-synthetic.ts --models ${MODELS} --starts ${STARTS} > docs/ema-tan-synthetic.md\`.

## mEMA-TAN vs mEM-BNET (Table 7.5)

| n | N = ${SIZES.join(' | N = ')} |
|---|${SIZES.map(() => '---').join('|')}|
${table('bnet')}

Total ${fmt(total('bnet'))}.

## mEMA-TAN vs mEMA (Table 7.6)

| n | N = ${SIZES.join(' | N = ')} |
|---|${SIZES.map(() => '---').join('|')}|
${table('ema')}

Total ${fmt(total('ema'))}.

Published (100 models per cell, m = 100): mEMA-TAN wins clearly for n ≥ 8 and N ≥ 160 against
both. Our design notes report a reference implementation at 10/0/5 against mEMA (n = 8, N = 160)
and 15/0/0 (n = 12, N = 320).`);
