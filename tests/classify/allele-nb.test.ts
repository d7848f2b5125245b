import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  alleleCounts,
  alleleModel,
  allelePosteriors,
  exclusionProbabilities,
  leaveOneOutPosteriors,
} from '../../engine/classify/allele-nb.ts';
import { categoricalFromGenotypes } from '../../engine/classify/categorical.ts';
import { assignIndividuals } from '../../engine/service/assign.ts';
import { createRng } from '../../engine/util/rng.ts';
import { bayesOptimalAccuracy, makeData, multiAllelicPopulations } from '../model/synthetic.ts';
import type { GenotypeData } from '../../engine/data/genotype-data.ts';

const NB = { structure: 'nb', k: 2, learning: 'generative', alpha: 'auto' } as const;

/** Two populations, two diploid loci (3 and 2 alleles), one missing copy, one unlabelled individual. */
function tiny(): GenotypeData {
  // calls[l][i] = [copy0, copy1]
  const calls = [
    [
      [0, 0],
      [0, 1],
      [1, 2],
      [2, 2],
      [0, -1],
    ],
    [
      [0, 1],
      [0, 0],
      [1, 1],
      [1, 0],
      [1, 1],
    ],
  ];
  return makeData(5, 2, 2, [3, 2], (l, i, p) => calls[l]![i]![p]!, ['A', 'A', 'B', 'B', '']);
}

test('allele naive Bayes: posteriors equal the Rannala–Mountain formula computed by hand', () => {
  const data = tiny();
  const cat = categoricalFromGenotypes(data);
  const m = alleleModel(alleleCounts(data, cat.labels, 2, [0, 1, 2, 3, 4]), 1, 2);
  const post = allelePosteriors(data, m, [4]);
  // Individual 4: locus 0 copy allele 0 (the other missing), locus 1 alleles 1, 1 (homozygote).
  // A: locus 0 counts (3, 1, 0), r = 3, α = counts + 1/3, Σα = 5: p = (3 + 1/3)/5;
  //    locus 1 counts (3, 1), α = counts + 1/2, Σα = 5: p(1, 1) = α1(α1 + 1)/(5·6) = 1.5·2.5/30.
  // B: locus 0 counts (0, 1, 3): p = (1/3)/5; locus 1 counts (1, 3): p(1, 1) = 3.5·4.5/30.
  const pA = ((3 + 1 / 3) / 5) * ((1.5 * 2.5) / 30);
  const pB = (1 / 3 / 5) * ((3.5 * 4.5) / 30);
  assert.ok(Math.abs(post[0]! - pA / (pA + pB)) < 1e-12, `${post[0]} vs ${pA / (pA + pB)}`);
  assert.ok(Math.abs(post[1]! - pB / (pA + pB)) < 1e-12);
  // Laplace: 1 per allele.
  const lap = alleleModel(alleleCounts(data, cat.labels, 2, [0, 1, 2, 3, 4]), 'laplace', 2);
  const qA = (4 / 7) * ((2 * 3) / (6 * 7));
  const qB = (1 / 7) * ((4 * 5) / (6 * 7));
  assert.ok(Math.abs(allelePosteriors(data, lap, [4])[0]! - qA / (qA + qB)) < 1e-12);
});

test('self-assignment: leave-one-out posteriors equal a refit without each individual', () => {
  const { data } = multiAllelicPopulations(3, {
    pops: 4,
    perPop: 12,
    loci: 8,
    minAlleles: 3,
    maxAlleles: 9,
    fst: 0.05,
  });
  // some missing copies
  for (let j = 0; j < data.calls.length; j += 37) (data.calls as Int16Array)[j] = -1;
  const cat = categoricalFromGenotypes(data);
  const rows = Array.from({ length: cat.N }, (_, i) => i);
  for (const prior of [1, 0.3, 'laplace'] as const) {
    const fast = leaveOneOutPosteriors(data, cat.labels, alleleCounts(data, cat.labels, 4, rows), prior, rows);
    for (const i of rows) {
      const refit = alleleModel(
        alleleCounts(
          data,
          cat.labels,
          4,
          rows.filter((r) => r !== i),
        ),
        prior,
        2,
      );
      const brute = allelePosteriors(data, refit, [i]);
      for (let c = 0; c < 4; c++) assert.ok(Math.abs(fast[i * 4 + c]! - brute[c]!) < 1e-10, `individual ${i}`);
    }
  }
  const a = assignIndividuals(data, { by: 'population', classifier: NB, folds: 'loo', seed: 1, variables: 'alleles' });
  assert.equal(a.folds, cat.N);
  const correct = a.perClass.reduce((s, c) => s + c.correct, 0);
  assert.ok(Math.abs(a.evaluation.accuracy - correct / cat.N) < 1e-12);
  assert.ok(a.qualityIndex > 0 && a.qualityIndex <= 1);
});

