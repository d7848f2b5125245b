// How long one structure search takes against the number of markers, for every structure and
// score the Assign view and `stratify assign` offer: simulated SNPs (three populations of 100
// unadmixed individuals, F_ST 0.1), genotype variables, one search on all 300 labelled rows (a
// cross-validation runs one per fold). Searches whose size (structureSearchWork) times the cost
// of one local score measured here would pass the budget are not run; their estimate is given.
// Usage: node --import tsx bench/structure-search.ts [--budget 60] > docs/structure-search.md (the
// report is made with --budget 150: the searches of 1,000 markers by LL, BIC, K2 and ACL run)
import { categoricalFromGenotypes, subsetFeatures } from '../engine/classify/categorical.ts';
import { learnStructure, searchesByScore, structureSearchWork } from '../engine/classify/learn-structure.ts';
import { SCORE, type Score, type StructureKind } from '../engine/util/choices.ts';
import { admixedData } from '../tests/model/synthetic.ts';
import { scriptNumber } from './args.ts';
import { madeAt } from './made-at.ts';

const budget = scriptNumber('--budget', 60);
const SIZES = [50, 200, 1000];
const out: string[] = [];
const log = (s = '') => out.push(s);

/**
 * Seconds per local score of a search of `kind` with `score` on d: a whole search of its first 60
 * markers timed and divided by its size (so a search kernel's cost counts, not one call's).
 */
function scoreCost(d: ReturnType<typeof categoricalFromGenotypes>, kind: StructureKind, score: Score): number {
  const sample = subsetFeatures(
    d,
    Array.from({ length: Math.min(d.n, 60) }, (_, i) => i),
  );
  learnStructure(sample, kind, 2, score);
  const t = performance.now();
  learnStructure(sample, kind, 2, score);
  return (performance.now() - t) / 1000 / structureSearchWork(sample.n, kind, 2, score);
}

log('# Structure searches: time against the number of markers');
log();
log(madeAt());
log();
log(
  `Command: \`node --import tsx bench/structure-search.ts --budget ${budget} > docs/structure-search.md\`. Simulated SNPs: 300 individuals ` +
    'in three unadmixed populations (F_ST 0.1), genotype variables (3 states); one structure search on all rows, k = 2 ' +
    'for kDB and BCkG. Seconds of `learnStructure` (what each fold of `stratify assign --cv` runs once). ' +
    `"local scores" is the size said before a search (at most; BIC's and LL's bounds skip some). Searches estimated ` +
    `over ${budget} s (size × the measured cost of one local score) are not run: "≈ N s (not run)".`,
);
log();
const rows: [string, StructureKind, Score | undefined][] = [
  ['NB', 'nb', undefined],
  ['TAN', 'tan', undefined],
  ['kDB (conditional MI)', 'kdb', undefined],
  ...SCORE.values.map((s) => [`kDB, ${s}`, 'kdb', s] as [string, StructureKind, Score]),
  ...SCORE.values.map((s) => [`BCkG, ${s}`, 'bckg', s] as [string, StructureKind, Score]),
];
log(`| structure | ${SIZES.map((n) => `${n} markers: s | local scores`).join(' | ')} |`);
log(`|---|${SIZES.map(() => '---|---|').join('')}`);
const data = SIZES.map((n, k) => {
  const sim = admixedData(40 + k, { N: 300, L: n, K: 3, alpha: 1, fst: 0.1, references: 300 });
  const g = {
    ...sim.data,
    individuals: sim.data.individuals.map((ind, i) => ({ ...ind, population: `P${i % 3}` })),
  };
  return categoricalFromGenotypes(g);
});
for (const [label, kind, score] of rows) {
  const cells: string[] = [];
  data.forEach((d) => {
    const work = structureSearchWork(d.n, kind, 2, score);
    const estimate = searchesByScore(kind, score) && score ? work * scoreCost(d, kind, score) : 0;
    if (estimate > budget) {
      cells.push(`≈ ${estimate.toFixed(0)} (not run)`, work.toLocaleString('en'));
      return;
    }
    const t = performance.now();
    learnStructure(d, kind, 2, score);
    cells.push(((performance.now() - t) / 1000).toFixed(2), work.toLocaleString('en'));
  });
  log(`| ${label} | ${cells.join(' | ')} |`);
}
log();
log(
  'BCkG visits every subset of at most two earlier markers of each marker, so its size grows as the cube of the ' +
    "markers; BIC's bound (a two-parent table cannot pay its penalty back) skips part of them, with the other scores " +
    "every one is scored. With every score a feature's whole search runs in one WebAssembly call that counts on row " +
    'sets as bit sets (64 rows a word, a cell a popcount). ' +
    "Each fold of a cross-validation is one search; `stratify assign` shares the folds' searches between its threads " +
    'when there are few folds.',
);
process.stdout.write(out.join('\n') + '\n');
