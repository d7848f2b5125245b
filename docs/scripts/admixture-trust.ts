// Projection onto a fitted reference, measured as users run it (the CLI with default options):
// fit the admixture model on a random 80 % of individuals, `stratify project` the other 20 %, and
// compare with the same individuals' ancestry in a joint fit of everyone (eHGDP, K = 3..5) and
// with the true ancestry of simulated SNP data.
// Usage: node --import tsx docs/scripts/admixture-trust.ts [--threads 2] > docs/admixture-trust.md
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDataset, subsetData, type GenotypeData } from '../../engine/index.ts';
import { toText, writeStructure, writeVcf } from '../../engine/formats/writers.ts';
import { datasetFiles, fileSource } from '../../engine/node/file-source.ts';
import { alignToReference, permuteColumns } from '../../engine/model/align.ts';
import { createRng } from '../../engine/util/rng.ts';
import { admixedData, shuffle } from '../../tests/model/synthetic.ts';
import { dataPath } from '../../data/datasets.ts';
import { scriptNumber } from '../../bench/args.ts';
import { madeAt } from '../../bench/made-at.ts';
import { stratify } from '../../bench/stratify-cli.ts';
import { alleleOffsets } from '../../engine/data/genotype-data.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { admixtureWork } from '../../engine/model/admixture/admixture.ts';
import { admixtureFitSteps } from '../../engine/model/admixture/admixture-fit.ts';
import { admixtureFitOptions } from '../../engine/model/admixture/admixture-start.ts';
import { runToEnd } from '../../engine/model/mixture/fit.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';

const threads = scriptNumber('--threads', 2);
/** Starts per fit: the default (100) takes minutes per K on eHGDP; ADMIXTURE users run about 10 seeds. */
const starts = scriptNumber('--starts', 10);
const dir = mkdtempSync(join(tmpdir(), 'stratify-trust-'));
const out: string[] = [];
const log = (s = '') => out.push(s);

/** `stratify run FILE --model admixture --k K --replicates 1` with the given starts (and options), into `out`. */
function fitAdmixture(file: string, k: string, out: string, fitStarts = starts, ...more: string[]) {
  const args = ['--model', 'admixture', '--k', k, '--starts', String(fitStarts), '--replicates', '1'];
  return stratify('run', file, ...args, ...more, '--threads', String(threads), '--out', out);
}

/** `stratify project FILE --reference REFERENCE` (defaults, and `more` options) into `out` in the folder. */
function project(file: string, reference: string, out: string, ...more: string[]) {
  return stratify('project', file, '--reference', reference, ...more, '--out', join(dir, out));
}

/** The 80 / 20 split of individuals (seeded). */
function split(N: number, seed: number): { train: number[]; test: number[] } {
  const order = shuffle(
    Array.from({ length: N }, (_, i) => i),
    createRng(seed),
  );
  const cut = Math.round(0.8 * N);
  return { train: order.slice(0, cut).sort((a, b) => a - b), test: order.slice(cut).sort((a, b) => a - b) };
}

interface RunJson {
  K: number;
  logLik: number;
  Q: number[][];
  frequencies: number[][];
}

/** The run at K with the highest ln L in a stratify.json. */
function bestRun(file: string, K: number): RunJson {
  const runs = (JSON.parse(readFileSync(file, 'utf8')) as { runs: RunJson[] }).runs.filter((r) => r.K === K);
  return runs.reduce((a, b) => (b.logLik > a.logLik ? b : a));
}

/** Q of the run at K with the highest ln L in a stratify.json. */
function bestQ(file: string, K: number): Float64Array {
  return Float64Array.from(bestRun(file, K).Q.flat());
}

function projectedQ(file: string): Float64Array {
  const json = JSON.parse(readFileSync(file, 'utf8')) as { individuals: { Q: number[] }[] };
  return Float64Array.from(json.individuals.flatMap((i) => i.Q));
}