test('allele naive Bayes on 15 simulated populations (30 loci, 10–20 alleles): within 1 point of the Bayes-optimal accuracy at F_ST 0.1, far above genotype variables at F_ST 0.02', () => {
  const strong = multiAllelicPopulations(1, {
    pops: 15,
    perPop: 50,
    loci: 30,
    minAlleles: 10,
    maxAlleles: 20,
    fst: 0.1,
  });
  const a = assignIndividuals(strong.data, { by: 'population', classifier: NB, folds: 10, seed: 1 });
  assert.equal(a.variables, 'alleles', 'auto chooses alleles for multi-allelic markers');
  assert.ok(
    a.evaluation.accuracy >= bayesOptimalAccuracy(strong.data, strong.freqs, 50) - 0.01,
    `${a.evaluation.accuracy}`,
  );
  const weak = multiAllelicPopulations(1, {
    pops: 15,
    perPop: 100,
    loci: 30,
    minAlleles: 10,
    maxAlleles: 20,
    fst: 0.02,
  });
  const alleles = assignIndividuals(weak.data, { by: 'population', classifier: NB, folds: 10, seed: 1 });
  const genotypes = assignIndividuals(weak.data, {
    by: 'population',
    classifier: NB,
    folds: 10,
    seed: 1,
    variables: 'genotypes',
  });
  const optimum = bayesOptimalAccuracy(weak.data, weak.freqs, 100);
  assert.ok(optimum > 0.9 && optimum < 0.99, `Bayes-optimal ${optimum}`);
  assert.ok(alleles.evaluation.accuracy > genotypes.evaluation.accuracy + 0.15);
  assert.ok(alleles.evaluation.accuracy > optimum - 0.12);
});

test('auto variables: genotypes for SNPs; allele variables refuse TAN with a message', () => {
  const snp = makeData(
    40,
    5,
    2,
    [2, 2, 2, 2, 2],
    (l, i, p) => (i * 7 + l * 3 + p) % 2,
    Array.from({ length: 40 }, (_, i) => (i < 20 ? 'A' : 'B')),
  );
  assert.equal(assignIndividuals(snp, { by: 'population', classifier: NB, folds: 4, seed: 1 }).variables, 'genotypes');
  const { data } = multiAllelicPopulations(2, { pops: 3, perPop: 10, loci: 5, minAlleles: 5, maxAlleles: 8, fst: 0.1 });
  assert.throws(
    () =>
      assignIndividuals(data, {
        by: 'population',
        classifier: { ...NB, structure: 'tan' },
        folds: 3,
        seed: 1,
        variables: 'alleles',
      }),
    /allele variables are for naive Bayes.*--variables genotypes/,
  );
  const tan = assignIndividuals(data, { by: 'population', classifier: { ...NB, structure: 'tan' }, folds: 3, seed: 1 });
  assert.equal(tan.variables, 'genotypes');
  assert.match(tan.variablesReason, /tan with generative learning works on genotype variables/);
});

