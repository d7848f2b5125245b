// Generative against discriminative parameters for naive Bayes and TAN on UCI data (the
// dissertation's Table 5.3, seed 002's Table 2): 5-fold stratified CV, numeric attributes
// discretised by Fayyad–Irani MDL inside each training fold, Laplace (α = 1) generative
// estimates, discriminative = L-BFGS on the conditional log-likelihood from the generative start.
// Usage: node --import tsx docs/scripts/uci-classifiers.ts > docs/uci-classifiers.md
import { readArff, readCsvTable } from '../../engine/classify/tabular.ts';
import { categoricalFromTable } from '../../engine/classify/discretize.ts';
import { crossValidate } from '../../engine/classify/evaluate.ts';
import { uciText } from '../../data/datasets.ts';

// Published 5-fold CV accuracies: [NB, NB-disc, TAN, TAN-disc] from seed 002 Table 2
// (NB+OFE, NB+DEP, TAN+OFE, TAN+DEP) and the dissertation's Table 5.3 (NB, NB-TM, TAN, TAN-TM).
const PUBLISHED: Record<string, { s002?: number[]; t53?: number[]; name: string }> = {
  'breast-wisconsin.csv': { name: 'Breast', s002: [96.55, 95.54, 96.55, 96.12], t53: [97.37, 98.98, 97.37, 95.46] },
  'chess.arff': { name: 'Chess', s002: [87.34, 95.4, 92.4, 97.09], t53: [87.77, 95.15, 92.4, 96.81] },
  'german.arff': { name: 'German', s002: [73.5, 74.0, 73.6, 73.6], t53: [75.4, 78.9, 72.8, 84.0] },
  'glass.arff': { name: 'Glass', s002: [41.9, 41.9, 41.9, 41.9], t53: [74.31, 76.18, 72.9, 81.75] },
  'glass2.arff': { name: 'Glass2', s002: [76.25, 77.5, 75.63, 76.25] },
  'iris.arff': { name: 'Iris', s002: [95.33, 95.33, 94.67, 95.33], t53: [94.67, 95.33, 93.33, 96.0] },
  'pima.arff': { name: 'Pima', s002: [73.46, 75.42, 75.42, 75.69], t53: [77.96, 79.95, 79.17, 79.82] },
  'segment.arff': { name: 'Segment', s002: [85.32, 89.74, 89.35, 89.74] },
  'soybean.arff': { name: 'Soybean-large', s002: [92.65, 92.65, 91.47, 92.65], t53: [96.26, 97.51, 98.58, 99.29] },
  'vehicle.csv': { name: 'Vehicle', s002: [56.8, 62.72, 61.07, 64.97], t53: [61.94, 78.61, 71.63, 83.46] },
  'vote.arff': { name: 'Vote', s002: [90.34, 96.09, 94.25, 95.4], t53: [89.88, 98.39, 93.56, 99.08] },
  'satimage.csv': { name: 'Satimage', s002: [81.7, 85.5, 87.85, 88.6] },
};

// Structure scores compared for BCkG (k = 2) with generative parameters, and kDB (k = 2) by
// Sahami's conditional mutual information against kDB by the best ACL variant.
const SCORES = ['ll', 'bic', 'k2', 'acll', 'acl', 'acl-mid', 'acl-max'] as const;