/** RMSE of Q against a reference after matching clusters by membership overlap. */
function rmse(reference: Float64Array, q: Float64Array, N: number, K: number): number {
  const aligned = permuteColumns(q, N, K, alignToReference(reference, q, N, K));
  let ss = 0;
  for (let x = 0; x < aligned.length; x++) ss += (aligned[x]! - reference[x]!) ** 2;
  return Math.sqrt(ss / aligned.length);
}

function rowsOf(Q: Float64Array, rows: readonly number[], K: number): Float64Array {
  const out = new Float64Array(rows.length * K);
  rows.forEach((r, i) => out.set(Q.subarray(r * K, (r + 1) * K), i * K));
  return out;
}

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

log('# Ancestry users can trust: projection onto a fitted reference');
log();
log(madeAt());
log();
log(
  'Command: `node --import tsx docs/scripts/admixture-trust.ts > docs/admixture-trust.md`. Every fit and ' +
    `projection is the command line: \`stratify run FILE --model admixture --k K --starts ${starts} --replicates 1\` ` +
    '(otherwise defaults; the default 100 starts × 10 replicates take minutes per K on eHGDP) and ' +
    '`stratify project FILE --reference stratify.json --k K` (defaults), reading files and writing results; seconds are wall-clock ' +
    `of one command, ${threads} threads for the fits.`,
);

// eHGDP: train on 80 %, project 20 %, against a joint fit of everyone.
const eh = await readDataset(datasetFiles(dataPath('eHGDP.str.gz')), {
  populations: fileSource(dataPath('eHGDP.labels.tsv')),
});
const ehSplit = split(eh.individuals.length, 2026);
const all = (d: GenotypeData) => Array.from({ length: d.loci.length }, (_, l) => l);
const ehAll = write('ehgdp-all.str', toText(writeStructure(eh)));
const ehTrain = write('ehgdp-train.str', toText(writeStructure(subsetData(eh, all(eh), ehSplit.train))));
const ehTest = write('ehgdp-test.str', toText(writeStructure(subsetData(eh, all(eh), ehSplit.test))));
const ks = [3, 4, 5];
const kArg = `${ks[0]}..${ks.at(-1)}`;
const joint = fitAdmixture(ehAll, kArg, join(dir, 'eh-joint'));
const trained = fitAdmixture(ehTrain, kArg, join(dir, 'eh-train'));
log();
log(`## eHGDP (${eh.individuals.length} individuals, ${eh.loci.length} microsatellites)`);
log();
log(
  `Fitted on ${ehSplit.train.length} individuals (seeded 80 %: ${trained.seconds.toFixed(1)} s for K = ${kArg}), ` +
    `${ehSplit.test.length} projected; the joint fit of all ${eh.individuals.length} took ${joint.seconds.toFixed(1)} s. ` +
    "RMSE of the projected Q against the same individuals' Q in the joint fit, clusters matched by overlap (the bound: ≤ 0.02).",
);
log();
log(
  "| K | RMSE projected vs joint (default: each individual's own copies in its frequencies, prior ½) | the same with the fitted frequencies (`--frequency-prior 0`, ADMIXTURE's -P) | the fitted 80 %: train fit vs joint (how far the two fits differ) | `stratify project` (s) | per projected individual (ms) | markers used |",
);
log('|---|---|---|---|---|---|---|');
/** Train and joint fits further apart than this (RMSE) are taken to be different optima. */
const DIFFERENT_FITS = 0.05;
const differing: number[] = [];
/** Per K: the default projection's RMSE against the joint fit, and its time per individual (ms). */
const ehDefault = new Map<number, { rmse: number; perIndividual: number }>();
for (const K of ks) {
  const reference = join(dir, 'eh-train', 'stratify.json');
  const p = project(ehTest, reference, `eh-p${K}`, '--k', String(K));
  project(ehTest, reference, `eh-p${K}-fitted`, '--k', String(K), '--frequency-prior', '0');
  const jointQ = rowsOf(bestQ(join(dir, 'eh-joint', 'stratify.json'), K), ehSplit.test, K);
  const e = rmse(jointQ, projectedQ(join(dir, `eh-p${K}`, 'projection.json')), ehSplit.test.length, K);
  const e0 = rmse(jointQ, projectedQ(join(dir, `eh-p${K}-fitted`, 'projection.json')), ehSplit.test.length, K);
  const jointTrain = rowsOf(bestQ(join(dir, 'eh-joint', 'stratify.json'), K), ehSplit.train, K);
  const fits = rmse(jointTrain, bestQ(join(dir, 'eh-train', 'stratify.json'), K), ehSplit.train.length, K);
  if (fits > DIFFERENT_FITS) differing.push(K);
  ehDefault.set(K, { rmse: e, perIndividual: (1000 * p.seconds) / ehSplit.test.length });
  const used = /(\d+) of the reference's (\d+) markers used/.exec(p.stdout);
  log(
    `| ${K} | ${e.toFixed(4)} | ${e0.toFixed(4)} | ${fits.toFixed(4)} | ${p.seconds.toFixed(2)} | ${((1000 * p.seconds) / ehSplit.test.length).toFixed(1)} | ${used ? `${used[1]} of ${used[2]}` : '?'} |`,
  );
}

