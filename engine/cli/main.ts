import { Command } from 'commander';
import { isFormatError } from '../io/format-error.ts';
import { summarize } from '../data/summary.ts';
import { VERSION } from '../util/version.ts';
import { formatSummary, summaryJson } from './inspect.ts';
import { addReadOptions, readForCommand } from './read-options.ts';
import { registerFilter } from './filter.ts';
import { registerRun } from './run.ts';
import { registerSweep } from './sweep.ts';
import { registerSelect } from './select.ts';
import { registerAssign } from './assign.ts';
import { registerMerge } from './merge.ts';
import { registerWorkflow } from './workflow.ts';
import { registerPca } from './pca.ts';
import { registerProject } from './project.ts';
import { registerTrust } from './trust.ts';
import { registerCohort } from './cohort.ts';

/** Builds the `stratify` command line; `run` parses argv and executes. */
export function buildProgram(): Command {
  const program = new Command('stratify')
    .description('Population structure from genotype data (STRUCTURE, GENEPOP, VCF, PLINK, CSV/TSV).')
    .version(VERSION);
  addReadOptions(
    program
      .command('inspect')
      .argument('<file>', 'genotype file')
      .description('summarise a genotype file: format, individuals, loci, ploidy, populations, alleles, missingness')
      .option('--json', 'print the summary as JSON'),
  ).action(async (file: string, opts: Record<string, unknown>) => {
    const { data } = await readForCommand(file, opts, 'other');
    const s = summarize(data);
    process.stdout.write((opts['json'] ? JSON.stringify(summaryJson(s), null, 2) : formatSummary(s)) + '\n');
  });
  registerFilter(program);
  registerRun(program);
  registerSweep(program);
  registerSelect(program);
  registerAssign(program);
  registerMerge(program);
  registerWorkflow(program);
  registerPca(program);
  registerTrust(program);
  registerProject(program);
  registerCohort(program);
  return program;
}

export async function run(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return 0;
  } catch (e) {
    if (isFormatError(e)) process.stderr.write(`error: ${e.message}\n`);
    else if (e instanceof Error) process.stderr.write(`error: ${e.message}\n`);
    else process.stderr.write(`error: ${String(e)}\n`);
    return 1;
  }
}
