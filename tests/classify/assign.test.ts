// tier: slow — cross-validated classifiers on real data (run by npm test, not by npm run test:fast).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wilcoxonSignedRank } from '../../engine/util/rank-tests.ts';
import { appendIndividuals } from '../../engine/data/merge.ts';
import { readDataset } from '../../engine/index.ts';
import { datasetFiles, fileSource } from '../../engine/node/file-source.ts';
import { categoricalFromGenotypes } from '../../engine/classify/categorical.ts';
import { panelCurve } from '../../engine/classify/panel-curve.ts';
import { ROOT, genotype, parseText } from '../helpers.ts';
import { crossValidate, type ClassifierOptions } from '../../engine/classify/evaluate.ts';
import { haplotypeBlocks, haplotypeFrequencyBlocks } from '../model/synthetic.ts';
import { dataPath } from '../../data/datasets.ts';

test('Wilcoxon signed-rank: exact values (R: wilcox.test(paired = TRUE))', () => {
  // Differences 1..6 all positive: p = 2/64 = 0.03125.
  assert.ok(Math.abs(wilcoxonSignedRank([2, 3, 4, 5, 6, 7], [1, 1, 1, 1, 1, 1]).p - 0.03125) < 1e-12);
  // Differences −1, 2, 3: W+ = 5 of 6, P(W+ ≤ 1) = 2/8 → p = 0.5.
  assert.ok(Math.abs(wilcoxonSignedRank([0, 2, 3], [1, 0, 0]).p - 0.5) < 1e-12);
  assert.equal(wilcoxonSignedRank([1, 2], [1, 2]).p, 1);
});

test('appendIndividuals matches loci by name and alleles by their names', async () => {
  const a = await parseText('a.str', 'L1 L2\ni1 1 100 102 7 7\ni2 2 102 102 7 9\n');
  const b = await parseText('b.str', 'L2 L1\nu1 1 9 9 104 100\n');
  const m = appendIndividuals(a, b);
  assert.equal(m.individuals.length, 3);
  assert.equal(m.individuals[2]!.population, undefined, 'appended individuals are unlabelled');
  assert.deepEqual(genotype(m, 0, 2), ['100', '104']);
  assert.deepEqual(genotype(m, 1, 2), ['9', '9']);
  assert.ok(m.loci[0]!.alleles.includes('104'));
  assert.throws(() => appendIndividuals(a, a), /in both files/);
});

test('linked SNPs with population-specific haplotype frequencies: TAN-family and discriminative classifiers do no worse than naive Bayes', () => {
  const sims = [1, 2, 3, 4, 5].map((seed) =>
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
  );
  const mean = (o: Partial<ClassifierOptions>) => {
    const es = sims.map((d, k) =>
      crossValidate(d, { structure: 'nb', k: 2, learning: 'generative', alpha: 1, ...o }, 5, k + 1),
    );
    return {
      accuracy: es.reduce((s, e) => s + e.accuracy, 0) / es.length,
      logLoss: es.reduce((s, e) => s + e.logLoss, 0) / es.length,
    };
  };
  const nb = mean({});
  const results = {
    tan: mean({ structure: 'tan' }),
    bckg: mean({ structure: 'bckg' }),
    // L2 by inner CV (the default): a fixed 0.1 overfits on some draws (log-loss 0.717 against 0.657).
    'nb gradient': mean({ learning: 'gradient', l2: 'auto' }),
  };
  console.log(
    `haplotype-frequency blocks, 5 seeds: nb ${nb.accuracy.toFixed(4)} / ${nb.logLoss.toFixed(3)}; ${Object.entries(
      results,
    )
      .map(([k, r]) => `${k} ${r.accuracy.toFixed(4)} / ${r.logLoss.toFixed(3)}`)
      .join('; ')}`,
  );
  for (const [name, r] of Object.entries(results)) {
    // Accuracy within the noise of 1,200 paired predictions (sd of a difference ≈ 0.015); log-loss,
    // which sees every posterior, must improve outright.
    assert.ok(r.accuracy >= nb.accuracy - 0.02, `${name}: accuracy ${r.accuracy} against naive Bayes ${nb.accuracy}`);
    assert.ok(r.logLoss <= nb.logLoss, `${name}: log-loss ${r.logLoss} against naive Bayes ${nb.logLoss}`);
  }
});

