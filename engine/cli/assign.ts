import { readFileSync, writeFileSync } from 'node:fs';
import { ensureWritableDir } from './output-dir.ts';
import { ProgressBar } from './progress-bar.ts';
import { join } from 'node:path';
import type { Command } from 'commander';
import { appendIndividuals } from '../data/merge.ts';
import { range, subsetData, type GenotypeData } from '../data/genotype-data.ts';
import { readDataset } from '../formats/read-dataset.ts';
import { datasetFiles } from '../node/file-source.ts';
import {
  assignIndividualsOn,
  DEFAULT_ALLELE_PRIOR,
  DEFAULT_EXCLUSION_DRAWS,
  SEARCH_LIMIT,
  type Assignment,
} from '../service/assign.ts';
import { withCancellablePool } from './pool-run.ts';
import { ASSIGN_BY, CLASSIFIER, EXCLUSION_LEVEL, LEARNING, SCORE, VARIABLES } from '../util/choices.ts';
import type { ClassifierOptions } from '../classify/evaluate.ts';
import type { AllelePrior } from '../classify/allele-nb.ts';
import { choice, choiceHelp, numberIn, positiveInt, threadsFlag, threadsOption } from './parse-args.ts';
import { addReadOptions, readForCommand, readOptionsFrom } from './read-options.ts';

function panelLoci(data: GenotypeData, path: string): number[] {
  const names = readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .map((l) => l.split('\t')[0]!.trim())
    .filter((n) => n !== '' && n !== 'locus');
  const index = new Map(data.loci.map((l, k) => [l.name, k]));
  const missing = names.filter((n) => !index.has(n));
  if (missing.length > 0)
    throw new Error(`${path}: ${missing.length} marker(s) not in the data, e.g. ${missing.slice(0, 3).join(', ')}`);
  return names.map((n) => index.get(n)!);
}

