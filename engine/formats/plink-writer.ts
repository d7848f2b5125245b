// Binary PLINK filesets (.bed SNP-major, .bim, .fam) for diploid data of at most two alleles a
// locus: what `stratify filter` hands to PLINK, ADMIXTURE, fastmixture and the rest.
import { locusPloidy, MISSING, type GenotypeData } from '../data/genotype-data.ts';
import { locusCalls } from '../data/packed-calls.ts';

/** The three files: .bed bytes (with its magic), .bim and .fam lines. */
export interface PlinkFileset {
  readonly bed: Uint8Array;
  readonly bim: Iterable<string>;
  readonly fam: Iterable<string>;
}

/** Why the data cannot be a binary PLINK fileset (the first locus at fault), or undefined. */
export function plinkProblem(data: GenotypeData): string | undefined {
  if (data.ploidy !== 2) return `PLINK holds diploid data; this dataset has ploidy ${data.ploidy}`;
  for (let l = 0; l < data.loci.length; l++) {
    const locus = data.loci[l]!;
    if (locus.alleles.length > 2)
      return `PLINK holds two alleles a locus; locus ${locus.name} has ${locus.alleles.length}`;
    if (locusPloidy(data, l) !== 2) return `PLINK holds diploid loci; locus ${locus.name} is haploid`;
  }
  return undefined;
}

/** PLINK's two-bit code of a genotype (allele indices into loci[l].alleles): 00 = (0,0), 01 missing, 10 = (0,1), 11 = (1,1). */
function code(a: number, b: number): number {
  if (a === MISSING || b === MISSING) return 1;
  return a + b === 0 ? 0 : a + b === 1 ? 2 : 3;
}

/**
 * The dataset as a binary PLINK fileset: allele 0 is A1, allele 1 A2 ("0" where a locus has one
 * allele); chromosome "0" and position 0 where the loci have none (PLINK's unknown); FID the
 * population (or the IID where there is none), parents, sex and phenotype unknown.
 */
export function writePlinkFileset(data: GenotypeData): PlinkFileset {
  const problem = plinkProblem(data);
  if (problem) throw new Error(`${problem}: write VCF instead (--out-format vcf)`);
  const N = data.individuals.length;
  const L = data.loci.length;
  const per = Math.ceil(N / 4);
  const bed = new Uint8Array(3 + L * per);
  bed.set([0x6c, 0x1b, 0x01]);
  if (data.packed) bed.set(data.packed.bytes.subarray(0, L * per), 3);
  else {
    const scratch = new Int8Array(2 * N);
    for (let l = 0; l < L; l++) {
      const calls = locusCalls(data, l, scratch);
      const at = 3 + l * per;
      for (let i = 0; i < N; i++) bed[at + (i >> 2)]! |= code(calls[2 * i]!, calls[2 * i + 1]!) << (2 * (i & 3));
    }
  }
  function* bim(): Generator<string> {
    for (const locus of data.loci)
      yield `${locus.chrom ?? '0'}\t${locus.name}\t0\t${locus.pos ?? 0}\t${locus.alleles[0] ?? '0'}\t${locus.alleles[1] ?? '0'}`;
  }
  function* fam(): Generator<string> {
    for (const ind of data.individuals) yield [ind.population ?? ind.id, ind.id, '0', '0', '0', '-9'].join('\t');
  }
  return { bed, bim: bim(), fam: fam() };
}