test('exclusion: the Monte Carlo probability matches the exact one on one locus, flags individuals of an unsampled population and spares those of sampled ones', () => {
  // One diploid locus, 3 alleles, population A with known counts: exact P(genotype prob ≤ observed).
  const data = tiny();
  const cat = categoricalFromGenotypes(data);
  const one: GenotypeData = { ...data, loci: [data.loci[0]!], calls: data.calls.slice(0, 5 * 2) };
  const m = alleleModel(alleleCounts(one, cat.labels, 2, [0, 1, 2, 3]), 1, 2);
  // Population A's posterior Dirichlet at locus 0: counts (3, 1, 0) + 1/3 each, Σ = 5; the
  // predictive of a genotype: aa α_a(α_a + 1)/30, ab 2 α_a α_b / 30.
  const al = [3 + 1 / 3, 1 + 1 / 3, 1 / 3];
  const geno: number[] = [];
  for (let a = 0; a < 3; a++)
    for (let b = a; b < 3; b++) geno.push(a === b ? (al[a]! * (al[a]! + 1)) / 30 : (2 * al[a]! * al[b]!) / 30);
  assert.ok(Math.abs(geno.reduce((x, y) => x + y, 0) - 1) < 1e-12);
  // individual 3 is (2, 2)
  const obs = (al[2]! * (al[2]! + 1)) / 30;
  const exact = geno.filter((g) => g <= obs + 1e-15).reduce((s, g) => s + g, 0);
  const mc = exclusionProbabilities(one, m, [3], 40000, createRng(5));
  assert.ok(Math.abs(mc[0]! - exact) < 0.01, `${mc[0]} vs exact ${exact}`);

  // Data that follow the model: 12 populations, each with frequencies Dirichlet(1) at 12 loci of 4
  // alleles (so Laplace's prior is the true one and the predictive exact); train on 10, keep 15
  // individuals of each as unknowns, and the 2 others as outsiders.
  const rng = createRng(11);
  const freqs = Array.from({ length: 12 }, () =>
    Array.from({ length: 12 }, () => {
      const x = Array.from({ length: 4 }, () => rng.exponential());
      const t = x.reduce((u, v) => u + v, 0);
      return x.map((v) => v / t);
    }),
  );
  const perPop = 40;
  const calls: number[] = [];
  for (let l = 0; l < 12; l++)
    for (let i = 0; i < 12 * perPop; i++)
      for (let p = 0; p < 2; p++) {
        let u = rng.uniform();
        let a = 0;
        while (a < 3 && (u -= freqs[Math.floor(i / perPop)]![l]![a]!) >= 0) a++;
        calls.push(a);
      }
  const sim = makeData(
    12 * perPop,
    12,
    2,
    Array(12).fill(4),
    (l, i, p) => calls[(l * 12 * perPop + i) * 2 + p]!,
    Array.from({ length: 12 * perPop }, (_, i) => {
      const pop = Math.floor(i / perPop);
      return pop >= 10 || i % perPop < 15 ? '' : `p${pop}`;
    }),
  );
  const a = assignIndividuals(sim, {
    by: 'population',
    classifier: NB,
    folds: 5,
    seed: 1,
    allelePrior: 'laplace',
    exclusionDraws: 2000,
  });
  const ex = a.exclusion!;
  const K = a.data.classes.length;
  assert.equal(K, 10);
  let outsidersExcluded = 0;
  let outsiders = 0;
  let ownExcluded = 0;
  let insiders = 0;
  a.unlabelled.forEach((r, u) => {
    const pop = Math.floor(r / perPop);
    const row = Array.from({ length: K }, (_, c) => ex[u * K + c]!);
    if (pop >= 10) {
      outsiders++;
      if (row.every((p) => p < 0.05)) outsidersExcluded++;
    } else {
      insiders++;
      if (row[a.data.classes.indexOf(`p${pop}`)]! < 0.05) ownExcluded++;
    }
  });
  assert.equal(outsiders, 2 * perPop);
  assert.equal(insiders, 150);
  // Calibrated: about 5 % of the own population's individuals below 0.05 (binomial(150, 0.05): 7.5 ± 2.7).
  assert.ok(ownExcluded >= 1 && ownExcluded <= 16, `own population excluded ${ownExcluded}/${insiders}`);
  assert.ok(outsidersExcluded / outsiders >= 0.5, `outsiders excluded ${outsidersExcluded}/${outsiders}`);
});