export function registerAssign(program: Command): void {
  addReadOptions(
    program
      .command('assign')
      .argument('<train>', 'genotype file of individuals with known populations')
      .description(
        'assign individuals to known populations with a Bayesian-network classifier: cross-validated accuracy, log-loss and confusion matrix; posteriors for unlabelled individuals; panel curves',
      ),
  )
    .option('--labels <file>', 'population file (id, population[, group]) for the training individuals')
    .option('--by <level>', choiceHelp('classes', ASSIGN_BY), 'population')
    .option('--unknown <file>', 'a second genotype file whose individuals are assigned')
    .option('--panel <file>', 'use only these markers (first column of a TSV, e.g. panel.tsv from `stratify select`)')
    .option('--variables <kind>', choiceHelp('variables', VARIABLES), 'auto')
    .option(
      '--allele-prior <w>',
      "allele variables: prior weight per locus spread over its alleles (1 = Rannala & Mountain's 1/r per allele), 'laplace' (1 per allele) or 'auto' (chosen by leave-one-out)",
      String(DEFAULT_ALLELE_PRIOR),
    )
    .option(
      '--exclusion-draws <n>',
      'simulated genotypes per population for the exclusion test of unlabelled individuals (0: none)',
      String(DEFAULT_EXCLUSION_DRAWS),
    )
    .option('--classifier <name>', choiceHelp('classifier', CLASSIFIER), 'nb')
    .option('--kdb-k <k>', 'kDB and BCkG: feature parents per feature', '2')
    .option(
      '--score <name>',
      choiceHelp(
        "structure score of BCkG (default bic) and kDB (default: Sahami's conditional mutual information)",
        SCORE,
      ),
    )
    .option('--learning <name>', choiceHelp('parameter learning', LEARNING), 'generative')
    .option(
      '--alpha <a>',
      "genotype variables: Dirichlet pseudo-count per table cell, a number or 'auto' (chosen by inner cross-validation from 0.01, 0.1, 0.5, 1)",
      'auto',
    )
    .option(
      '--l2 <strength>',
      "gradient learning: L2 anchor to the generative start, a number or 'auto' (inner 3-fold CV from 0.01, 0.1, 1, 10); default auto for genotype variables, 1 for allele variables",
    )
    .option('--cv <folds>', "cross-validation folds, or 'loo' (leave-one-out: self-assignment)", '10')
    .option('--seed <s>', 'fold seed', '1')
    .option('--panel-curve <sizes>', 'also report accuracy against panel size, e.g. 10,25,50,100,200')
    .option(
      '--max-search <scores>',
      'the most local scores one structure search (BCkG, kDB by score) may evaluate before it is refused',
      String(SEARCH_LIMIT),
    )
    .addOption(threadsFlag('worker threads: genotype classifiers cross-validate their folds on them at once'))
    .option('--out <dir>', 'output directory', 'stratify-assign')
    .action(async (file: string, o: Record<string, unknown>) => {
      // --labels gives the populations as --pops would; the filters apply to the training data, whose
      // loci the unknown individuals are then matched to by name.
      let { data } = await readForCommand(
        file,
        typeof o['labels'] === 'string' ? { ...o, pops: o['labels'] } : o,
        'other',
      );
      if (typeof o['panel'] === 'string')
        data = subsetData(data, panelLoci(data, o['panel']), range(data.individuals.length));
      const nTrain = data.individuals.length;
      if (typeof o['unknown'] === 'string')
        data = appendIndividuals(data, await readDataset(datasetFiles(o['unknown']), readOptionsFrom(o)));
      const by = choice(o['by'], '--by', ASSIGN_BY.values);
      const opts: ClassifierOptions = {
        structure: choice(o['classifier'], '--classifier', CLASSIFIER.values),
        k: positiveInt(o['kdbK'], '--kdb-k'),
        learning: choice(o['learning'], '--learning', LEARNING.values),
        alpha: o['alpha'] === 'auto' ? 'auto' : numberIn(o['alpha'], '--alpha', 1e-6, 1e6),
        ...(o['l2'] !== undefined ? { l2: o['l2'] === 'auto' ? 'auto' : numberIn(o['l2'], '--l2', 0, 1e6) } : {}),
        ...(o['score'] !== undefined ? { score: choice(o['score'], '--score', SCORE.values) } : {}),
      };
      const folds = o['cv'] === 'loo' ? 'loo' : positiveInt(o['cv'], '--cv');
      const variables = choice(o['variables'], '--variables', VARIABLES.values);
      const priorText = String(o['allelePrior']);
      const allelePrior: AllelePrior | 'auto' =
        priorText === 'auto' || priorText === 'laplace' ? priorText : numberIn(priorText, '--allele-prior', 1e-6, 1e6);
      const exclusionDraws = o['exclusionDraws'] === '0' ? 0 : positiveInt(o['exclusionDraws'], '--exclusion-draws');
      const seed = Number(o['seed']);
      const curveSizes =
        typeof o['panelCurve'] === 'string'
          ? String(o['panelCurve'])
              .split(',')
              .map((s) => positiveInt(s.trim(), '--panel-curve'))
          : [];
      const out = String(o['out']);
      ensureWritableDir(out);
      const bar = new ProgressBar(process.stderr);
      const searches = opts.score ? `${opts.structure.toUpperCase()} (k = ${opts.k}, ${opts.score})` : opts.structure;
      let said = false;
      let a: Assignment;
      try {
        a = await withCancellablePool(threadsOption(o['threads']), (pool, signal) =>
          assignIndividualsOn(
            pool,
            data,
            {
              by,
              classifier: opts,
              folds,
              seed,
              curveSizes,
              variables,
              allelePrior,
              exclusionDraws,
              maxSearch: positiveInt(o['maxSearch'], '--max-search'),
            },
            (p) => {
              if (!said) {
                said = true;
                process.stderr.write(
                  `structure search ${searches}: up to ${p.work.toLocaleString('en')} local scores a search, ${p.total / data.loci.length} searches\n`,
                );
              }
              bar.update(p.done, p.total, `structure search: ${p.done} of ${p.total} features`);
            },
            signal,
          ),
        );
      } finally {
        bar.done();
      }
      const cat = a.data;
      const ev = a.evaluation;
      const K = cat.classes.length;
      const confusion = [
        'true\\predicted\t' + cat.classes.join('\t'),
        ...cat.classes.map((c, y) => [c, ...Array.from({ length: K }, (_, p) => ev.confusion[y * K + p]!)].join('\t')),
      ];
      writeFileSync(join(out, 'confusion.tsv'), confusion.join('\n') + '\n');
      const perClass = [
        'class\tindividuals\tcorrect\taccuracy\tmean_own_posterior',
        ...a.perClass.map((c, y) =>
          [cat.classes[y], c.n, c.correct, (c.correct / c.n).toFixed(4), c.meanOwnPosterior.toFixed(4)].join('\t'),
        ),
      ];
      writeFileSync(join(out, 'per-class.tsv'), perClass.join('\n') + '\n');
      const summary: Record<string, unknown> = {
        classifier: opts,
        variables: a.variables,
        variablesReason: a.variablesReason,
        ...(a.allelePrior !== undefined ? { allelePrior: a.allelePrior } : {}),
        folds: a.folds,
        leaveOneOut: folds === 'loo',
        seed,
        classes: cat.classes,
        labelled: cat.labels.filter((y) => y >= 0).length,
        markers: cat.n,
        accuracy: ev.accuracy,
        logLoss: ev.logLoss,
        foldAccuracy: ev.foldAccuracy,
        qualityIndex: a.qualityIndex,
      };
      // Posteriors for every unlabelled individual, from a model trained on all labelled ones.
      const unlabelled = a.unlabelled;
      if (unlabelled.length > 0) {
        const ex = a.exclusion;
        const lines = [
          'id\tsource\tassigned\tprobability\t' +
            cat.classes.join('\t') +
            (ex ? '\texcluded_from_all\t' + cat.classes.map((c) => `exclusion_p_${c}`).join('\t') : ''),
        ];
        unlabelled.forEach((r, u) => {
          const row = Array.from({ length: K }, (_, c) => a.posterior[r * K + c]!);
          const best = row.indexOf(Math.max(...row));
          lines.push(
            [
              data.individuals[r]!.id,
              r < nTrain ? 'train file' : 'unknown file',
              cat.classes[best],
              row[best]!.toFixed(4),
              ...row.map((p) => p.toFixed(4)),
              ...(ex
                ? [
                    Array.from({ length: K }, (_, c) => ex[u * K + c]!).every((p) => p < EXCLUSION_LEVEL)
                      ? 'yes'
                      : 'no',
                    ...Array.from({ length: K }, (_, c) => ex[u * K + c]!.toPrecision(3)),
                  ]
                : []),
            ].join('\t'),
          );
        });
        writeFileSync(join(out, 'posteriors.tsv'), lines.join('\n') + '\n');
        summary['assigned'] = unlabelled.length;
      }
      if (a.curve.length > 0) {
        const lines = ['method\tsize\taccuracy\tlog_loss\twilcoxon_p_vs_random'];
        for (const p of a.curve)
          lines.push(
            [p.method, p.size, p.accuracy.toFixed(4), p.logLoss.toFixed(4), p.p?.toPrecision(3) ?? ''].join('\t'),
          );
        writeFileSync(join(out, 'panel-curve.tsv'), lines.join('\n') + '\n');
        summary['panelCurve'] = a.curve;
        process.stdout.write(lines.join('\n') + '\n');
      }
      writeFileSync(join(out, 'assign.json'), JSON.stringify(summary, null, 1));
      const method = folds === 'loo' ? 'leave-one-out' : `${folds}-fold CV`;
      process.stdout.write(
        `${a.variables} variables (${a.variablesReason})\n${method} over ${summary['labelled']} individuals, ${cat.n} markers, ${K} classes: accuracy ${(100 * ev.accuracy).toFixed(2)}%, log-loss ${ev.logLoss.toFixed(4)}, quality index ${(100 * a.qualityIndex).toFixed(1)}%${unlabelled.length ? `; ${unlabelled.length} individual(s) assigned` : ''}\nwrote ${out}\n`,
      );
    });
}