/**
 * Where the 80 % fit and the joint fit end in different optima, the joint fit continued from the
 * 80 % fit's optimum (its Q for its individuals, the projected Q for the others, its frequencies
 * matched by allele name; the engine's default fit options) stays in that optimum: the projection
 * is then compared with the joint fit of its own optimum.
 */
function sameOptimumJointFit(K: number): { Q: Float64Array; logLik: number } {
  const file = join(dir, 'eh-train', 'stratify.json');
  const json = JSON.parse(readFileSync(file, 'utf8')) as { dataset: { loci: { alleles: string[] }[] } };
  const run = bestRun(file, K);
  const offsets = alleleOffsets(eh);
  const F = new Float64Array(offsets[eh.loci.length]! * K).fill(1e-6);
  let row = 0;
  json.dataset.loci.forEach((locus, l) => {
    for (const allele of locus.alleles) {
      const a = eh.loci[l]!.alleles.indexOf(allele);
      for (let k = 0; k < K; k++) F[(offsets[l]! + a) * K + k] = run.frequencies[row]![k]!;
      row++;
    }
    for (let k = 0; k < K; k++) {
      let sum = 0;
      for (let r = offsets[l]!; r < offsets[l + 1]!; r++) sum += F[r * K + k]!;
      for (let r = offsets[l]!; r < offsets[l + 1]!; r++) F[r * K + k]! /= sum;
    }
  });
  const Q = new Float64Array(eh.individuals.length * K);
  ehSplit.train.forEach((i, t) => Q.set(run.Q[t]!, i * K));
  const projected = projectedQ(join(dir, `eh-p${K}-fitted`, 'projection.json'));
  ehSplit.test.forEach((i, t) => Q.set(projected.subarray(t * K, (t + 1) * K), i * K));
  const md = buildPreparedData(eh);
  const fit = runToEnd(
    admixtureFitSteps(md, admixtureWork(md), { K, Q, F }, admixtureFitOptions({ ...DEFAULT_FIT, model: 'admixture' })),
  );
  return { Q: fit.params.Q, logLik: fit.logLik };
}