const rows: string[] = [];
const scoreRows: string[] = [];
const scoreWins = new Map<string, number>();
const scoreSums: number[] = [];
let discWinsNb = 0;
let discWinsTan = 0;
let tmWinsNb = 0;
let tmWinsTan = 0;
let count = 0;
for (const [file, pub] of Object.entries(PUBLISHED)) {
  const text = uciText(file);
  const table = file.endsWith('.arff') ? readArff(file, text) : readCsvTable(file, text);
  const base = categoricalFromTable(
    table,
    Array.from({ length: table.rows }, (_, r) => r),
  );
  const acc = (['nb', 'tan'] as const).flatMap((structure) =>
    (['generative', 'gradient', 'tm'] as const).map((learning) => {
      const e = crossValidate(base, { structure, k: 2, learning, alpha: 1 }, 5, 1, (train) =>
        categoricalFromTable(table, train),
      );
      const mean = 100 * e.accuracy;
      const sd =
        100 * Math.sqrt(e.foldAccuracy.reduce((s, a) => s + (a - e.accuracy) ** 2, 0) / (e.foldAccuracy.length - 1));
      return { mean, sd };
    }),
  );
  const scoreAcc = SCORES.map(
    (score) =>
      100 *
      crossValidate(base, { structure: 'bckg', k: 2, learning: 'generative', alpha: 1, score }, 5, 1, (train) =>
        categoricalFromTable(table, train),
      ).accuracy,
  );
  const kdbAcc = ([undefined, 'acl-mid'] as const).map(
    (score) =>
      100 *
      crossValidate(
        base,
        { structure: 'kdb', k: 2, learning: 'generative', alpha: 1, ...(score ? { score } : {}) },
        5,
        1,
        (train) => categoricalFromTable(table, train),
      ).accuracy,
  );
  const top = Math.max(...scoreAcc);
  SCORES.forEach((s, k) => {
    if (scoreAcc[k]! >= top - 1e-9) scoreWins.set(s, (scoreWins.get(s) ?? 0) + 1);
  });
  [...scoreAcc, ...kdbAcc].forEach((x, k) => (scoreSums[k] = (scoreSums[k] ?? 0) + x));
  scoreRows.push(`| ${pub.name} | ${[...scoreAcc, ...kdbAcc].map((x) => x.toFixed(2)).join(' | ')} |`);
  count++;
  if (acc[1]!.mean > acc[0]!.mean) discWinsNb++;
  if (acc[4]!.mean > acc[3]!.mean) discWinsTan++;
  if (acc[2]!.mean > acc[0]!.mean) tmWinsNb++;
  if (acc[5]!.mean > acc[3]!.mean) tmWinsTan++;
  const f = (x: { mean: number; sd: number }) => `${x.mean.toFixed(2)} ± ${x.sd.toFixed(2)}`;
  const p = (xs?: number[]) => (xs ? xs.map((x) => x.toFixed(2)).join(' / ') : '—');
  rows.push(`| ${pub.name} | ${base.N} | ${acc.map(f).join(' | ')} | ${p(pub.s002)} | ${p(pub.t53)} |`);
}
console.log(`# Generative vs discriminative parameters on UCI data

5-fold stratified cross-validation (seed 1); numeric attributes discretised with Fayyad–Irani MDL
inside each training fold; generative = Laplace estimates (α = 1); "gradient" = L-BFGS on the
conditional log-likelihood from the generative parameters (seed 002), its L2 anchor chosen by
inner 3-fold CV from {0.01, 0.1, 1, 10};
"TM" = the TM algorithm in count space with a monotone line search (dissertation 5.2).
Published columns: seed 002 Table 2 (NB+OFE / NB+DEP / TAN+OFE / TAN+DEP) and the dissertation's
Table 5.3 (NB / NB-TM / TAN / TAN-TM). Regenerate with
\`node --import tsx docs/scripts/uci-classifiers.ts > docs/uci-classifiers.md\`.

| data set | N | NB | NB gradient | NB-TM | TAN | TAN gradient | TAN-TM | published (seed 002) | published (Table 5.3) |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Discriminative parameters beat generative ones for naive Bayes on ${discWinsNb} (gradient) and
${tmWinsNb} (TM) of ${count} data sets, and for TAN on ${discWinsTan} (gradient) and ${tmWinsTan} (TM) of ${count}
(published: on most data sets).

## Structure scores

BCkG (k = 2; seed 001) searched with each decomposable score, generative parameters (α = 1),
the same folds and discretisation: log-likelihood, BIC/MDL, K2, the approximate CLL (seed 000),
and ACL (Burge & Lane, seed 004) with ML, Mid and Max parameters (one versus the rest, the other
classes' counts weighted to the class's size; e = 1). Last two columns: kDB (k = 2) with Sahami's
conditional mutual information and with ACL-Mid. Best score per data set (ties count for each):
${SCORES.map((s) => `${s} ${scoreWins.get(s) ?? 0}`).join(', ')}.

| data set | LL | BIC | K2 | aCLL | ACL-ML | ACL-Mid | ACL-Max | kDB (CMI) | kDB (ACL-Mid) |
|---|---|---|---|---|---|---|---|---|---|
${scoreRows.join('\n')}
| mean | ${scoreSums.map((x) => (x / count).toFixed(2)).join(' | ')} |

Reading: no score wins everywhere; K2 has the best mean. Of the ACL variants ACL-Mid is the one
to use (best of all on Soybean and Satimage): ACL-Max falls apart on Chess and Vehicle and
ACL-ML on Satimage and Vote, as the paper found ACL-ML fragile under noise. BIC stays the default
of BCkG. Classification uses the generative parameters here, not the paper's least-squares
cost-ratio boundary.`);
