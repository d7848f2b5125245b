import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { GenotypeData } from '../data/genotype-data.ts';
import { parseQ, writeP, writeQ } from '../formats/q-files.ts';
import { fitOptions } from '../service/cluster-sweep.ts';
import type { FitOptions } from '../model/fit-options.ts';
import type { ParentWeights } from '../model/tan/tan-fit.ts';
import { fileSource } from '../node/file-source.ts';
import { writeJson, writeLines } from '../node/write-text.ts';
import { readPopulationFile } from '../formats/population-file.ts';
import { supervisedLabels, supervisedSweep } from '../service/supervised.ts';
import { nodeStartPool } from '../node/worker-pool.ts';
import { withCancellablePool } from './pool-run.ts';
import { continueFromMemberships, runSweep } from '../service/cluster-sweep.ts';
import type { SweepOptions, SweepRun } from '../model/sweep.ts';
import { sweepJson } from '../service/result-json.ts';
import { cvErrors, cvTable, lowestCvK } from '../service/sweep-files.ts';
import { iterationStage } from '../util/choices.ts';
import { bootstrapRuns, fitCheckOption, writeFitChecks } from './trust-files.ts';
import { runSweepPiece } from '../service/sweep-pieces.ts';
import { ensureWritableDir } from './output-dir.ts';
import {
  ACCELERATION,
  Q_UPDATE,
  F_UPDATE,
  ADMIXTURE_INIT,
  ALGORITHM,
  CLUSTER_DEFAULTS as D,
  EMA_STARTS,
  INIT_METHOD,
  MISSING_COPIES,
  MODEL,
  POLICY,
  RANK_BY,
  STARTS_RULE,
  SWEEP_DEFAULTS,
  TAN_ORDER,
  adaptiveStarts,
  largeKWarning,
} from '../util/choices.ts';
import {
  choice,
  choiceHelp,
  cvFoldsOption,
  numberIn,
  parseKRange,
  positiveInt,
  setting,
  threadsFlag,
  threadsOption,
  wholeNumber,
} from './parse-args.ts';
import { ProgressBar } from './progress-bar.ts';
import { addReadOptions, pickReadFlags, readForCommand } from './read-options.ts';