/** Per K where the fits differ: the default projection against the joint fit of the 80 % fit's optimum, and that optimum's ln L below the best. */
const sameOptimum = new Map<number, { rmse: number; gap: number }>();
if (differing.length > 0) {
  log();
  log(
    `At K = ${differing.join(', ')} the two fits ended in different optima. The joint fit continued from the 80 % fit's optimum ` +
      "(its Q and frequencies, the projected individuals' Q; default fit options, engine call) stays there; against it:",
  );
  log();
  log(
    "| K | ln L of the joint fit in the 80 % fit's optimum | the joint fit's best (100 % of individuals) | RMSE projected vs that joint fit (default) | with the fitted frequencies | the fitted 80 %: train fit vs that joint fit |",
  );
  log('|---|---|---|---|---|---|');
  for (const K of differing) {
    const same = sameOptimumJointFit(K);
    const best = bestRun(join(dir, 'eh-joint', 'stratify.json'), K).logLik;
    const test = rowsOf(same.Q, ehSplit.test, K);
    const n = ehSplit.test.length;
    sameOptimum.set(K, {
      rmse: rmse(test, projectedQ(join(dir, `eh-p${K}`, 'projection.json')), n, K),
      gap: best - same.logLik,
    });
    log(
      `| ${K} | ${same.logLik.toFixed(2)} | ${best.toFixed(2)} | ` +
        `${rmse(test, projectedQ(join(dir, `eh-p${K}`, 'projection.json')), n, K).toFixed(4)} | ` +
        `${rmse(test, projectedQ(join(dir, `eh-p${K}-fitted`, 'projection.json')), n, K).toFixed(4)} | ` +
        `${rmse(rowsOf(same.Q, ehSplit.train, K), bestQ(join(dir, 'eh-train', 'stratify.json'), K), ehSplit.train.length, K).toFixed(4)} |`,
    );
  }
}

// Simulated SNPs: against the truth, three simulations (one 200-individual draw's RMSE varies by
// about ±0.001).
const K = 3;
/** Starts of the simulated fits (K = 3 SNPs have one optimum; ADMIXTURE users run about 10 seeds). */
const simStarts = scriptNumber('--sim-starts', 10);
const simSeeds = [7, 8, 9];
log();
log(
  `## Simulated SNPs (${simSeeds.length} simulations of 1,000 individuals, 10,000 unlinked SNPs, K = 3, F_ST 0.1, Dirichlet(0.5) ancestry)`,
);
log();
log(
  `Each fitted on 800 individuals (\`--starts ${simStarts}\`), 200 projected. ` +
    'RMSE against the true ancestry, clusters matched by overlap (the bound: ≤ 0.02).',
);
log();
log(
  '| simulation (seed) | projected, default (own copies, prior ½) | projected with the fitted frequencies (`--frequency-prior 0`) | fitted individuals, for comparison | fit (s) | `stratify project` (s) |',
);
log('|---|---|---|---|---|---|');
const simMeans = [0, 0, 0];
const simErrors: number[] = [];
let simPerIndividual = 0;
for (const seed of simSeeds) {
  const sim = admixedData(seed, { N: 1000, L: 10_000, K, alpha: 0.5, fst: 0.1 });
  const simData: GenotypeData = {
    ...sim.data,
    loci: sim.data.loci.map((l, k) => ({ ...l, chrom: '1', pos: 1000 * (k + 1), alleles: ['A', 'G'] })),
  };
  const simSplit = split(simData.individuals.length, seed);
  const simTrain = write(`sim${seed}-train.vcf`, toText(writeVcf(subsetData(simData, all(simData), simSplit.train))));
  const simTest = write(`sim${seed}-test.vcf`, toText(writeVcf(subsetData(simData, all(simData), simSplit.test))));
  const fitDir = join(dir, `sim${seed}-train`);
  const simFit = fitAdmixture(simTrain, String(K), fitDir, simStarts);
  const reference = join(fitDir, 'stratify.json');
  const simP = project(simTest, reference, `sim${seed}-p`);
  project(simTest, reference, `sim${seed}-p-fitted`, '--frequency-prior', '0');
  const truth = rowsOf(sim.Q, simSplit.test, K);
  const n = simSplit.test.length;
  const errors = [
    rmse(truth, projectedQ(join(dir, `sim${seed}-p`, 'projection.json')), n, K),
    rmse(truth, projectedQ(join(dir, `sim${seed}-p-fitted`, 'projection.json')), n, K),
    rmse(rowsOf(sim.Q, simSplit.train, K), bestQ(reference, K), simSplit.train.length, K),
  ];
  errors.forEach((e, j) => (simMeans[j]! += e / simSeeds.length));
  simErrors.push(errors[0]!);
  simPerIndividual += (1000 * simP.seconds) / simSplit.test.length / simSeeds.length;
  log(
    `| ${seed} | ${errors.map((e) => e.toFixed(4)).join(' | ')} | ${simFit.seconds.toFixed(1)} | ${simP.seconds.toFixed(2)} |`,
  );
}
log(`| mean | ${simMeans.map((e) => e.toFixed(4)).join(' | ')} | | |`);

