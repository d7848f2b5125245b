import { allocate, sharedMemory } from '../util/shared-memory.ts';
import { IndividualMajorBuilder } from '../data/builder.ts';
import { locusRepacker, packedGenotypeData } from '../data/packed-calls.ts';
import type { GenotypeData, Individual } from '../data/genotype-data.ts';
import type { ByteSource, ProgressCallback } from '../io/byte-source.ts';
import { readAllLines, readLines, tokenize, type Line } from '../io/lines.ts';
import { FormatError } from '../io/format-error.ts';
import { readAllText, scanFields } from '../io/fields.ts';
import type { NamedIndividual } from './individual-list.ts';

export interface PlinkOptions {
  /**
   * Population label of each individual: the family id, none, or (default, 'auto') the family id
   * when the family ids look like populations (see {@link fidLooksLikePopulations}).
   */
  population?: 'fid' | 'none' | 'auto';
  /** The missing-allele code in .ped files (default '0'). */
  missing?: string;
  /**
   * .bed: the individuals to read (indices into the .fam, ascending) from the .fam's individuals;
   * only their codes are kept as the .bed streams past, so memory follows the individuals kept.
   */
  select?: (individuals: readonly NamedIndividual[]) => Promise<number[]>;
  onProgress?: ProgressCallback;
}

interface MapEntry {
  name: string;
  chrom: string;
  pos: number;
  alleles?: [string, string];
}

/** Reads a .map (chr, id, [cM,] bp) or .bim (chr, id, cM, bp, a1, a2) file. */
async function readVariantTable(source: ByteSource, kind: 'map' | 'bim'): Promise<MapEntry[]> {
  const out: MapEntry[] = [];
  // Chromosome names and alleles repeat: one string each rather than one a line.
  const names = new Map<string, string>();
  const shared = (s: string) => names.get(s) ?? (names.set(s, s), s);
  let previousChrom = '';
  scanFields(await readAllText(source), (line) => {
    const n = line.count;
    if (n === 0) return;
    if (kind === 'bim' ? n !== 6 : n !== 3 && n !== 4) {
      throw new FormatError(
        source.name,
        line.number,
        line.lastColumn,
        `${n} columns`,
        kind === 'bim' ? '6 columns: chr id cM bp a1 a2' : '4 columns: chr id cM bp (or 3: chr id bp)',
      );
    }
    const bp = n === 3 ? 2 : 3;
    const pos = line.integer(bp);
    if (Number.isNaN(pos))
      throw new FormatError(
        source.name,
        line.number,
        line.column(bp),
        `position "${line.text(bp)}" is not a whole number`,
        'a base-pair position',
      );
    let chrom = line.text(0);
    chrom = chrom === previousChrom ? previousChrom : (previousChrom = shared(chrom));
    // In Locus's own field order: a .bim's entries are the dataset's loci as they are.
    out.push(
      kind === 'bim'
        ? { name: line.text(1), chrom, pos, alleles: [shared(line.text(4)), shared(line.text(5))] }
        : { name: line.text(1), chrom, pos },
    );
  });
  if (out.length === 0) throw new FormatError(source.name, 1, 1, 'no variants', `a non-empty .${kind} file`);
  return out;
}

function famIndividual(tok: { text: string }[]): { fid: string; iid: string; ind: Individual } {
  const fid = tok[0]!.text;
  const iid = tok[1]!.text;
  return { fid, iid, ind: { id: iid, population: fid } };
}

/**
 * Whether family ids look like population labels: fewer distinct ones than a third of the
 * individuals. PLINK's own default FID is the IID (or a family of a few relatives), which would
 * make every individual or family a "population" of its own.
 */
export function fidLooksLikePopulations(fids: readonly string[]): boolean {
  return new Set(fids).size < fids.length / 3;
}

/** Drops the FID labels unless asked for or they look like populations; says which in `assumptions`. */
function fidPopulations(
  rows: { fid: string; iid: string; ind: Individual }[],
  options: PlinkOptions,
  assumptions: string[],
): void {
  const mode = options.population ?? 'auto';
  const distinct = new Set(rows.map((r) => r.fid)).size;
  const use = mode === 'fid' || (mode === 'auto' && fidLooksLikePopulations(rows.map((r) => r.fid)));
  if (mode === 'none') assumptions.push('no population labels');
  else if (use) assumptions.push(`family id (FID) used as population (${distinct} distinct)`);
  else
    assumptions.push(
      `family ids (FID) not used as populations: ${distinct} distinct among ${rows.length} individuals look like families or ids (--fid-pop to use them, --pops FILE to give populations)`,
    );
  if (!use) for (const r of rows) r.ind = { id: r.ind.id };
}

