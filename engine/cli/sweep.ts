import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { puechmailleLine, sweepResultFiles } from '../service/sweep-files.ts';
import { numberIn, threadsOption } from './parse-args.ts';
import { PUECHMAILLE_THRESHOLD, SWEEP_COMMAND_MIXTURE_REPLICATES } from '../util/choices.ts';
import { addReadOptions, pickReadFlags, readForCommand } from './read-options.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import type { SweepOptions, SweepRun } from '../model/sweep.ts';
import { ensureWritableDir } from './output-dir.ts';
import { addClusterOptions, runSweepCli, sweepOptionsFrom, withSupervision } from './run.ts';

export function registerSweep(program: Command): void {
  addClusterOptions(
    addReadOptions(
      program
        .command('sweep')
        .argument('<file>', 'genotype file')
        .description(
          'replicate multi-starts for each K: F_ST per K with Mann–Whitney tests, BIC, empty clusters, aligned Q files and one JSON',
        ),
    ),
    { replicates: String(SWEEP_COMMAND_MIXTURE_REPLICATES) },
  )
    .option(
      '--membership-threshold <t>',
      "K for uneven sampling (Puechmaille's estimators): a cluster counts where a population's mean or median membership in it is above this",
      String(PUECHMAILLE_THRESHOLD),
    )
    .action(async (file: string, o: Record<string, unknown>) => {
      const threshold = numberIn(o['membershipThreshold'], '--membership-threshold', 0, 1);
      const { data } = await readForCommand(file, o, 'structure');
      const out = String(o['out']);
      ensureWritableDir(out);
      const sweep = await withSupervision(data, sweepOptionsFrom(o, String(SWEEP_COMMAND_MIXTURE_REPLICATES)), o);
      const result = await runSweepCli(data, sweep, threadsOption(o['threads']));
      writeSweepResult(out, data, sweep, result.runs, result.cancelled, pickReadFlags(o), threshold);
    });
}

/**
 * Writes a sweep's result (service/sweep-files.ts: Q files aligned within each K, .P files,
 * colours consistent across K, fst-by-k.tsv and stratify.json). `stratify sweep` and `stratify
 * merge` write through this, so a merged sweep gives the same files.
 */
export function writeSweepResult(
  out: string,
  data: GenotypeData,
  sweep: SweepOptions,
  runs: readonly SweepRun[],
  cancelled: boolean,
  readFlags: Record<string, unknown>,
  membershipThreshold?: number,
): void {
  const { files, table, puechmaille } = sweepResultFiles(data, sweep, runs, cancelled, readFlags, membershipThreshold);
  for (const f of files) writeFileSync(join(out, f.name), f.text);
  process.stdout.write(table);
  if (puechmaille) process.stdout.write(puechmailleLine(puechmaille));
  process.stdout.write(`wrote ${runs.length} run(s), fst-by-k.tsv and stratify.json to ${out}\n`);
}
