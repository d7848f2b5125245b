import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import {
  ALGORITHM,
  CLUSTER_DEFAULTS as D,
  MODEL,
  STARTS_RULE,
  SWEEP_COMMAND_MIXTURE_REPLICATES,
  SWEEP_DEFAULTS,
} from '../util/choices.ts';
import { ensureWritableDir } from './output-dir.ts';
import { choice, cvFoldsOption, parseKRange, positiveInt } from './parse-args.ts';

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
