import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { FormatName, GenotypeData } from '../data/genotype-data.ts';
import { readDataset, type ReadOptions } from '../formats/read-dataset.ts';
import { datasetFiles, fileSource } from '../node/file-source.ts';
import {
  SEX_CHROMOSOME_STEP,
  applyFilters,
  filterProblem,
  unknownChromosomes,
  type FilterOptions,
  type FilterResult,
} from '../data/filters.ts';
import { chromosomeCounts, DEFAULT_SEX_CHROMOSOMES, parseChromosomeList } from '../data/chromosomes.ts';

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
    .option('--no-fid-pop', 'PLINK: do not use FID as population')
    .option('--chr <list>', 'only these chromosomes, e.g. 1-22 or 2,5,scaffold_9 (PLINK --chr)')
    .option('--not-chr <list>', 'leave out these chromosomes (PLINK --not-chr)')
    .option(
      '--sex-chr <list>',
      `the sex and organelle chromosomes, left out of clustering and PCA (default ${DEFAULT_SEX_CHROMOSOMES.join(',')}; e.g. Z,W,MT for birds, 23-26 for PLINK's human numbering)`,
    )
    .option('--keep-sex-chr', 'clustering and PCA: keep the sex and organelle chromosomes')
    .option(
      '--keep <file>',
      'only the individuals listed in this file (an id, or FID IID, per line, as PLINK --keep); a .bed is read for them alone',
    )
    .option('--remove <file>', 'leave out the individuals listed in this file (as PLINK --remove)')
    .option('--extract <file>', 'only the loci named in this file (one per line, e.g. a prune.in)')
    .option('--exclude <file>', 'leave out the loci named in this file (e.g. a prune.out)')
    .option('--mind <fraction>', 'drop individuals missing more than this share of genotypes (PLINK --mind)')
    .option('--geno <fraction>', 'drop loci missing more than this share of genotypes (PLINK --geno)')
    .option('--maf <fraction>', 'drop loci whose minor-allele frequency is below this (PLINK --maf)')
    .option(
      '--hwe <p>',
      'drop SNPs whose Hardy–Weinberg exact test p-value is below this, within each population where there are populations (else over all, as PLINK)',
    )
    .option('--thin-bp <bases>', 'keep a locus only this many bases after the last one kept (one SNP per RAD tag)')
    .option(
      '--indep-pairwise <window step r2...>',
      'prune for linkage as PLINK does: WINDOW (loci, or e.g. 50kb) STEP R2, e.g. 50 10 0.1',
    );
}

/** Where the reading ends up: clustering and PCA leave the sex chromosomes out unless told. */
export type ReadPurpose = 'structure' | 'other';

/** A fraction flag, or undefined when absent. */
function fraction(v: unknown, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v === '' || !Number.isFinite(n)) throw new Error(`${flag} takes a number from 0 to 1, got "${String(v)}"`);
  return n;
}

