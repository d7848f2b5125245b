import type { Command } from 'commander';
import type { FormatName } from '../data/genotype-data.ts';
import type { ReadOptions } from '../formats/read-dataset.ts';
import { fileSource } from '../node/file-source.ts';

/** Adds the options every command that reads a dataset shares. */
export function addReadOptions(cmd: Command): Command {
  return cmd
    .option('--format <name>', 'structure | genepop | vcf | plink-ped | plink-bed | table (default: detected)')
    .option('--pops <file>', 'population file: id, population[, group] per line')
    .option('--ploidy <n>', 'STRUCTURE/GENEPOP: copies per individual')
    .option('--one-row', 'STRUCTURE: one row per individual')
    .option('--multi-row', 'STRUCTURE: PLOIDY rows per individual')
    .option('--marker-names <yes|no>', 'STRUCTURE: first row holds marker names')
    .option('--label <yes|no>', 'STRUCTURE: label column present')
    .option('--pop-column <yes|no>', 'STRUCTURE: population column present')
    .option('--pop-flag <yes|no>', 'STRUCTURE: PopFlag column present')
    .option('--loc-data <yes|no>', 'STRUCTURE: LocData column present')
    .option('--extra-cols <n>', 'STRUCTURE: further columns before the genotypes')
    .option('--missing-code <code>', 'STRUCTURE: missing allele value (default -9)')
    .option('--skip-mixed-ploidy', 'VCF: skip sites whose calls have another ploidy')
    .option(
      '--fid-pop',
      'PLINK: use FID as population (default: when fewer distinct FIDs than a third of the individuals)',
    )
    .option('--no-fid-pop', 'PLINK: do not use FID as population');
}

const FORMATS: FormatName[] = ['structure', 'genepop', 'vcf', 'plink-ped', 'plink-bed', 'table'];

function yesNo(v: unknown, flag: string): boolean | undefined {
  if (v === undefined) return undefined;
  if (v === 'yes' || v === 'true' || v === '1') return true;
  if (v === 'no' || v === 'false' || v === '0') return false;
  throw new Error(`${flag} takes yes or no, got "${String(v)}"`);
}

function int(v: unknown, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${flag} takes a whole number, got "${String(v)}"`);
  return n;
}

/** Turns parsed command-line flags into {@link ReadOptions}. */
export function readOptionsFrom(o: Record<string, unknown>): ReadOptions {
  const format = o['format'] as string | undefined;
  if (format !== undefined && !FORMATS.includes(format as FormatName))
    throw new Error(`--format must be one of ${FORMATS.join(', ')}`);
  const ploidy = int(o['ploidy'], '--ploidy');
  return {
    format: format as FormatName | undefined,
    populations: typeof o['pops'] === 'string' ? fileSource(o['pops']) : undefined,
    structure: {
      ploidy,
      oneRowPerIndividual: o['oneRow'] ? true : o['multiRow'] ? false : undefined,
      markerNames: yesNo(o['markerNames'], '--marker-names'),
      label: yesNo(o['label'], '--label'),
      popData: yesNo(o['popColumn'], '--pop-column'),
      popFlag: yesNo(o['popFlag'], '--pop-flag'),
      locData: yesNo(o['locData'], '--loc-data'),
      extraColumns: int(o['extraCols'], '--extra-cols'),
      missing: typeof o['missingCode'] === 'string' ? o['missingCode'] : undefined,
    },
    genepop: ploidy === 1 || ploidy === 2 ? { ploidy } : {},
    vcf: { ploidyMismatch: o['skipMixedPloidy'] ? 'skip' : 'error' },
    plink: { population: o['fidPop'] === false ? 'none' : o['fidPop'] === true ? 'fid' : 'auto' },
  };
}

/** The flags of {@link addReadOptions} (commander's camel-case keys). */
const READ_FLAGS = [
  'format',
  'pops',
  'ploidy',
  'oneRow',
  'multiRow',
  'markerNames',
  'label',
  'popColumn',
  'popFlag',
  'locData',
  'extraCols',
  'missingCode',
  'skipMixedPloidy',
  'fidPop',
] as const;

/** The reading flags among parsed options, kept in results so that a later command reads the data the same way. */
export function pickReadFlags(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of READ_FLAGS) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