/** Makes ids unique: IID when unique, FID_IID otherwise (reported). */
function uniqueIds(
  rows: { fid: string; iid: string; ind: Individual }[],
  assumptions: string[],
  file: string,
  lines: Line[],
): Individual[] {
  const iids = new Set(rows.map((r) => r.iid));
  if (iids.size === rows.length) return rows.map((r) => r.ind);
  assumptions.push('individual ids repeat across families: ids are FID_IID');
  const seen = new Map<string, number>();
  return rows.map((r, k) => {
    const id = `${r.fid}_${r.iid}`;
    if (seen.has(id))
      throw new FormatError(
        file,
        lines[k]!.number,
        1,
        `duplicate individual "${r.fid} ${r.iid}"`,
        'unique (FID, IID) pairs',
      );
    seen.set(id, k);
    return { ...r.ind, id };
  });
}

/** Reads PLINK text files: .ped (FID IID PAT MAT SEX PHENO, then 2 alleles per SNP) with its .map. */
export async function readPlinkPed(
  ped: ByteSource,
  map: ByteSource,
  options: PlinkOptions = {},
): Promise<GenotypeData> {
  const variants = await readVariantTable(map, 'map');
  const L = variants.length;
  const missing = options.missing ?? '0';
  const builder = new IndividualMajorBuilder(
    variants.map((v) => ({ name: v.name, chrom: v.chrom, pos: v.pos })),
    2,
  );
  const assumptions = [`missing allele code ${missing}`];
  const rows: { fid: string; iid: string; ind: Individual }[] = [];
  const lines: Line[] = [];
  let compound: boolean | undefined;
  for await (const line of readLines(ped, { onProgress: options.onProgress })) {
    const tok = tokenize(line.text);
    if (tok.length === 0) continue;
    if (compound === undefined) {
      compound = tok.length === 6 + L;
      if (compound) assumptions.push('one token per genotype (compound alleles, e.g. AG)');
    }
    const want = 6 + (compound ? L : 2 * L);
    if (tok.length !== want) {
      const col = tok.length > want ? tok[want]!.column : line.text.length + 1;
      throw new FormatError(
        ped.name,
        line.number,
        col,
        `${tok.length} columns`,
        `${want} (6 + ${compound ? '' : '2 × '}${L} SNPs from ${map.name})`,
      );
    }
    const r = famIndividual(tok);
    rows.push(r);
    lines.push(line);
    const row = builder.addIndividual(r.ind);
    for (let l = 0; l < L; l++) {
      const pair = compound
        ? splitCompound(tok[6 + l]!, ped.name, line.number)
        : [tok[6 + 2 * l]!.text, tok[7 + 2 * l]!.text];
      for (let p = 0; p < 2; p++) builder.setAllele(row, l, p, pair[p] === missing ? undefined : pair[p]);
    }
  }
  if (rows.length === 0) throw new FormatError(ped.name, 1, 1, 'no individuals', 'one line per individual');
  fidPopulations(rows, options, assumptions);
  builder.individuals.splice(0, builder.individuals.length, ...uniqueIds(rows, assumptions, ped.name, lines));
  return builder.finish({ format: 'plink-ped', file: ped.name, assumptions, warnings: [] }, false);
}

function splitCompound(t: { text: string; column: number }, file: string, line: number): [string, string] {
  if (t.text.length !== 2)
    throw new FormatError(
      file,
      line,
      t.column,
      `genotype "${t.text}"`,
      'two single-character alleles (compound genotype)',
    );
  return [t.text[0]!, t.text[1]!];
}

const BED_MAGIC = [0x6c, 0x1b, 0x01];

/**
 * The individuals of a .fam (ids unique, populations from the FIDs as `options` say, what was
 * assumed added to `assumptions`) and how a --keep list may name each.
 */
export async function readFam(
  fam: ByteSource,
  options: PlinkOptions = {},
  assumptions: string[] = [],
): Promise<{ individuals: Individual[]; named: NamedIndividual[] }> {
  const famLines = (await readAllLines(fam)).filter((l) => l.text.trim() !== '');
  const rows = famLines.map((l) => {
    const tok = tokenize(l.text);
    if (tok.length < 6)
      throw new FormatError(
        fam.name,
        l.number,
        l.text.length + 1,
        `${tok.length} columns`,
        '6 columns: FID IID PAT MAT SEX PHENO',
      );
    return famIndividual(tok);
  });
  fidPopulations(rows, options, assumptions);
  if (rows.length === 0) throw new FormatError(fam.name, 1, 1, 'no individuals', 'one line per individual');
  const individuals = uniqueIds(rows, assumptions, fam.name, famLines);
  return { individuals, named: individuals.map((ind, i) => ({ id: ind.id, fid: rows[i]!.fid, iid: rows[i]!.iid })) };
}

