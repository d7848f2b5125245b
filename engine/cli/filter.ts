// `stratify filter FILE [filters] --out PREFIX`: the data a filter keeps, written for any other
// tool (a binary PLINK fileset, or VCF), with PLINK's prune.in / prune.out lists and why each
// individual and locus was removed.
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { plinkProblem, writePlinkFileset } from '../formats/plink-writer.ts';
import { writeVcf } from '../formats/writers.ts';
import { writeLines } from '../node/write-text.ts';
import { ensureWritableDir } from './output-dir.ts';
import { choice } from './parse-args.ts';
import { addReadOptions, readForCommand } from './read-options.ts';
import { filterListFiles } from '../service/dataset.ts';

/** Formats `stratify filter` writes. */
export const FILTER_OUTPUT = ['plink', 'vcf'] as const;

export function registerFilter(program: Command): void {
  addReadOptions(
    program
      .command('filter')
      .argument('<file>', 'genotype file')
      .description(
        'keep what the filters keep (--maf, --geno, --mind, --chr, --extract, --thin-bp, --indep-pairwise…) and write it as PLINK or VCF, with prune.in / prune.out',
      )
      .option('--out-format <format>', `${FILTER_OUTPUT.join(' | ')} (default: plink where the data allow it)`)
      .option(
        '--out <prefix>',
        'what the files are named: PREFIX.bed/.bim/.fam or PREFIX.vcf, PREFIX.prune.in…',
        'stratify',
      ),
  ).action(async (file: string, o: Record<string, unknown>) => {
    const prefix = String(o['out']);
    const requested = o['outFormat'] === undefined ? undefined : choice(o['outFormat'], '--out-format', FILTER_OUTPUT);
    ensureWritableDir(dirname(prefix) || '.');
    const { data, filtered } = await readForCommand(file, o, 'other');
    const format = requested ?? (plinkProblem(data) ? 'vcf' : 'plink');
    if (format === 'plink') {
      // Refuses data PLINK cannot hold (asked for with --out-format plink), naming --out-format vcf.
      const set = writePlinkFileset(data);
      writeFileSync(`${prefix}.bed`, set.bed);
      writeLines(`${prefix}.bim`, set.bim);
      writeLines(`${prefix}.fam`, set.fam);
    } else writeLines(`${prefix}.vcf`, writeVcf(data).lines);
    const written = format === 'plink' ? [`${prefix}.bed`, `${prefix}.bim`, `${prefix}.fam`] : [`${prefix}.vcf`];
    for (const f of filterListFiles(filtered ?? { removedIndividuals: [], removedLoci: [] })) {
      writeFileSync(`${prefix}.${f.name}`, f.text);
      written.push(`${prefix}.${f.name}`);
    }
    process.stdout.write(
      `kept ${data.individuals.length} individuals × ${data.loci.length} loci\nwrote ${written.join(', ')}\n`,
    );
  });
}
