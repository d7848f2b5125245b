// Assignment with Bayesian-network classifiers on genotypes: eHGDP individuals to their seven
// regions (10-fold CV) with the full marker set and with panels chosen inside each fold by
// mutual information, per-locus F_ST and at random; and two simulations of linked SNPs
// (haplotype blocks) where naive Bayes counts linked markers more than once.
// Usage: node --import tsx docs/scripts/assignment.ts > docs/assignment.md
import { readDataset } from '../../engine/index.ts';
import { datasetFiles, fileSource } from '../../engine/node/file-source.ts';
import { categoricalFromGenotypes, type CategoricalData } from '../../engine/classify/categorical.ts';
import { crossValidate, type Evaluation, type Learning } from '../../engine/classify/evaluate.ts';
import { panelCurve } from '../../engine/classify/panel-curve.ts';
import type { StructureKind } from '../../engine/classify/network-structure.ts';
import { haplotypeBlocks, haplotypeFrequencyBlocks } from '../../tests/model/synthetic.ts';
import { wilcoxonSignedRank } from '../../engine/util/rank-tests.ts';
import { range, subsetData } from '../../engine/data/genotype-data.ts';
import { dataPath } from '../../data/datasets.ts';
import { assignIndividuals } from '../../engine/service/assign.ts';

const out: string[] = [];
const log = (s = '') => out.push(s);
const pct = (x: number) => (100 * x).toFixed(2);

const ehgdp = await readDataset(datasetFiles(dataPath('eHGDP.str.gz')), {
  populations: fileSource(dataPath('eHGDP.labels.tsv')),
});
const regions = categoricalFromGenotypes(ehgdp, 'group');
log('# Assignment to known populations');
log();
log('Regenerate with `node --import tsx docs/scripts/assignment.ts > docs/assignment.md`. Genotypes enter as');
log('categorical variables (one state per unordered genotype; a genotype with a missing copy is');
log('missing and marginalised out). Stratified folds, seed 1.');
log();
log(`## eHGDP: ${regions.N} individuals, ${regions.n} microsatellites, ${regions.classes.length} regions (10-fold CV)`);
log();
log("α is the Dirichlet pseudo-count per table cell: Laplace's 1, or 'auto' (the default of");
log('`stratify assign` and the app), chosen inside each training set by an inner 3-fold CV from');
log('0.01, 0.1, 0.5 and 1.');
log();
log('| classifier | parameters | α | accuracy (%) | log-loss | Oceania assigned correctly (of 30) |');
log('|---|---|---|---|---|---|');
const oceania = regions.classes.indexOf('OCEANIA');
for (const learning of ['generative', 'gradient', 'tm', 'acll'] as Learning[])
  for (const alpha of learning === 'acll' ? (['auto'] as const) : ([1, 'auto'] as const)) {
    const e = crossValidate(regions, { structure: 'nb', k: 2, learning, alpha }, 10, 1);
    const K = regions.classes.length;
    log(
      `| naive Bayes | ${learning} | ${learning === 'acll' ? '–' : alpha} | ${pct(e.accuracy)} | ${e.logLoss.toFixed(3)} | ${e.confusion[oceania * K + oceania]} |`,
    );
  }
log();
log('TAN, kDB and BCkG are not applicable to all 678 microsatellites: with genotype states in the');
log('hundreds, a parent makes the tables exceed the size limit (the classifier says so).');
log();
log("### Panels chosen inside each fold (naive Bayes, generative, α 'auto')");
log();
const curve = panelCurve(
  regions,
  ehgdp,
  [10, 25, 50, 100, 200],
  ['mi', 'fst', 'random'],
  { structure: 'nb', k: 2, learning: 'generative', alpha: 'auto' },
  10,
  1,
);
log(
  '| markers | MI accuracy (%) | F_ST accuracy (%) | random accuracy (%) | Wilcoxon p, MI vs random | Wilcoxon p, F_ST vs random |',
);
log('|---|---|---|---|---|---|');
for (const size of [10, 25, 50, 100, 200]) {
  const at = (m: string) => curve.points.find((p) => p.method === m && p.size === size)!;
  const p = (m: string) => curve.tests.find((t) => t.method === m && t.size === size)!.p.toPrecision(3);
  log(
    `| ${size} | ${pct(at('mi').accuracy)} | ${pct(at('fst').accuracy)} | ${pct(at('random').accuracy)} | ${p('mi')} | ${p('fst')} |`,
  );
}
log();
// eHGDP populations: allele against genotype variables, and the accuracy of every population.
const pops = categoricalFromGenotypes(ehgdp, 'population');
log(`## eHGDP: ${pops.classes.length} populations, allele against genotype variables (10-fold CV)`);
log();
log("Genotype variables: naive Bayes, α 'auto' (as above). Allele variables: naive Bayes over the");
log("copies (Rannala & Mountain's posterior predictive, prior 1/r per allele, equal population");
log('priors); its discriminative versions fit the same allele frequencies by the gradient on the');
log('conditional log-likelihood (L2 anchor 1 to the generative start, the default for allele');
log('variables) and by the TM algorithm. Seconds on this machine, one thread.');
log('More on allele variables (priors, simulations, exclusion): docs/allele-assignment.md.');
log();
log('| variables | parameters | accuracy (%) | log-loss | quality index (%) | s |');
log('|---|---|---|---|---|---|');
const popRuns = (
  [
    ['genotypes', 'generative'],
    ['alleles', 'generative'],
    ['alleles', 'gradient'],
    ['alleles', 'tm'],
  ] as const
).map(([variables, learning]) => {
  const t0 = performance.now();
  const a = assignIndividuals(ehgdp, {
    by: 'population',
    classifier: { structure: 'nb', k: 2, learning, alpha: variables === 'genotypes' ? 'auto' : 1 },
    folds: 10,
    seed: 1,
    variables,
    exclusionDraws: 0,
  });
  const seconds = (performance.now() - t0) / 1000;
  log(
    `| ${variables} | ${learning} | ${pct(a.evaluation.accuracy)} | ${a.evaluation.logLoss.toFixed(3)} | ${pct(a.qualityIndex)} | ${seconds.toFixed(1)} |`,
  );
  return a;
});
log();
log('Per population (10-fold CV; genotype variables against allele variables, generative):');
log();
log('| population | region | n | genotypes (%) | alleles (%) | alleles, mean own posterior |');
log('|---|---|---|---|---|---|');
const regionOf = new Map(ehgdp.individuals.map((ind) => [ind.population ?? '', ind.group ?? '']));
const byAccuracy = pops.classes
  .map((name, c) => ({ name, c, g: popRuns[0]!.perClass[c]!, a: popRuns[1]!.perClass[c]! }))
  .sort((x, y) => x.a.correct / x.a.n - y.a.correct / y.a.n || x.name.localeCompare(y.name));