/** Adds the clustering options shared by `run` and `sweep`. */
export function addClusterOptions(cmd: Command, defaults: { replicates: string } = { replicates: '1' }): Command {
  const { mixture: M, admixture: A } = SWEEP_DEFAULTS;
  return cmd
    .option('--k <range>', 'numbers of clusters: 2..8, 3 or 2,4,6', '2..4')
    .option(
      '--starts <m>',
      `the most starts a multi-start runs (default: mixture model ${M.starts}, admixture model ${A.starts})`,
    )
    .option(
      '--starts-rule <rule>',
      `${choiceHelp('how many of them run', STARTS_RULE)} (default: mixture model ${M.startsRule}, admixture model ${A.startsRule})`,
    )
    .option(
      '--replicates <r>',
      `independent multi-starts per K (default: mixture model ${defaults.replicates}, admixture model ${A.replicates})`,
    )
    .option(
      '--screen <iterations>',
      'mixture model, best choice: screen the starts by this many EM iterations and run only the most promising to convergence (0: run every start to convergence)',
      String(D.screenIterations),
    )
    .option(
      '--screen-keep <fraction>',
      'fraction of the starts run to convergence after screening (at least 5)',
      String(D.screenKeep),
    )
    .option(
      '--screen-tolerance <t>',
      'admixture model, best choice: run every start until ln L changes by less than this, then only the most likely on to --tolerance (0: every start to --tolerance)',
      String(D.admixtureScreenTolerance),
    )
    .option(
      '--screen-starts <n>',
      'admixture model: the starts run on to --tolerance after screening',
      String(D.admixtureScreenStarts),
    )
    .option(
      '--structured-start',
      `the first start of each multi-start begins from the data's structure (PCA, Ward's clustering, k-means on the scores; default: mixture model ${M.structuredStart ? 'on' : 'off'}, admixture model ${A.structuredStart ? 'on' : 'off'})`,
    )
    .option('--no-structured-start', 'every start begins at random')
    .option('--model <name>', choiceHelp('what the bars mean', MODEL), D.model)
    .option('--algorithm <name>', choiceHelp('mixture model: clustering algorithm', ALGORITHM), D.algorithm)
    .option('--ema-starts <when>', choiceHelp('EMA: when starts begin their MA steps', EMA_STARTS), D.emaStarts)
    .option('--tolerance <t>', 'admixture model: stop when ln L changes by less than this', String(D.tolerance))
    .option(
      '--acceleration <name>',
      choiceHelp('admixture model: how the fit is accelerated', ACCELERATION),
      D.acceleration,
    )
    .option('--q-update <how>', choiceHelp('admixture model: how each step updates Q', Q_UPDATE), D.qUpdate)
    .option('--f-update <how>', choiceHelp('admixture model: how each step updates F', F_UPDATE), D.fUpdate)
    .option(
      '--admixture-init <how>',
      choiceHelp('admixture model: how starts are drawn', ADMIXTURE_INIT),
      D.admixtureInit,
    )
    .option(
      '--supervised <file>',
      'supervised admixture (ADMIXTURE --supervised; implies --model admixture): id, population per line; those individuals are references with all their ancestry in their population\'s cluster, "-" or absent: estimated; K = the number of reference populations',
    )
    .option(
      '--marker-averaging',
      "admixture model: refine the frequencies F by EMA's marker averaging after the maximum-likelihood fit (an experiment: docs/admixture.md)",
    )
    .option(
      '--cv <folds>',
      `admixture model: cross-validation error with this many folds (ADMIXTURE --cv), for the most likely replicate of each K; 0: none (default ${A.cvFolds})`,
    )
    .option(
      '--tan-window <w>',
      'EMA-TAN: candidate parents = the w preceding markers on the chromosome',
      String(D.tanWindow),
    )
    .option('--tan-order <order>', choiceHelp('EMA-TAN marker order', TAN_ORDER), D.tanOrder)
    .option('--policy <name>', choiceHelp('how starts are combined', POLICY), D.policy)
    .option('--rank-by <name>', choiceHelp('what best choice ranks starts by', RANK_BY), D.rankBy)
    .option('--seed <s>', 'run seed (same seed ⇒ same result)', String(D.seed))
    .addOption(threadsFlag('worker threads'))
    .option('--epsilon <e>', 'convergence: L∞ change of the parameters', String(D.epsilon))
    .option('--max-iterations <n>', 'iteration cap per start', String(D.maxIterations))
    .option('--missing-copies <mode>', choiceHelp('missing allele copies', MISSING_COPIES), D.missing)
    .option('--alpha <a>', 'Dirichlet hyperparameter of allele frequencies', String(D.alpha))
    .option(
      '--prior-informative <p>',
      "prior probability that a marker is informative: 'auto' or a number in (0, 1)",
      D.priorInformative,
    )
    .option('--init <method>', choiceHelp('random starts', INIT_METHOD), D.init)
    .option('--out <dir>', 'output directory', 'stratify-out');
}

export function fitOptionsFrom(o: Record<string, unknown>): FitOptions {
  const pi =
    o['priorInformative'] === 'auto' ? 'auto' : numberIn(o['priorInformative'], '--prior-informative', 1e-9, 1 - 1e-9);
  return fitOptions({
    model: choice(o['model'] ?? D.model, '--model', MODEL.values),
    algorithm: choice(o['algorithm'], '--algorithm', ALGORITHM.values),
    emaStarts: choice(o['emaStarts'] ?? D.emaStarts, '--ema-starts', EMA_STARTS.values),
    tolerance: setting(o['tolerance'] ?? D.tolerance, '--tolerance', 'tolerance'),
    acceleration: choice(o['acceleration'] ?? D.acceleration, '--acceleration', ACCELERATION.values),
    qUpdate: choice(o['qUpdate'] ?? D.qUpdate, '--q-update', Q_UPDATE.values),
    fUpdate: choice(o['fUpdate'] ?? D.fUpdate, '--f-update', F_UPDATE.values),
    admixtureInit: choice(o['admixtureInit'] ?? D.admixtureInit, '--admixture-init', ADMIXTURE_INIT.values),
    ...(o['markerAveraging'] === true ? { markerAveraging: true } : {}),
    tan: {
      window: positiveInt(o['tanWindow'] ?? D.tanWindow, '--tan-window'),
      order: choice(o['tanOrder'] ?? D.tanOrder, '--tan-order', TAN_ORDER.values),
      orderSeed: Number(o['seed'] ?? D.seed),
    },
    epsilon: setting(o['epsilon'], '--epsilon', 'epsilon'),
    maxIterations: positiveInt(o['maxIterations'], '--max-iterations'),
    missing: choice(o['missingCopies'], '--missing-copies', MISSING_COPIES.values),
    init: choice(o['init'], '--init', INIT_METHOD.values),
    priors: { alpha: numberIn(o['alpha'], '--alpha', 1e-6, 1e6), alphaCluster: D.alphaCluster, priorInformative: pi },
  });
}

