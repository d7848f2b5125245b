import { applyFilters, type FilterOptions, type FilterResult } from '../data/filters.ts';
import type { ResultFile } from './sweep-files.ts';
import { range, subsetData, type GenotypeData } from '../data/genotype-data.ts';
import type { ByteSource, ProgressCallback } from '../io/byte-source.ts';
import { readDataset, type ReadOptions } from '../formats/read-dataset.ts';
import { applySites, readSitesFile, type SitesApplied } from '../formats/sites-file.ts';
import type { StructureOptions } from '../formats/structure-file.ts';
import { writeGenepop, writeStructure, writeVcf, type WrittenFile } from '../formats/writers.ts';
import type { ExportFormat, FormatName } from '../util/choices.ts';

/** The data as the models read it, prepared once per dataset (cached). */

/** The read options a front end sets (functions and streams stay in the engine). */
export interface OpenOptions {
  readonly format?: FormatName;
  readonly structure?: Omit<StructureOptions, 'onProgress'>;
  readonly vcfSkipMixedPloidy?: boolean;
  readonly plinkPopulation?: 'fid' | 'none';
}

/** Use case "read": a dataset from its files, with an optional population side file. */
export function openDataset(
  files: { main: ByteSource; companions?: readonly ByteSource[]; populations?: ByteSource },
  options: OpenOptions,
  onProgress?: ProgressCallback,
): Promise<GenotypeData> {
  const read: ReadOptions = {
    format: options.format,
    structure: options.structure,
    vcf: { ploidyMismatch: options.vcfSkipMixedPloidy ? 'skip' : 'error' },
    plink: { population: options.plinkPopulation ?? 'fid' },
    populations: files.populations,
    onProgress,
  };
  return readDataset({ main: files.main, companions: files.companions ?? [] }, read);
}

/**
 * Use case "sampling sites": the dataset with the sites of a coordinates file (per individual or
 * per population), read and checked before anything changes.
 */
export async function placeDataset(data: GenotypeData, sites: ByteSource): Promise<SitesApplied> {
  return applySites(data, await readSitesFile(sites));
}

/** Use case "filter": a new dataset without the individuals and loci the filters remove. */
export function filterDataset(data: GenotypeData, options: FilterOptions): FilterResult {
  return applyFilters(data, options);
}

/**
 * A filter's lists as files, the same from `stratify filter` and the app: prune.in and prune.out
 * (PLINK's, one SNP a line; with linkage pruning) and removed.tsv (each individual and locus
 * removed, and why).
 */
export function filterListFiles(
  result: Pick<FilterResult, 'removedIndividuals' | 'removedLoci' | 'pruned'>,
): ResultFile[] {
  const lines = (xs: readonly string[]) => (xs.length > 0 ? xs.join('\n') + '\n' : '');
  const removed = [
    'kind\tname\treason',
    ...result.removedIndividuals.map((r) => `individual\t${r.name}\t${r.reason}`),
    ...result.removedLoci.map((r) => `locus\t${r.name}\t${r.reason}`),
  ];
  return [
    ...(result.pruned
      ? [
          { name: 'prune.in', text: lines(result.pruned.kept) },
          { name: 'prune.out', text: lines(result.pruned.removed) },
        ]
      : []),
    { name: 'removed.tsv', text: lines(removed) },
  ];
}

/** Use case "export": the dataset (or the given loci only) as a file of the chosen format. */
export function exportDataset(
  data: GenotypeData,
  format: ExportFormat,
  loci?: readonly number[],
  title?: string,
): WrittenFile {
  const sub = loci
    ? subsetData(
        data,
        [...loci].sort((a, b) => a - b),
        range(data.individuals.length),
      )
    : data;
  switch (format) {
    case 'structure':
      return writeStructure(sub);
    case 'genepop':
      return writeGenepop(sub, title);
    case 'vcf':
      return writeVcf(sub);
  }
}

/**
 * The format a panel (or any subset) is written in: the user's input format where a writer
 * exists for it (GENEPOP only up to diploid data), else VCF (PLINK inputs and tables).
 */
export function panelFormat(data: GenotypeData): { format: ExportFormat; extension: string } {
  switch (data.source?.format) {
    case 'structure':
      return { format: 'structure', extension: 'str' };
    case 'genepop':
      return data.ploidy <= 2 ? { format: 'genepop', extension: 'gen' } : { format: 'structure', extension: 'str' };
    default:
      return { format: 'vcf', extension: 'vcf' };
  }
}