/**
 * A sink for a .bed's bytes after its header (loci of `per` bytes, in any chunks) that writes
 * each locus's codes of the `individuals` kept to `target`, locus after locus.
 */
function keptCodes(individuals: readonly number[], per: number, target: Uint8Array): (chunk: Uint8Array) => void {
  const repack = locusRepacker(individuals);
  const perKept = Math.ceil(individuals.length / 4);
  const locus = new Uint8Array(per);
  let filled = 0;
  let l = 0;
  return (chunk) => {
    let k = 0;
    // Whole loci straight from the chunk; a locus split between chunks through `locus`.
    if (filled > 0) {
      const take = Math.min(per - filled, chunk.length);
      locus.set(chunk.subarray(0, take), filled);
      filled += take;
      k = take;
      if (filled < per) return;
      repack(locus, 0, target, l++ * perKept);
      filled = 0;
    }
    for (; k + per <= chunk.length; k += per) repack(chunk, k, target, l++ * perKept);
    locus.set(chunk.subarray(k), 0);
    filled = chunk.length - k;
  };
}

/**
 * Reads binary PLINK files (.bed SNP-major with .bim and .fam), streaming the .bed.
 * Codes per 2 bits, low bits first: 00 hom A1, 01 missing, 10 het, 11 hom A2.
 */
export async function readPlinkBed(
  bed: ByteSource,
  bim: ByteSource,
  fam: ByteSource,
  options: PlinkOptions = {},
): Promise<GenotypeData> {
  const variants = await readVariantTable(bim, 'bim');
  const assumptions = ['SNP-major .bed'];
  const { individuals: all, named } = await readFam(fam, options, assumptions);
  const N = all.length;
  const L = variants.length;
  const per = Math.ceil(N / 4);
  const kept = options.select ? await options.select(named) : undefined;
  const subset = kept && kept.length < N ? kept : undefined;
  const individuals = subset ? subset.map((i) => all[i]!) : all;
  if (subset) assumptions.push(`${subset.length} of the ${N} individuals of ${fam.name} read`);
  // The .bed's bytes are kept as they are (packed-calls.ts: the same two-bit codes, allele 0 = A1),
  // in shared memory where there is some: worker threads then read them without a copy. With a
  // subset, each locus's codes of the individuals kept, as the locus streams past.
  const perKept = Math.ceil(individuals.length / 4);
  const bytes = allocate(Uint8Array, L * perKept, sharedMemory());
  const keep = subset ? keptCodes(subset, per, bytes) : undefined;
  let stored = 0;
  let header = 0;
  let bytesRead = 0;
  let nextReport = 1 << 20;
  for await (const chunk of bed.chunks()) {
    let k = 0;
    while (header < 3 && k < chunk.length) {
      if (chunk[k] !== BED_MAGIC[header]) {
        throw new FormatError(
          bed.name,
          1,
          header + 1,
          `byte ${header + 1} is 0x${chunk[k]!.toString(16)}`,
          header === 2 ? '0x01 (SNP-major mode)' : 'the PLINK .bed magic number 6c 1b',
        );
      }
      header++;
      k++;
    }
    if (k < chunk.length && stored + chunk.length - k > L * per)
      throw new FormatError(
        bed.name,
        1,
        bytesRead + k + L * per - stored + 1,
        'more data than the .bim lists variants',
        `${3 + L * per} bytes`,
      );
    if (keep) keep(chunk.subarray(k));
    else bytes.set(chunk.subarray(k), stored);
    stored += chunk.length - k;
    bytesRead += chunk.length;
    if (options.onProgress && bytesRead >= nextReport) {
      nextReport = bytesRead + (1 << 20);
      options.onProgress({ file: bed.name, bytesRead, totalBytes: bed.size, records: Math.floor(stored / per) });
    }
  }
  if (header < 3)
    throw new FormatError(bed.name, 1, 1, 'the file is too short for a .bed header', 'magic bytes 6c 1b 01');
  if (stored !== L * per) {
    throw new FormatError(
      bed.name,
      1,
      bytesRead + 1,
      `the file ends after ${Math.floor(stored / per)} of ${L} variants (truncated?)`,
      `${3 + L * per} bytes for ${L} variants × ${N} individuals`,
    );
  }
  options.onProgress?.({ file: bed.name, bytesRead, totalBytes: bed.size, records: L });
  const loci = variants as Required<MapEntry>[];
  return packedGenotypeData(
    { individuals, loci, source: { format: 'plink-bed', file: bed.name, assumptions, warnings: [] } },
    { bytes, bytesPerLocus: perKept },
  );
}