/**
 * A sweep's options from the command line; starts, replicates, CV folds and the starts rule
 * default to the model's (SWEEP_DEFAULTS), the mixture model's replicates to `replicates` (the
 * command's own).
 */
export function sweepOptionsFrom(o: Record<string, unknown>, replicates = '1'): SweepOptions {
  const fit = fitOptionsFrom(o);
  const model = typeof o['supervised'] === 'string' ? 'admixture' : (fit.model ?? D.model);
  const d = SWEEP_DEFAULTS[model];
  // Screening asked for is the user's way of sparing starts: it replaces the default rule.
  const screened = Number(o['screen'] ?? 0) > 0 || Number(o['screenTolerance'] ?? 0) > 0;
  const rule = choice(o['startsRule'] ?? (screened ? 'all' : d.startsRule), '--starts-rule', STARTS_RULE.values);
  const cv = cvFoldsOption(o['cv'], model);
  const adaptive = adaptiveStarts(rule);
  return {
    kValues: parseKRange(String(o['k'])),
    starts: setting(o['starts'] ?? d.starts, '--starts', 'starts'),
    replicates: setting(
      o['replicates'] ?? (model === 'mixture' ? replicates : d.replicates),
      '--replicates',
      'replicates',
    ),
    policy: choice(o['policy'], '--policy', POLICY.values),
    rankBy: choice(o['rankBy'], '--rank-by', RANK_BY.values),
    seed: Number.isInteger(Number(o['seed']))
      ? Number(o['seed'])
      : (() => {
          throw new Error(`--seed takes a whole number, got "${String(o['seed'])}"`);
        })(),
    fit,
    screen: {
      iterations: wholeNumber(o['screen'] ?? D.screenIterations, '--screen'),
      keep: numberIn(o['screenKeep'] ?? D.screenKeep, '--screen-keep', 1e-9, 1),
      tolerance: numberIn(o['screenTolerance'] ?? D.admixtureScreenTolerance, '--screen-tolerance', 0, 1e9),
      starts: positiveInt(o['screenStarts'] ?? D.admixtureScreenStarts, '--screen-starts'),
    },
    ...(cv > 0 ? { cvFolds: cv } : {}),
    ...(adaptive ? { adaptive } : {}),
    structuredStart: typeof o['structuredStart'] === 'boolean' ? o['structuredStart'] : d.structuredStart,
  };
}

/**
 * `--supervised FILE`: the admixture model with the file's reference individuals fixed to their
 * population's cluster; K becomes the number of reference populations (said on stderr).
 */
export async function withSupervision(
  data: GenotypeData,
  sweep: SweepOptions,
  o: Record<string, unknown>,
): Promise<SweepOptions> {
  if (typeof o['supervised'] !== 'string') return sweep;
  const file = o['supervised'];
  const s = supervisedLabels(data, await readPopulationFile(fileSource(file)), file);
  const K = s.populations.length;
  const known = s.labels.filter((k) => k >= 0).length;
  const missing = s.unknownIds.length
    ? `; ${s.unknownIds.length} id(s) of ${file} not in the data (${s.unknownIds.slice(0, 3).join(', ')}${s.unknownIds.length > 3 ? ', …' : ''})`
    : '';
  process.stderr.write(
    `supervised admixture: K = ${K}, clusters 1..${K} = ${s.populations.join(', ')}; ${known} reference individuals, ${s.labels.length - known} estimated${missing}\n`,
  );
  return supervisedSweep(sweep, s);
}

/** Writes a run's .Q and .P files; returns their paths. */
export function writeRunFiles(dir: string, stem: string, data: GenotypeData, run: SweepRun): string[] {
  const base = join(dir, `${stem}.K${run.K}.r${run.replicate + 1}`);
  writeLines(`${base}.Q`, writeQ(run.clustering.Q, data.individuals.length, run.K).lines);
  writeLines(`${base}.P`, writeP(data, run.clustering.model).lines);
  const files = [`${base}.Q`, `${base}.P`];
  if (run.clustering.linkage) {
    writeFileSync(`${base}.linkage.tsv`, linkageTsv(data, run.clustering.linkage));
    files.push(`${base}.linkage.tsv`);
  }
  return files;
}

