import { locusPloidy, MISSING, populationsOf, type GenotypeData } from '../data/genotype-data.ts';

/** The header columns of a VCF before the samples' (VCF 4.2, section 1.5). */
export const VCF_FIXED_COLUMNS = ['#CHROM', 'POS', 'ID', 'REF', 'ALT', 'QUAL', 'FILTER', 'INFO', 'FORMAT'] as const;

/** Text of an exported file, produced line by line, plus notes on anything recoded. */
export interface WrittenFile {
  readonly lines: Iterable<string>;
  readonly notes: readonly string[];
}

/** Joins written lines with LF (for small files, tests and downloads). */
export function toText(w: WrittenFile): string {
  let s = '';
  for (const l of w.lines) s += l + '\n';
  return s;
}

/** Per-locus integer codes for allele names: the names themselves when all are integers. */
function integerAlleleCodes(data: GenotypeData, max: number): { codes: string[][]; recoded: number } {
  let recoded = 0;
  const codes = data.loci.map((locus) => {
    const asInts = locus.alleles.every((a) => /^\d+$/.test(a) && Number(a) >= 1 && Number(a) <= max);
    if (asInts) return locus.alleles.map((a) => String(Number(a)));
    recoded++;
    return locus.alleles.map((_, k) => String(k + 1));
  });
  return { codes, recoded };
}

/** Integer population codes: the labels themselves when all are positive integers. */
function populationCodes(data: GenotypeData): { code: (pop: string | undefined) => string; note?: string } {
  const pops = populationsOf(data);
  if (pops.every((p) => /^\d+$/.test(p))) return { code: (p) => p ?? '0' };
  const index = new Map(pops.map((p, k) => [p, String(k + 1)]));
  return {
    code: (p) => (p === undefined ? '0' : index.get(p)!),
    note: `population labels written as integers: ${pops.map((p, k) => `${k + 1}=${p}`).join(', ')}`,
  };
}

/**
 * STRUCTURE, one row per individual: a marker-name row, then `label [pop] alleles…` with
 * `ploidy` values per locus and -9 for missing (LABEL=1, POPDATA=1 when populations are known,
 * MARKERNAMES=1, ONEROWPERIND=1).
 */
export function writeStructure(data: GenotypeData): WrittenFile {
  const { codes, recoded } = integerAlleleCodes(data, Number.MAX_SAFE_INTEGER);
  const hasPop = data.individuals.some((i) => i.population !== undefined);
  const pops = populationCodes(data);
  const notes: string[] = [];
  if (recoded > 0) notes.push(`${recoded} locus/loci with non-integer allele names written as allele indices 1..k`);
  if (hasPop && pops.note) notes.push(pops.note);
  const N = data.individuals.length;
  const P = data.ploidy;
  function* lines(): Generator<string> {
    yield data.loci.map((l) => l.name).join(' ');
    for (let i = 0; i < N; i++) {
      const ind = data.individuals[i]!;
      const parts: string[] = [ind.id];
      if (hasPop) parts.push(pops.code(ind.population));
      for (let l = 0; l < data.loci.length; l++) {
        for (let p = 0; p < P; p++) {
          const a = data.calls[(l * N + i) * P + p]!;
          parts.push(a === MISSING ? '-9' : codes[l]![a]!);
        }
      }
      yield parts.join(' ');
    }
  }
  return { lines: lines(), notes };
}

/**
 * GENEPOP with 3-digit allele codes (000 missing); individuals are grouped by population
 * (a `Pop` line each, in order of first appearance). Haploid or diploid data only.
 */
export function writeGenepop(data: GenotypeData, title = 'Written by Stratify'): WrittenFile {
  if (data.ploidy > 2)
    throw new RangeError(`writeGenepop: GENEPOP holds haploid or diploid data, not ploidy ${data.ploidy}`);
  const { codes, recoded } = integerAlleleCodes(data, 999);
  const notes: string[] = [];
  if (recoded > 0) notes.push(`${recoded} locus/loci with allele names that are not 1..999 written as allele indices`);
  notes.push('GENEPOP has no population names: populations are separated by Pop lines');
  const N = data.individuals.length;
  const P = data.ploidy;
  const order: number[][] = [];
  const byPop = new Map<string | undefined, number[]>();
  data.individuals.forEach((ind, i) => {
    let g = byPop.get(ind.population);
    if (!g) {
      g = [];
      byPop.set(ind.population, g);
      order.push(g);
    }
    g.push(i);
  });
  function* lines(): Generator<string> {
    yield title.replace(/[\r\n]+/g, ' ');
    for (const l of data.loci) yield l.name;
    for (const g of order) {
      yield 'Pop';
      for (const i of g) {
        const parts: string[] = [];
        for (let l = 0; l < data.loci.length; l++) {
          let gt = '';
          for (let p = 0; p < locusPloidy(data, l); p++) {
            const a = data.calls[(l * N + i) * P + p]!;
            gt += a === MISSING ? '000' : codes[l]![a]!.padStart(3, '0');
          }
          parts.push(gt);
        }
        yield `${data.individuals[i]!.id.replace(/,/g, '_')} , ${parts.join(' ')}`;
      }
    }
  }
  return { lines: lines(), notes };
}

/**
 * VCF 4.2 with a GT field. Allele names are written as REF (first allele) and ALT; CHROM and
 * POS come from the loci (or '1' and the locus number). Populations are not part of VCF:
 * write them with {@link writePopulationFile}.
 */
export function writeVcf(data: GenotypeData): WrittenFile {
  const N = data.individuals.length;
  const P = data.ploidy;
  const sep = data.phased ? '|' : '/';
  function* lines(): Generator<string> {
    yield '##fileformat=VCFv4.2';
    yield '##source=Stratify';
    yield '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">';
    yield [...VCF_FIXED_COLUMNS, ...data.individuals.map((i) => i.id)].join('\t');
    for (let l = 0; l < data.loci.length; l++) {
      const locus = data.loci[l]!;
      const alleles = locus.alleles.length > 0 ? locus.alleles : ['N'];
      const parts = [
        locus.chrom ?? '1',
        String(locus.pos ?? l + 1),
        locus.name,
        alleles[0]!,
        alleles.length > 1 ? alleles.slice(1).join(',') : '.',
        '.',
        '.',
        '.',
        'GT',
      ];
      for (let i = 0; i < N; i++) {
        const gt: string[] = [];
        for (let p = 0; p < locusPloidy(data, l); p++) {
          const a = data.calls[(l * N + i) * P + p]!;
          gt.push(a === MISSING ? '.' : String(a));
        }
        parts.push(gt.join(sep));
      }
      yield parts.join('\t');
    }
  }
  return { lines: lines(), notes: [] };
}

/** A two- or three-column population file: id, population[, group], with a header. */
export function writePopulationFile(data: GenotypeData): WrittenFile {
  const withGroup = data.individuals.some((i) => i.group !== undefined);
  function* lines(): Generator<string> {
    yield withGroup ? 'id\tpop\tgroup' : 'id\tpop';
    for (const i of data.individuals)
      yield [i.id, i.population ?? '', ...(withGroup ? [i.group ?? ''] : [])].join('\t');
  }
  return { lines: lines(), notes: [] };
}