test('panel curve on linked SNPs: informative panels beat random ones', () => {
  const { data } = haplotypeBlocks(5, { pops: 3, perPop: 50, blocks: 40, size: 3, flip: 0.05, fst: 0.08 });
  const d = categoricalFromGenotypes(data);
  const curve = panelCurve(
    d,
    data,
    [5, 20],
    ['mi', 'random'],
    { structure: 'nb', k: 2, learning: 'generative', alpha: 1 },
    5,
    1,
  );
  const at = (m: string, s: number) => curve.points.find((p) => p.method === m && p.size === s)!.accuracy;
  assert.ok(at('mi', 20) >= at('mi', 5) - 0.05);
  assert.ok(at('mi', 5) >= at('random', 5) - 0.05);
  assert.equal(curve.tests.length, 2);
});

test('stratify assign on nancycats: CV accuracy, confusion matrix, posteriors for an unknown file', () => {
  const out = mkdtempSync(join(tmpdir(), 'stratify-assign-'));
  // The first 20 cats of nancycats.str, relabelled as unknowns in a second file.
  const lines = readFileSync(dataPath('nancycats.str'), 'utf8').split('\n');
  const unknown = join(out, 'unknown.str');
  writeFileSync(unknown, [lines[0], ...lines.slice(1, 21).map((l) => l.replace(/^N/, 'U'))].join('\n') + '\n');
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'stratify.mjs'),
      'assign',
      dataPath('nancycats.str'),
      '--unknown',
      unknown,
      '--cv',
      '5',
      '--out',
      out,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /5-fold CV over 237 individuals, 9 markers, 17 classes: accuracy \d+\.\d+%/);
  const acc = Number(/accuracy (\d+\.\d+)%/.exec(r.stdout)![1]);
  assert.ok(acc > (100 / 17) * 2, `accuracy ${acc}% well above chance`);
  const confusion = readFileSync(join(out, 'confusion.tsv'), 'utf8').trim().split('\n');
  assert.equal(confusion.length, 18);
  const post = readFileSync(join(out, 'posteriors.tsv'), 'utf8').trim().split('\n');
  assert.equal(post.length, 21);
  assert.match(post[1]!, /^U215\tunknown file\t1\t/, 'the copy of a colony-1 cat is assigned to colony 1');
  // Microsatellites: allele variables by default; exclusion probabilities for the unknowns.
  assert.match(r.stdout, /^alleles variables \(markers have \d+\.\d alleles on average/);
  const header = post[0]!.split('\t');
  const u215 = post[1]!.split('\t');
  assert.equal(u215[header.indexOf('excluded_from_all')], 'no');
  assert.ok(Number(u215[header.indexOf('exclusion_p_1')]) >= 0.01, 'a copy of a colony-1 cat is not excluded from it');
  const perClass = readFileSync(join(out, 'per-class.tsv'), 'utf8').trim().split('\n');
  assert.equal(perClass.length, 18);
  const correct = perClass.slice(1).reduce((s, l) => s + Number(l.split('\t')[2]), 0);
  assert.ok(Math.abs(correct / 237 - acc / 100) < 1e-4, 'per-class counts add up to the accuracy');
  // Self-assignment by leave-one-out.
  const loo = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'stratify.mjs'), 'assign', dataPath('nancycats.str'), '--cv', 'loo', '--out', join(out, 'loo')],
    { encoding: 'utf8' },
  );
  assert.equal(loo.status, 0, loo.stderr);
  assert.match(
    loo.stdout,
    /leave-one-out over 237 individuals, 9 markers, 17 classes: accuracy \d+\.\d+%.*quality index/,
  );
  const json = JSON.parse(readFileSync(join(out, 'loo', 'assign.json'), 'utf8')) as {
    folds: number;
    leaveOneOut: boolean;
  };
  assert.equal(json.folds, 237);
  assert.equal(json.leaveOneOut, true);
  // Discriminative allele learning and the ACL score reach the CLI; a bad --l2 is refused.
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'bin', 'stratify.mjs'), 'assign', dataPath('nancycats.str'), ...args], {
      encoding: 'utf8',
    });
  const tm = cli('--learning', 'tm', '--cv', '5', '--out', join(out, 'tm'));
  assert.equal(tm.status, 0, tm.stderr);
  assert.match(tm.stdout, /^alleles variables/);
  const acl = cli('--classifier', 'kdb', '--score', 'acl-mid', '--cv', '3', '--out', join(out, 'acl'));
  assert.equal(acl.status, 0, acl.stderr);
  assert.match(acl.stdout, /^genotypes variables \(kdb with generative learning works on genotype variables\)/);
  const bad = cli('--learning', 'gradient', '--l2', 'much', '--out', join(out, 'bad'));
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /--l2/);
});