/** EMA-TAN's linkage map: per marker, the weight on C and on each candidate parent. */
export function linkageTsv(data: GenotypeData, linkage: readonly ParentWeights[]): string {
  const rows = ['locus\tchrom\tpos\tdepends_on_cluster\tparent\tparent_weight'];
  for (const p of linkage) {
    const l = data.loci[p.locus]!;
    if (p.parents.length === 0)
      rows.push([l.name, l.chrom ?? '', l.pos ?? '', p.cluster.toFixed(4), '', ''].join('\t'));
    for (const q of p.parents)
      rows.push(
        [l.name, l.chrom ?? '', l.pos ?? '', p.cluster.toFixed(4), data.loci[q.locus]!.name, q.weight.toFixed(4)].join(
          '\t',
        ),
      );
  }
  return rows.join('\n') + '\n';
}

/** Runs a sweep with a progress bar on a terminal and one parseable line per run otherwise. */
export async function runSweepCli(
  data: GenotypeData,
  sweep: SweepOptions,
  threads: number,
): Promise<{ runs: readonly SweepRun[]; cancelled: boolean }> {
  const large = largeKWarning(sweep.kValues, data.individuals.length);
  if (large) process.stderr.write(`warning: ${large}\n`);
  const bar = new ProgressBar(process.stderr);
  let [done, total] = [0, 1];
  try {
    const result = await withCancellablePool(threads, (pool, signal) =>
      runSweep(
        data,
        sweep,
        pool,
        (p) => {
          if (p.kind === 'start') {
            [done, total] = [p.completed, p.total];
            bar.update(p.completed, p.total, `K=${p.K} replicate ${p.replicate + 1} start ${p.start + 1}`);
          }
          // A start at work: its stage beside its ln L (a subset's ln L is far above the whole data's).
          if (p.kind === 'iteration')
            bar.update(
              done,
              total,
              `K=${p.K} start ${p.start + 1}, ${iterationStage(p.loci, data.loci.length)}: iteration ${p.iteration}, ln L ${p.logLik.toFixed(1)}`,
            );
          if (p.kind === 'cv')
            bar.update(p.completed, p.total, `cross-validation (CV error per K): fold ${p.completed} of ${p.total}`);
          if (p.kind === 'estimate') bar.update(0, 1, 'starts at work (estimated from their convergence)', p.seconds);
          if (p.kind === 'run' && !bar.active) {
            const c = p.run.clustering;
            const chosen = c.algorithmChoice;
            process.stdout.write(
              `run K=${p.run.K} replicate=${p.run.replicate + 1} logLik=${c.logLik.toFixed(4)} starts=${p.run.completedStarts} best_start=${c.bestStart + 1}${chosen ? ` algorithm=${chosen.algorithm} (${chosen.reason})` : ''}\n`,
            );
          }
        },
        signal,
      ),
    );
    bar.done();
    // As ADMIXTURE prints it, one line per K, then the K it favours.
    const cv = cvErrors(result.runs);
    for (const c of cv) process.stdout.write(`CV error (K=${c.K}): ${c.cvError.toFixed(5)}\n`);
    if (cv.length > 1) process.stdout.write(`lowest CV error: K = ${lowestCvK(cv)}\n`);
    return result;
  } finally {
    bar.done();
  }
}

