import type { FormatName, GenotypeData, Individual } from '../data/genotype-data.ts';
import { baseName, type ByteSource, type ProgressCallback } from '../io/byte-source.ts';
import { readLines } from '../io/lines.ts';
import { FormatError } from '../io/format-error.ts';
import { isPopLine, readGenepop, type GenepopOptions } from './genepop.ts';
import { readFam, readPlinkBed, readPlinkPed, type PlinkOptions } from './plink.ts';
import { selectIndividuals, type IndividualSelection } from './individual-list.ts';
import { subsetDataset } from '../data/packed-calls.ts';
import { range } from '../data/genotype-data.ts';
import { applyPopulations, readPopulationFile } from './population-file.ts';
import { readStructure, type StructureOptions } from './structure-file.ts';
import { readGenotypeTable, type TableOptions } from './table.ts';
import { readVcf, type VcfOptions } from './vcf.ts';

/** Everything a caller may say about how to read a dataset. */
export interface ReadOptions {
  /** Force a format instead of detecting it. */
  format?: FormatName;
  structure?: StructureOptions;
  genepop?: GenepopOptions;
  vcf?: VcfOptions;
  plink?: PlinkOptions;
  table?: TableOptions;
  /** A side file mapping individual ids to populations (and groups). */
  populations?: ByteSource;
  /** Only these individuals (--keep / --remove lists); a .bed keeps only their codes as it streams. */
  individuals?: IndividualSelection;
  onProgress?: ProgressCallback;
}

/** The files of one dataset: the main file, plus companions (.map, .bim, .fam). */
export interface DatasetFiles {
  main: ByteSource;
  companions?: readonly ByteSource[];
}

/** Format by file extension; text formats may also be gzip-compressed (`.str.gz`, `.gen.gz`, …). */
const EXTENSIONS: [RegExp, FormatName][] = [
  [/\.vcf(\.b?gz)?$/, 'vcf'],
  [/\.(bed|bim|fam)$/, 'plink-bed'],
  [/\.(ped|map)$/, 'plink-ped'],
  [/\.(gen|genepop)(\.gz)?$/, 'genepop'],
  [/\.(str|stru|structure)(\.gz)?$/, 'structure'],
  [/\.(csv|tsv)(\.gz)?$/, 'table'],
];

/** Detects the format from the file name, then from the first lines of content. */
export async function detectFormat(source: ByteSource): Promise<FormatName> {
  const name = baseName(source.name);
  for (const [re, f] of EXTENSIONS) if (re.test(name)) return f;
  const head: string[] = [];
  try {
    for await (const l of readLines(source)) {
      head.push(l.text);
      if (head.length >= 60) break;
    }
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw new FormatError(source.name, 1, 1, 'the file could not be read as text', 'a text or gzip file');
  }
  if (head.length === 0 || head.every((l) => l.trim() === ''))
    throw new FormatError(source.name, 1, 1, 'the file is empty', 'genotype data');
  if (head[0]!.startsWith('##fileformat=VCF') || head.some((l) => l.startsWith('#CHROM'))) return 'vcf';
  if (head.slice(1).some((l) => isPopLine(l))) return 'genepop';
  const firstData = head.find((l) => l.trim() !== '')!;
  if (/[,\t;]/.test(firstData) && head.slice(1).some((l) => /[ACGTacgt0-9]+\s*[/|]\s*[ACGTacgt0-9]+/.test(l)))
    return 'table';
  if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(head.join('')))
    throw new FormatError(
      source.name,
      1,
      1,
      'this is a binary file, not genotype text',
      'STRUCTURE, GENEPOP, VCF, PLINK (.ped/.map or .bed/.bim/.fam) or a genotype table (CSV/TSV)',
    );
  if (/\d/.test(head.slice(1).join(' '))) {
    notProse(source.name, head);
    return 'structure';
  }
  throw new FormatError(
    source.name,
    1,
    1,
    'unknown format',
    'STRUCTURE, GENEPOP, VCF, PLINK (.ped/.map or .bed/.bim/.fam) or a genotype table (CSV/TSV)',
  );
}

/**
 * A file that falls through to STRUCTURE must look like it: rows of mostly whole-number allele
 * codes after a label and a population column. Prose, JSON or scripts (a README, package.json)
 * are refused here, with the first line that shows it, instead of failing deep in the STRUCTURE
 * reader with a message about its layout.
 */
function notProse(file: string, head: readonly string[]): void {
  const rows = head.map((text, k) => ({ text, line: k + 1 })).filter((r, k) => k > 0 && r.text.trim() !== '');
  const share = (text: string) => {
    const tokens = text.trim().split(/\s+/);
    return tokens.filter((t) => /^-?\d+$/.test(t)).length / tokens.length;
  };
  const numeric = rows.filter((r) => share(r.text) >= 0.5).length;
  if (rows.length > 0 && numeric < rows.length / 2) {
    const first = rows.find((r) => share(r.text) < 0.5)!;
    throw new FormatError(
      file,
      first.line,
      1,
      `this does not look like genotype data: ${rows.length - numeric} of the first ${rows.length} rows are mostly words, not allele codes`,
      'STRUCTURE (rows of whole-number allele codes), GENEPOP, VCF, PLINK or a genotype table (CSV/TSV)',
    );
  }
}

