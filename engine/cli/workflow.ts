import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import {
  ALGORITHM,
  CLUSTER_DEFAULTS as D,
  MODEL,
  REFERENCE_DRAW,
  STARTS_RULE,
  SWEEP_COMMAND_MIXTURE_REPLICATES,
  SWEEP_DEFAULTS,
} from '../util/choices.ts';
import { ensureWritableDir } from './output-dir.ts';
import { choice, choiceHelp, cvFoldsOption, parseKRange, positiveInt } from './parse-args.ts';

/** The workflow shipped with Stratify (workflow/ beside engine/). */
const SHIPPED = fileURLToPath(new URL('../../workflow/', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/stratify.mjs', import.meta.url));

/** A YAML scalar (JSON strings and numbers are YAML). */
const yaml = (v: string | number) => (typeof v === 'number' ? String(v) : JSON.stringify(v));

/** `--bootstrap`: 0 (none) or 2 or more refits, with the admixture model. */
function bootstrapRefits(value: unknown, model: string): number {
  const B = Number(value);
  if (B === 0) return 0;
  if (!Number.isInteger(B) || B < 2 || model !== 'admixture')
    throw new Error(`--bootstrap: 0, or 2 or more refits with --model admixture, got "${String(value)}"`);
  return B;
}

/** The cohort keys of config.yaml (none when the workflow fits every individual). */
function cohortConfig(o: Record<string, unknown>, model: string, cv: number): [string, string | number][] {
  const size = Number(o['referenceSize']);
  const list = o['referenceList'] === undefined ? '' : resolve(String(o['referenceList']));
  if (!Number.isInteger(size) || size < 0)
    throw new Error(`--reference-size takes a whole number (0: no reference), got "${String(o['referenceSize'])}"`);
  if (size === 0 && list === '') return [];
  if (size > 0 && list !== '') throw new Error('give --reference-size or --reference-list, not both');
  const projectK = String(o['projectK']);
  if (projectK !== 'cv') positiveInt(projectK, '--project-k');
  else if (model !== 'admixture' || cv === 0)
    throw new Error('--project-k cv needs the admixture model with CV (--cv); give --project-k K');
  return [
    ['reference_size', size],
    ['reference_draw', choice(o['referenceDraw'], '--reference-draw', REFERENCE_DRAW.values)],
    ['reference_list', list],
    ['reference_filters', String(o['referenceFilters'] ?? '')],
    ['shards', positiveInt(o['shards'], '--shards')],
    ['project_k', projectK],
  ];
}

export function registerWorkflow(program: Command): void {
  program
    .command('workflow')
    .argument('<file>', 'genotype file the sweep runs on')
    .description('write a ready Snakemake workflow (Snakefile, config.yaml, a SLURM profile) for a sweep of this file')
    .option('--k <range>', 'numbers of clusters', '2..8')
    .option(
      '--replicates <r>',
      `replicates per K, one job each (default: mixture model 10, admixture model ${SWEEP_DEFAULTS.admixture.replicates})`,
    )
    .option(
      '--starts <m>',
      `the most starts a multi-start runs (default: mixture model ${SWEEP_DEFAULTS.mixture.starts}, admixture model ${SWEEP_DEFAULTS.admixture.starts})`,
    )
    .option('--starts-rule <rule>', `${STARTS_RULE.values.join(' | ')} (default: the model's, as \`stratify run\`)`)
    .option('--cv <folds>', `admixture model: CV error folds, 0: none (default ${SWEEP_DEFAULTS.admixture.cvFolds})`)
    .option('--model <name>', MODEL.values.join(' | '), D.model)
    .option('--algorithm <name>', ALGORITHM.values.join(' | '), D.algorithm)
    .option('--seed <s>', 'run seed', String(D.seed))
    .option('--threads <t>', 'worker threads per job', '1')
    .option('--read <flags>', 'how to read the file, for every job, e.g. "--pops pops.tsv"', '')
    .option('--extra <flags>', 'further `stratify run` flags for every sweep job, e.g. "--rank-by evidence"', '')
    .option('--bootstrap <B>', "admixture model: bootstrap each K's likeliest run with B refits, in pieces", '0')
    .option('--bootstrap-pieces <n>', 'jobs the refits of one K are split into', '4')
    .option(
      '--reference-size <n>',
      'a cohort larger than one fit: fit this many individuals (drawn by --reference-draw), project the others in --shards jobs',
      '0',
    )
    .option('--reference-draw <how>', choiceHelp('how the reference is drawn', REFERENCE_DRAW), 'by-population')
    .option('--reference-list <file>', 'or the reference given: a file listing its individuals (as for --keep)')
    .option(
      '--reference-filters <flags>',
      'read flags for the reference fit only, e.g. "--maf 0.01 --indep-pairwise 50 10 0.1"',
      '',
    )
    .option('--shards <S>', 'cohort: jobs the individuals outside the reference are projected in', '1')
    .option('--project-k <K>', 'cohort: the K projected onto (cv: the lowest CV error of the reference sweep)', 'cv')
    .option('--results <dir>', 'where the merged result lands (relative to the workflow folder)', 'results')
    .option('--out <dir>', 'the workflow folder to write', 'stratify-workflow')
    .action((file: string, o: Record<string, unknown>) => {
      const out = String(o['out']);
      ensureWritableDir(out);
      parseKRange(String(o['k']));
      const model = choice(o['model'], '--model', MODEL.values);
      const d = SWEEP_DEFAULTS[model];
      const cv = cvFoldsOption(o['cv'], model);
      const config: [string, string | number][] = [
        ['input', resolve(file)],
        ['out', String(o['results'])],
        ['model', model],
        ['algorithm', choice(o['algorithm'], '--algorithm', ALGORITHM.values)],
        ['k', String(o['k'])],
        [
          'replicates',
          positiveInt(
            o['replicates'] ?? (model === 'mixture' ? SWEEP_COMMAND_MIXTURE_REPLICATES : d.replicates),
            '--replicates',
          ),
        ],
        ['starts', positiveInt(o['starts'] ?? d.starts, '--starts')],
        ['starts_rule', choice(o['startsRule'] ?? d.startsRule, '--starts-rule', STARTS_RULE.values)],
        ['cv', cv],
        ['seed', Number.parseInt(String(o['seed']), 10)],
        ['threads', positiveInt(o['threads'], '--threads')],
        ['read', String(o['read'] ?? '')],
        ['extra', String(o['extra'] ?? '')],
        ['bootstrap', bootstrapRefits(o['bootstrap'], String(o['model']))],
        ['bootstrap_pieces', positiveInt(o['bootstrapPieces'], '--bootstrap-pieces')],
        ['stratify', `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`],
        ...cohortConfig(o, model, cv),
      ];
      copyFileSync(join(SHIPPED, 'Snakefile'), join(out, 'Snakefile'));
      writeFileSync(
        join(out, 'config.yaml'),
        `# Written by \`stratify workflow\`; override any key with \`snakemake --config key=value\`.\n${config.map(([k, v]) => `${k}: ${yaml(v)}`).join('\n')}\n`,
      );
      mkdirSync(join(out, 'profiles', 'slurm'), { recursive: true });
      copyFileSync(join(SHIPPED, 'profiles', 'slurm', 'config.yaml'), join(out, 'profiles', 'slurm', 'config.yaml'));
      process.stdout.write(
        `wrote ${out}/Snakefile, config.yaml and profiles/slurm/; run it with:\n  cd ${out} && snakemake --cores 2\n  (on SLURM: snakemake --profile profiles/slurm)\n`,
      );
    });
}