// Bootstrap: coverage of the true ancestry by `--bootstrap`'s 95 % intervals, on unlinked SNPs and
// on SNPs in perfect linkage (blocks of 10 copies of one SNP), resampled as single markers (a file
// without positions) and in genome windows (a VCF).
const B = scriptNumber('--bootstrap', 50);
interface BootstrapJson {
  runs: {
    K: number;
    Q: number[][];
    bootstrap: { lower: number[][]; upper: number[][]; se: number[][]; resampled: string };
  }[];
}
function coverage(
  file: string,
  truth: Float64Array,
  skip: number,
): { covered: number; se: number; error: number; resampled: string } {
  const run = (JSON.parse(readFileSync(file, 'utf8')) as BootstrapJson).runs[0]!;
  const n = run.Q.length;
  const Qhat = Float64Array.from(run.Q.flat());
  const perm = alignToReference(truth, Qhat, n, K);
  let covered = 0;
  let count = 0;
  let se = 0;
  let error = 0;
  for (let i = skip; i < n; i++)
    for (let c = 0; c < K; c++) {
      const t = truth[i * K + c]!;
      if (t < 0.05 || t > 0.95) continue;
      const from = perm[c]!; // truth's cluster c is the estimate's perm[c]
      count++;
      if (run.bootstrap.lower[i]![from]! <= t && t <= run.bootstrap.upper[i]![from]!) covered++;
      se += run.bootstrap.se[i]![from]! ** 2;
      error += (run.Q[i]![from]! - t) ** 2;
    }
  return {
    covered: covered / count,
    se: Math.sqrt(se / count),
    error: Math.sqrt(error / count),
    resampled: run.bootstrap.resampled,
  };
}
const boot = admixedData(11, { N: 300, L: 2000, K, alpha: 1, fst: 0.1, references: 30 });
const linkedBlock = 10;
const linked = subsetData(
  boot.data,
  Array.from({ length: 2000 }, (_, l) => Math.floor(l / linkedBlock)),
  Array.from({ length: 300 }, (_, i) => i),
);
const withPositions = (d: GenotypeData): GenotypeData => ({
  ...d,
  loci: d.loci.map((l, k) => ({ ...l, name: `snp${k + 1}`, chrom: '1', pos: 1000 * (k + 1), alleles: ['A', 'G'] })),
});
const cases = [
  {
    name: 'unlinked SNPs, single markers',
    file: write('boot-unlinked.str', toText(writeStructure(withPositions(boot.data)))),
  },
  {
    name: `linked SNPs (blocks of ${linkedBlock} identical), single markers`,
    file: write('boot-linked.str', toText(writeStructure(withPositions(linked)))),
  },
  {
    name: `linked SNPs (blocks of ${linkedBlock} identical), genome windows`,
    file: write('boot-linked.vcf', toText(writeVcf(withPositions(linked)))),
  },
];
log();
log(`## Bootstrap intervals (\`stratify run … --model admixture --k ${K} --bootstrap ${B}\`)`);
log();
log(
  `Simulated: ${boot.data.individuals.length} individuals (30 unadmixed, the rest Dirichlet(1)), 2,000 SNPs, K = ${K}, F_ST 0.1. ` +
    'Coverage: the share of true proportions (those between 0.05 and 0.95) inside the 95 % interval (the aim: 90–98 %); ' +
    'RMS standard error beside the RMS actual error of the estimate. The linked data repeat each of 200 SNPs 10 times in a row ' +
    '(the same information as 200 SNPs): a STRUCTURE file has no positions, so single markers are resampled; the VCF has them, so genome windows are.',
);
log();
log('| data, resampling | coverage of 95 % intervals | RMS standard error | RMS actual error | seconds |');
log('|---|---|---|---|---|');
for (const c of cases) {
  const dirOut = join(dir, `boot-${cases.indexOf(c)}`);
  const r = fitAdmixture(c.file, String(K), dirOut, 3, '--bootstrap', String(B));
  const cov = coverage(join(dirOut, 'stratify.json'), boot.Q, 30);
  log(
    `| ${c.name} (${cov.resampled}) | ${(100 * cov.covered).toFixed(1)} % | ${cov.se.toFixed(4)} | ${cov.error.toFixed(4)} | ${r.seconds.toFixed(1)} |`,
  );
}