function companion(files: DatasetFiles, ext: string): ByteSource {
  const stem = files.main.name.replace(/\.[^./\\]+$/, '');
  const found = files.companions?.find((c) => baseName(c.name).endsWith(`.${ext}`));
  if (found) return found;
  throw new FormatError(
    files.main.name,
    1,
    1,
    `the matching .${ext} file is missing`,
    `${stem}.${ext} next to ${baseName(files.main.name)}`,
  );
}

/** Reads a dataset in any supported format; applies a population side file if given. */
export async function readDataset(files: DatasetFiles, options: ReadOptions = {}): Promise<GenotypeData> {
  const main = files.main;
  const format = options.format ?? (await detectFormat(main));
  const progress = options.onProgress;
  let data: GenotypeData;
  switch (format) {
    case 'structure':
      data = await readStructure(main, { onProgress: progress, ...options.structure });
      break;
    case 'genepop':
      data = await readGenepop(main, { onProgress: progress, ...options.genepop });
      break;
    case 'vcf': {
      const selection = options.individuals;
      data = await readVcf(main, {
        onProgress: progress,
        ...options.vcf,
        ...(selection ? { select: (named) => selectIndividuals(named, selection) } : {}),
      });
      break;
    }
    case 'plink-ped': {
      const ped = baseName(main.name).endsWith('.map') ? companion(files, 'ped') : main;
      data = await readPlinkPed(ped, companion({ ...files, main: ped }, 'map'), {
        onProgress: progress,
        ...options.plink,
      });
      break;
    }
    case 'plink-bed': {
      const bed = baseName(main.name).endsWith('.bed') ? main : companion(files, 'bed');
      const selection = options.individuals;
      data = await readPlinkBed(bed, companion(files, 'bim'), companion(files, 'fam'), {
        onProgress: progress,
        ...options.plink,
        ...(selection ? { select: (named) => selectIndividuals(named, selection) } : {}),
      });
      break;
    }
    case 'table':
      data = await readGenotypeTable(main, { onProgress: progress, ...options.table });
      break;
    default:
      return assertNever(format);
  }
  // Formats read whole, then cut to the individuals asked for (.bed and VCF keep only theirs as they stream).
  if (options.individuals && format !== 'plink-bed' && format !== 'vcf') {
    const kept = await selectIndividuals(data.individuals, options.individuals);
    if (kept.length < data.individuals.length) {
      const source = data.source && {
        ...data.source,
        assumptions: [...data.source.assumptions, `${kept.length} of the ${data.individuals.length} individuals read`],
      };
      data = { ...subsetDataset(data, range(data.loci.length), kept), ...(source ? { source } : {}) };
    }
  }
  if (options.populations) {
    const map = await readPopulationFile(options.populations);
    const applied = applyPopulations(data, map);
    if (applied.unlabelled.length === data.individuals.length) {
      const sample = (ids: readonly string[]) =>
        ids
          .slice(0, 3)
          .map((x) => `"${x}"`)
          .join(', ');
      throw new FormatError(
        options.populations.name,
        1,
        1,
        `none of its ${map.size} ids is an individual of ${main.name} (it lists ${sample([...map.keys()])}; the data has ${sample(data.individuals.map((i) => i.id))})`,
        "the individuals' ids in the first column",
      );
    }
    const warnings = [...(data.source?.warnings ?? [])];
    if (applied.unlabelled.length > 0)
      warnings.push(
        `${applied.unlabelled.length} individual(s) not in ${options.populations.name}: ${applied.unlabelled.slice(0, 5).join(', ')}${applied.unlabelled.length > 5 ? ', …' : ''}`,
      );
    if (applied.unknown.length > 0)
      warnings.push(`${applied.unknown.length} id(s) in ${options.populations.name} not in the data`);
    data = {
      ...applied.data,
      source: {
        ...data.source!,
        warnings,
        assumptions: [...data.source!.assumptions, `populations from ${options.populations.name}`],
      },
    };
  }
  return data;
}

/**
 * The individuals of a dataset (ids, and populations as readDataset gives them) without its
 * genotypes where the format keeps them apart (a PLINK .bed's .fam); other formats are read whole.
 */
export async function readDatasetIndividuals(
  files: DatasetFiles,
  options: ReadOptions = {},
): Promise<readonly Individual[]> {
  const format = options.format ?? (await detectFormat(files.main));
  if (format !== 'plink-bed' || options.individuals) return (await readDataset(files, options)).individuals;
  const { individuals } = await readFam(companion(files, 'fam'), options.plink);
  if (!options.populations) return individuals;
  const labelled = applyPopulations(
    { ploidy: 2, individuals, loci: [], calls: new Int8Array(0), phased: false },
    await readPopulationFile(options.populations),
  );
  return [...labelled.data.individuals];
}

function assertNever(x: never): never {
  throw new Error(`unknown format ${String(x)}`);
}