for (const { name, g, a } of byAccuracy)
  log(
    `| ${name} | ${regionOf.get(name) ?? ''} | ${a.n} | ${pct(g.correct / g.n)} | ${pct(a.correct / a.n)} | ${a.meanOwnPosterior.toFixed(3)} |`,
  );
log();
/** Every structure × learning on a set of simulated datasets (5-fold CV, seed k + 1 for dataset k). */
function linkedTable(sims: readonly CategoricalData[], oracle?: readonly CategoricalData[]): void {
  const folds = (es: readonly Evaluation[]) => es.flatMap((e) => e.foldAccuracy);
  const run = (d: readonly CategoricalData[], structure: StructureKind, learning: Learning) =>
    d.map((x, k) => crossValidate(x, { structure, k: 2, learning, alpha: 1 }, 5, k + 1));
  const baseline = run(sims, 'nb', 'generative');
  log(
    `| classifier | parameters | accuracy (%), mean of ${sims.length} datasets | per dataset | log-loss | Δ accuracy vs NB generative (points) | Wilcoxon p, ${5 * sims.length} folds |`,
  );
  log('|---|---|---|---|---|---|---|');
  const row = (name: string, learning: string, es: readonly Evaluation[]) => {
    const acc = es.reduce((s, e) => s + e.accuracy, 0) / es.length;
    const base = baseline.reduce((s, e) => s + e.accuracy, 0) / baseline.length;
    const ll = es.reduce((s, e) => s + e.logLoss, 0) / es.length;
    const same = es === baseline;
    const p = same ? '' : wilcoxonSignedRank(folds(es), folds(baseline)).p.toPrecision(2);
    log(
      `| ${name} | ${learning} | ${pct(acc)} | ${es.map((e) => (100 * e.accuracy).toFixed(1)).join(' ')} | ${ll.toFixed(3)} | ${same ? '' : (100 * (acc - base)).toFixed(2)} | ${p} |`,
    );
  };
  for (const structure of ['nb', 'tan', 'kdb', 'bckg'] as StructureKind[])
    for (const learning of ['generative', 'gradient', 'tm'] as Learning[])
      row(
        structure,
        learning,
        structure === 'nb' && learning === 'generative' ? baseline : run(sims, structure, learning),
      );
  if (oracle) row('nb, first SNP of each block only', 'generative', run(oracle, 'nb', 'generative'));
}

const SEEDS = [1, 2, 3, 4, 5];
log(`## Simulated linked SNPs: haplotype blocks with population-specific haplotype frequencies`);
log();
log('3 populations × 80 individuals, 20 blocks of 2–8 SNPs (6 founder haplotypes per block,');
log('ancestral frequencies Dirichlet(1), population frequencies Dirichlet(anc · (1 − F)/F) with');
log('F = 0.05, 1% miscopied SNPs), unphased genotypes; seeds 1–5 (`haplotypeFrequencyBlocks` in');
log("tests/model/synthetic.ts). This is the usual picture of linkage disequilibrium: a block's");
log('population signal lies in its haplotypes, spread over its SNPs and their combinations.');
log();
linkedTable(
  SEEDS.map((seed) =>
    categoricalFromGenotypes(
      haplotypeFrequencyBlocks(seed, {
        pops: 3,
        perPop: 80,
        blocks: 20,
        minSize: 2,
        maxSize: 8,
        founders: 6,
        fst: 0.05,
        error: 0.01,
      }).data,
    ),
  ),
);
log();
log('## Simulated linked SNPs: copies along a chain (a degenerate case)');
log();
log('3 populations × 80 individuals, 20 blocks × 5 SNPs; only the first SNP of a block has');
log('population-specific frequencies (Balding–Nichols, F = 0.06); each later SNP copies the');
log('previous one on the same haplotype, flipped with probability 3% whatever the population');
log('(`haplotypeBlocks`); seeds 1–5. Given its predecessor a SNP carries no population');
log('information at all, so the Bayes classifier uses the first SNP of each block only (last row).');
log();
const chains = SEEDS.map(
  (seed) => haplotypeBlocks(seed, { pops: 3, perPop: 80, blocks: 20, size: 5, flip: 0.03, fst: 0.06 }).data,
);
linkedTable(
  chains.map((d) => categoricalFromGenotypes(d)),
  chains.map((d) =>
    categoricalFromGenotypes(
      subsetData(
        d,
        range(20).map((b) => 5 * b),
        range(d.individuals.length),
      ),
    ),
  ),
);
console.log(out.join('\n'));