/** Names listed in a file (the first word of each line, as PLINK's --extract reads them). */
function namesIn(path: string, flag: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(
      `${flag} ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  return text
    .split(/\r?\n/)
    .map((l) => l.trim().split(/\s+/)[0]!)
    .filter((w) => w !== '' && !w.startsWith('#'));
}

/** `--indep-pairwise WINDOW STEP R2` (or WINDOWkb R2, step 1). */
function pruningOption(v: unknown): FilterOptions['indepPairwise'] {
  if (v === undefined) return undefined;
  const parts = (Array.isArray(v) ? v : [v]).map(String);
  const usage = `--indep-pairwise takes WINDOW STEP R2 (e.g. 50 10 0.1, or 50kb 1 0.1), got "${parts.join(' ')}"`;
  const kb = /kb$/i.test(parts[0] ?? '');
  if (!(parts.length === 3 || (kb && parts.length === 2))) throw new Error(usage);
  const window = Number(parts[0]!.replace(/kb$/i, ''));
  const step = parts.length === 3 ? Number(parts[1]) : 1;
  const r2 = Number(parts[parts.length - 1]);
  if (![window, step, r2].every(Number.isFinite)) throw new Error(usage);
  return { window, step, r2, ...(kb ? { kb: true } : {}) };
}

/**
 * The filters the command line asks for, checked (bad values refused before any file is read).
 * For clustering and PCA (`purpose` 'structure') the sex and organelle chromosomes are left out
 * unless --keep-sex-chr.
 */
export function filterOptionsFrom(o: Record<string, unknown>, purpose: ReadPurpose): FilterOptions {
  const opts: FilterOptions = {
    ...(o['chr'] !== undefined ? { chromosomes: parseChromosomeList(String(o['chr']), '--chr') } : {}),
    ...(o['notChr'] !== undefined ? { notChromosomes: parseChromosomeList(String(o['notChr']), '--not-chr') } : {}),
    ...(o['sexChr'] !== undefined ? { sexChromosomes: parseChromosomeList(String(o['sexChr']), '--sex-chr') } : {}),
    ...(purpose === 'structure' && !o['keepSexChr'] ? { dropSexChromosomes: true } : {}),
    ...(o['extract'] !== undefined ? { extract: namesIn(String(o['extract']), '--extract') } : {}),
    ...(o['exclude'] !== undefined ? { exclude: namesIn(String(o['exclude']), '--exclude') } : {}),
  };
  const mind = fraction(o['mind'], '--mind');
  const geno = fraction(o['geno'], '--geno');
  const maf = fraction(o['maf'], '--maf');
  if (mind !== undefined) opts.maxIndividualMissing = mind;
  if (geno !== undefined) opts.maxLocusMissing = geno;
  if (maf !== undefined) opts.minMaf = maf;
  const hwe = fraction(o['hwe'], '--hwe');
  if (hwe !== undefined) opts.minHweP = hwe;
  if (o['thinBp'] !== undefined) opts.thinBp = Number(o['thinBp']);
  const prune = pruningOption(o['indepPairwise']);
  if (prune) opts.indepPairwise = prune;
  const problem = filterProblem(opts);
  if (problem) throw new Error(problem);
  return opts;
}

/** Whether any filter beyond the default dropping of sex chromosomes was asked for. */
function filtersAsked(f: FilterOptions): boolean {
  return Object.keys(f).some((k) => k !== 'dropSexChromosomes' && k !== 'sexChromosomes');
}

/**
 * Reads a dataset as the command line says, then applies its filters (a line per step that
 * removed something on stderr). Filter values are checked before the file is read; a --chr or
 * --not-chr naming a chromosome the file does not have is refused with the file's chromosomes.
 */
export async function readForCommand(
  file: string,
  o: Record<string, unknown>,
  purpose: ReadPurpose,
): Promise<{ data: GenotypeData; filtered?: FilterResult }> {
  const filters = filterOptionsFrom(o, purpose);
  const data = await readDataset(datasetFiles(file), readOptionsFrom(o));
  for (const [flag, names] of [
    ['--chr', filters.chromosomes],
    ['--not-chr', filters.notChromosomes],
  ] as const) {
    const unknown = names ? unknownChromosomes(data, names) : [];
    if (unknown.length > 0) {
      const present = chromosomeCounts(data).map((c) => c.chrom || '(none)');
      throw new Error(
        `${flag}: ${file} has no chromosome ${unknown.join(', ')}; its chromosomes are ${present.slice(0, 30).join(', ')}${present.length > 30 ? ', …' : ''}`,
      );
    }
  }
  if (!filtersAsked(filters) && !filters.dropSexChromosomes) return { data };
  const filtered = applyFilters(data, filters);
  for (const s of filtered.steps) {
    if (s.individuals === 0 && s.loci === 0) continue;
    const what = [s.individuals > 0 ? `${s.individuals} individuals` : '', s.loci > 0 ? `${s.loci} loci` : '']
      .filter(Boolean)
      .join(' and ');
    const hint = s.step === SEX_CHROMOSOME_STEP ? ' (--keep-sex-chr keeps them)' : '';
    process.stderr.write(`${s.step}: removed ${what}${hint}\n`);
  }
  // The totals when filters were asked for, or when the default one removed something.
  if (filtersAsked(filters) || filtered.data.loci.length < data.loci.length)
    process.stderr.write(
      `kept ${filtered.data.individuals.length} of ${data.individuals.length} individuals, ${filtered.data.loci.length} of ${data.loci.length} loci\n`,
    );
  if (filtered.data.loci.length === 0) throw new Error(`${file}: the filters removed every locus`);
  if (filtered.data.individuals.length === 0) throw new Error(`${file}: the filters removed every individual`);
  return { data: filtered.data, filtered };
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

/** A list file a flag names, refused before anything is read when it is not there. */
function listSource(path: string, flag: string) {
  if (!existsSync(path)) throw new Error(`${flag} ${path}: no such file`);
  return fileSource(path);
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
    ...(o['keep'] !== undefined || o['remove'] !== undefined
      ? {
          individuals: {
            ...(o['keep'] !== undefined ? { keep: listSource(String(o['keep']), '--keep') } : {}),
            ...(o['remove'] !== undefined ? { remove: listSource(String(o['remove']), '--remove') } : {}),
          },
        }
      : {}),
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
  'chr',
  'notChr',
  'sexChr',
  'keepSexChr',
  'keep',
  'remove',
  'extract',
  'exclude',
  'mind',
  'geno',
  'maf',
  'hwe',
  'thinBp',
  'indepPairwise',
] as const;

/** The reading flags among parsed options, kept in results so that a later command reads the data the same way. */
export function pickReadFlags(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of READ_FLAGS) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