test("eHGDP regions: the pseudo-count chosen by inner CV ('auto') beats Laplace's 1 on genotype states, most of all for the smallest region", async () => {
  const data = await readDataset(datasetFiles(dataPath('eHGDP.str.gz')), {
    populations: fileSource(dataPath('eHGDP.labels.tsv')),
  });
  const d = categoricalFromGenotypes(data, 'group');
  const K = d.classes.length;
  const oceania = d.classes.indexOf('OCEANIA');
  const laplace = crossValidate(d, { structure: 'nb', k: 2, learning: 'generative', alpha: 1 }, 5, 1);
  const auto = crossValidate(d, { structure: 'nb', k: 2, learning: 'generative', alpha: 'auto' }, 5, 1);
  const recall = (e: typeof auto) => e.confusion[oceania * K + oceania]! / 30;
  console.log(
    `eHGDP regions, 5-fold NB: Laplace ${laplace.accuracy.toFixed(4)} / ${laplace.logLoss.toFixed(3)} (Oceania ${recall(laplace).toFixed(2)}), auto ${auto.accuracy.toFixed(4)} / ${auto.logLoss.toFixed(3)} (Oceania ${recall(auto).toFixed(2)})`,
  );
  assert.ok(auto.accuracy >= 0.95 && auto.accuracy > laplace.accuracy);
  assert.ok(auto.logLoss < laplace.logLoss);
  assert.ok(recall(auto) >= 0.9 && recall(laplace) < 0.5);
});

test('a structure search larger than the limit is refused before it starts, with its size and the ways out', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-assign-limit-'));
  const examples = join(ROOT, 'resources', 'examples');
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'stratify.mjs'),
      'assign',
      join(examples, 'snp-three-populations.vcf'),
      '--pops',
      join(examples, 'snp-three-populations.pops.tsv'),
      '--classifier',
      'bckg',
      '--cv',
      '5',
      '--max-search',
      '1000000',
      '--out',
      dir,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 1);
  // 400 markers: Σ_pos (1 + pos + C(pos, 2)) = 400 + 79,800 + 10,586,800 + the TAN's 160,000.
  assert.match(r.stderr, /BCkG with k = 2 on 400 markers evaluates up to 10,827,000 local scores a search/);
  assert.match(
    r.stderr,
    /choose a lower k, kDB, a marker panel \(stratify select\), or raise the limit \(stratify assign --max-search\)/,
  );
  assert.doesNotMatch(r.stdout, /accuracy/);
});

test('folds on worker threads: the same assignment, bit for bit, with the searches’ progress summed to the total', async () => {
  const { assignIndividuals, assignIndividualsOn } = await import('../../engine/service/assign.ts');
  const { nodeStartPool } = await import('../../engine/node/worker-pool.ts');
  const { subsetData, range } = await import('../../engine/data/genotype-data.ts');
  const examples = join(ROOT, 'resources', 'examples');
  const full = await readDataset(datasetFiles(join(examples, 'snp-three-populations.vcf')), {
    populations: fileSource(join(examples, 'snp-three-populations.pops.tsv')),
  });
  // 60 markers; the last 6 individuals unlabelled (assigned by the model of all labelled ones).
  const some = subsetData(full, range(60), range(full.individuals.length));
  const data = {
    ...some,
    individuals: some.individuals.map((ind, k) => (k >= some.individuals.length - 6 ? { id: ind.id } : ind)),
  };
  const o = {
    by: 'population' as const,
    classifier: { structure: 'bckg', k: 2, learning: 'generative', alpha: 1, score: 'acl' } as ClassifierOptions,
    folds: 4,
    seed: 3,
    exclusionDraws: 0,
  };
  const here = assignIndividuals(data, o);
  const pool = nodeStartPool(2);
  const seen: number[] = [];
  let total = 0;
  try {
    const there = await assignIndividualsOn(pool, data, o, (p) => {
      seen.push(p.done);
      total = p.total;
    });
    assert.deepEqual(Array.from(there.posterior), Array.from(here.posterior));
    assert.deepEqual(Array.from(there.evaluation.confusion), Array.from(here.evaluation.confusion));
    assert.deepEqual(there.evaluation.foldAccuracy, here.evaluation.foldAccuracy);
    assert.equal(there.unlabelled.length, 6);
  } finally {
    pool.close();
  }
  // Four folds and the model of everybody, 60 features each.
  assert.equal(total, 5 * 60);
  assert.equal(seen.at(-1), total);
  assert.ok(
    seen.every((x, k) => k === 0 || x >= seen[k - 1]!),
    'progress never goes back',
  );
});