export function registerRun(program: Command): void {
  addClusterOptions(
    addReadOptions(
      program
        .command('run')
        .argument('<file>', 'genotype file')
        .description(
          'cluster individuals with multi-start EMA (or EM) for each K; writes .Q, .P and a JSON of everything',
        ),
    ),
  )
    .option('--init-q <file>', 'start one run from this membership matrix (.Q) instead of random starts')
    .option(
      '--replicate <r>',
      'compute one piece of a sweep: replicate r (1-based) of the one K given; writes a .piece.json for `stratify merge`',
    )
    .option('--start-range <a..b>', 'with --replicate: only starts a to b (1-based) of that replicate (policy best)')
    .option(
      '--bootstrap <B>',
      "admixture model: standard errors and 95 % intervals of Q from B refits on resampled markers (ADMIXTURE's -B): .Q_se, .Q_lower, .Q_upper",
    )
    .option(
      '--fit-check [matrix]',
      "the model-fit check (evalAdmix's residual correlations) of each K's likeliest run: fit.K{K}.tsv, population × population means; 'matrix' adds fit.K{K}.matrix.tsv, every pair",
    )
    .action(async (file: string, o: Record<string, unknown>) => {
      const out = String(o['out']);
      // Options first, then the folder, then the data: a mistake costs neither a folder nor a read.
      const options = sweepOptionsFrom(o);
      const bootstrap = o['bootstrap'] === undefined ? undefined : positiveInt(o['bootstrap'], '--bootstrap');
      if (bootstrap !== undefined && (bootstrap < 2 || options.fit.model !== 'admixture'))
        throw new Error('--bootstrap: 2 or more replicates, with --model admixture');
      const fitCheck = fitCheckOption(o['fitCheck']);
      ensureWritableDir(out);
      const { data } = await readForCommand(file, o, 'structure');
      const stem = 'stratify';
      let sweep = await withSupervision(data, options, o);
      if (o['replicate'] !== undefined) {
        await writePiece(out, data, sweep, o);
        return;
      }
      if (o['startRange'] !== undefined) throw new Error('--start-range goes with --replicate');
      let result: { runs: readonly SweepRun[]; cancelled: boolean };
      if (typeof o['initQ'] === 'string') {
        const q = parseQ(o['initQ'], readFileSync(o['initQ'], 'utf8'));
        if (q.N !== data.individuals.length)
          throw new Error(`${o['initQ']}: ${q.N} rows but the data has ${data.individuals.length} individuals`);
        sweep = { ...sweep, kValues: [q.K], replicates: 1, starts: 1 };
        result = { runs: [continueFromMemberships(data, q.Q, q.K, sweep)], cancelled: false };
      } else {
        result = await runSweepCli(data, sweep, threadsOption(o['threads']));
      }
      for (const run of result.runs) writeRunFiles(out, stem, data, run);
      const cv = cvTable(result.runs);
      if (cv) writeFileSync(join(out, 'cv-by-k.tsv'), cv);
      const json: Record<string, unknown> = {
        ...sweepJson(data, sweep, result.runs, result.cancelled),
        readFlags: pickReadFlags(o),
      };
      if (bootstrap !== undefined)
        await bootstrapRuns(out, stem, data, result.runs, json['runs'] as Record<string, unknown>[], {
          B: bootstrap,
          seed: sweep.seed,
          fit: sweep.fit,
          threads: threadsOption(o['threads']),
        });
      if (fitCheck !== undefined) json['fitCheck'] = writeFitChecks(out, data, result.runs, fitCheck === 'matrix');
      writeJson(join(out, `${stem}.json`), json);
      process.stdout.write(
        `wrote ${result.runs.length} run(s) to ${out}${result.cancelled ? ' (cancelled: runs combine the starts that completed)' : ''}\n`,
      );
    });
}

/** The start range of a piece, 1-based inclusive on the command line, as [from, to) indices. */
function startRange(text: unknown, starts: number): { from: number; to: number } {
  if (text === undefined) return { from: 0, to: starts };
  const m = /^(\d+)\s*(?:\.\.|-)\s*(\d+)$/.exec(String(text).trim());
  const a = m ? Number(m[1]) : NaN;
  const b = m ? Number(m[2]) : NaN;
  if (!(a >= 1 && b >= a && b <= starts))
    throw new Error(`--start-range takes a..b within 1..${starts} (the --starts of the sweep), got "${String(text)}"`);
  return { from: a - 1, to: b };
}

/** `stratify run --k K --replicate r [--start-range a..b]`: one piece of a sweep, as JSON. */
async function writePiece(
  out: string,
  data: GenotypeData,
  sweep: SweepOptions,
  o: Record<string, unknown>,
): Promise<void> {
  if (sweep.kValues.length !== 1) throw new Error('a piece (--replicate) takes exactly one K, e.g. --k 3');
  const K = sweep.kValues[0]!;
  const replicate = positiveInt(o['replicate'], '--replicate');
  if (replicate > sweep.replicates)
    throw new Error(`--replicate ${replicate} is beyond --replicates ${sweep.replicates}`);
  const range = startRange(o['startRange'], sweep.starts);
  const spec = { K, replicate: replicate - 1, ...range };
  const pool = nodeStartPool(threadsOption(o['threads']));
  const bar = new ProgressBar(process.stderr);
  try {
    const piece = await runSweepPiece(data, sweep, spec, pickReadFlags(o), pool, (p) => {
      if (p.kind === 'start') bar.update(p.completed, p.total, `K=${K} replicate ${replicate} start ${p.start + 1}`);
    });
    const partial = range.from > 0 || range.to < sweep.starts;
    const name = `stratify.K${K}.r${replicate}${partial ? `.s${range.from + 1}-${range.to}` : ''}.piece.json`;
    writeJson(join(out, name), piece);
    process.stdout.write(
      `wrote ${join(out, name)} (K=${K}, replicate ${replicate}, starts ${range.from + 1}–${range.to})\n`,
    );
  } finally {
    bar.done();
    pool.close();
  }
}