// What the tables say (the figures from this run).
const f4 = (x: number) => x.toFixed(4);
const within = [...ehDefault].filter(([K]) => !differing.includes(K));
log();
log('## Reading these numbers');
log();
log(
  "- Projection scores each new individual as if it alone had joined the reference's fit, with the reference's ancestry held: " +
    "the frequencies it is scored with hold the reference's allele copies of each cluster (n_k = ploidy × Σ q_ik at its fitted " +
    "frequencies), the individual's own copies (their ancestry estimated with its q) and a Dirichlet prior of ½ per allele " +
    "(docs/algorithms.md §16). With the fitted frequencies as they are (ADMIXTURE's -P, `--frequency-prior 0`) an allele the " +
    "reference's copies of a cluster happen to lack scores as impossible there and pushes a carrier out of it, and the " +
    'individual misses the pull its own copies exert on the frequencies in a fit (fitted individuals are nearer their true ' +
    'ancestry than projected ones: the in-sample advantage).',
);
log(
  `- eHGDP: ${within.map(([K, v]) => `${f4(v.rmse)} at K = ${K}`).join(', ')} from the joint fit` +
    (sameOptimum.size > 0
      ? `; at K = ${[...sameOptimum.keys()].join(', ')} the 80 % fit and the joint fit end in different optima (the 80 % fit's ` +
        `${[...sameOptimum.values()].map((v) => v.gap.toFixed(0)).join(', ')} ln L units below the joint best on all individuals), ` +
        `and within the 80 % fit's optimum the projection is ${[...sameOptimum.values()].map((v) => f4(v.rmse)).join(', ')} from the joint fit`
      : '') +
    ` (the bound: 0.02). ${[...ehDefault.values()].map((v) => `${v.perIndividual.toFixed(1)} ms`).join(', ')} an individual at K = ${ks.join(', ')}, ` +
    'the command with reading the files included.',
);
log(
  `- Simulated SNPs: ${f4(simMeans[0]!)} from the true ancestry on average (${simErrors.map(f4).join(', ')}), against ` +
    `${f4(simMeans[1]!)} with the fitted frequencies and ${f4(simMeans[2]!)} for the individuals the reference was fitted on; ` +
    `${simPerIndividual.toFixed(0)} ms an individual (10,000 SNPs).`,
);
log(
  '- Bootstrap: on unlinked SNPs the 95 % intervals cover at about their level and the standard errors are the size of the ' +
    'actual errors. On linked SNPs, resampling single markers treats each copy of a block as new evidence: the standard ' +
    'errors are about half the actual errors and the intervals under-cover; resampling genome windows (what `--bootstrap` ' +
    'does when markers have positions) covers, on the conservative side.',
);
process.stdout.write(out.join('\n') + '\n');
