import { alleleCounts, minorAlleleFrequency } from './allele-counts.ts';
import { locusPloidy, MISSING, range, type GenotypeData } from './genotype-data.ts';
import { chromosomeKey, chromosomeSet, DEFAULT_SEX_CHROMOSOMES } from './chromosomes.ts';
import { indepPairwise, pairwisePruningProblem, thinByDistance, type PairwisePruning } from './ld-prune.ts';
import { locusCalls, subsetDataset } from './packed-calls.ts';
import { packedIndividualMissing, packedLocusCounter } from './packed-counts.ts';
import { hweExactP } from './hardy-weinberg.ts';

/**
 * What to keep before an analysis, with PLINK's names and meanings (each off when undefined).
 * Plain data (lists, numbers): it travels to the engine and into project files.
 */
export interface FilterOptions {
  /** --chr: only these chromosomes (chromosomes.ts names: "chr" prefix and case ignored). */
  chromosomes?: readonly string[];
  /** --not-chr: leave these chromosomes out. */
  notChromosomes?: readonly string[];
  /**
   * Leave out the sex and organelle chromosomes (`sexChromosomes`, default X, Y, XY, MT): what
   * clustering and PCA do unless told to keep them.
   */
  dropSexChromosomes?: boolean;
  /** --sex-chr: the names that are sex or organelle chromosomes (e.g. Z, W, MT for birds). */
  sexChromosomes?: readonly string[];
  /** --extract: only loci of these names. */
  extract?: readonly string[];
  /** --exclude: leave out loci of these names. */
  exclude?: readonly string[];
  /** --mind: drop individuals whose share of missing genotypes exceeds this. */
  maxIndividualMissing?: number;
  /** --geno: drop loci whose share of missing genotypes exceeds this. */
  maxLocusMissing?: number;
  /** Drop loci with fewer than two observed alleles. */
  dropMonomorphic?: boolean;
  /** --maf: drop loci whose minor-allele frequency (second most common allele) is below this. */
  minMaf?: number;
  /**
   * --hwe: drop diploid two-allele loci whose Hardy–Weinberg exact test p-value is below this —
   * within each population where the individuals have populations (a locus fails when it fails in
   * any; pooled populations fail the test by their differences alone), else over all (PLINK's).
   */
  minHweP?: number;
  /** --thin-bp: keep a locus only this many bases or more after the last one kept (per chromosome). */
  thinBp?: number;
  /** --indep-pairwise: prune for linkage as PLINK does (ld-prune.ts). */
  indepPairwise?: PairwisePruning;
}

/** The step that leaves out the sex and organelle chromosomes (FilterStep.step). */
export const SEX_CHROMOSOME_STEP = 'sex and organelle chromosomes';

export interface Removed {
  readonly name: string;
  readonly reason: string;
}

/** One step of the filters: what it is, and how many individuals and loci it removed. */
export interface FilterStep {
  readonly step: string;
  readonly individuals: number;
  readonly loci: number;
}

export interface FilterResult {
  readonly data: GenotypeData;
  readonly removedIndividuals: readonly Removed[];
  readonly removedLoci: readonly Removed[];
  /** The steps that ran, in order, with their counts (a summary line each). */
  readonly steps: readonly FilterStep[];
  /** With indepPairwise: the names of the loci the pruning kept and removed (prune.in, prune.out). */
  readonly pruned?: { readonly kept: readonly string[]; readonly removed: readonly string[] };
}

/** What is wrong with the options (before any data is read), or undefined. */
export function filterProblem(o: FilterOptions): string | undefined {
  const fractions: [string, number | undefined][] = [
    ['--mind', o.maxIndividualMissing],
    ['--geno', o.maxLocusMissing],
    ['--maf', o.minMaf],
  ];
  for (const [flag, v] of fractions)
    if (v !== undefined && !(v >= 0 && v <= 1)) return `${flag} takes a fraction from 0 to 1, got ${v}`;
  if (o.minHweP !== undefined && !(o.minHweP >= 0 && o.minHweP <= 1))
    return `--hwe takes a p-value from 0 to 1, got ${o.minHweP}`;
  if (o.minMaf !== undefined && o.minMaf > 0.5)
    return `--maf takes a fraction up to 0.5 (a minor allele), got ${o.minMaf}`;
  if (o.thinBp !== undefined && !(Number.isInteger(o.thinBp) && o.thinBp >= 1))
    return `--thin-bp takes a whole number of bases, 1 or more, got ${o.thinBp}`;
  if (o.indepPairwise) {
    const p = pairwisePruningProblem(o.indepPairwise);
    if (p) return `--indep-pairwise: ${p}`;
  }
  return undefined;
}

/** The chromosomes a file names that a list does not (to refuse "--chr 23" on a file without it). */
export function unknownChromosomes(data: GenotypeData, names: readonly string[]): string[] {
  const present = new Set(data.loci.map((l) => (l.chrom === undefined ? '' : chromosomeKey(l.chrom))));
  return names.filter((n) => !present.has(chromosomeKey(n)));
}

/** Whether individual i's genotype in a locus's calls (`P` values an individual, `Pl` used) has a missing copy. */
function genotypeMissing(calls: ArrayLike<number>, i: number, P: number, Pl: number): boolean {
  for (let p = 0; p < Pl; p++) if (calls[i * P + p] === MISSING) return true;
  return false;
}

/** Each individual's share of missing genotypes (a genotype with any copy missing) over `loci`. */
function individualMissing(data: GenotypeData, loci: readonly number[]): Float64Array {
  const N = data.individuals.length;
  if (data.packed) return packedIndividualMissing(data.packed, N, loci);
  const P = data.ploidy;
  const miss = new Float64Array(N);
  for (const l of loci) {
    const calls = locusCalls(data, l);
    const Pl = locusPloidy(data, l);
    for (let i = 0; i < N; i++) if (genotypeMissing(calls, i, P, Pl)) miss[i]!++;
  }
  for (let i = 0; i < N; i++) miss[i] = loci.length > 0 ? miss[i]! / loci.length : 0;
  return miss;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/**
 * The --hwe test of each locus: the reason it fails (p below `min` in a population, or over all
 * individuals when none has a population), or undefined. Only diploid loci of two alleles are
 * tested; genotypes with a missing copy are left out.
 */
function hweTester(data: GenotypeData, keepInd: readonly number[], min: number): (l: number) => string | undefined {
  const groups = new Map<string, number[]>();
  for (const i of keepInd) {
    const pop = data.individuals[i]!.population;
    if (pop === undefined) continue;
    if (!groups.has(pop)) groups.set(pop, []);
    groups.get(pop)!.push(i);
  }
  const sets: [string | undefined, readonly number[]][] = groups.size > 0 ? [...groups] : [[undefined, keepInd]];
  const packed = data.packed;
  const N = data.individuals.length;
  const counters = packed ? sets.map(([, members]) => packedLocusCounter(packed, N, members)) : undefined;
  const P = data.ploidy;
  return (l) => {
    if (data.loci[l]!.alleles.length !== 2 || locusPloidy(data, l) !== 2) return undefined;
    const calls = counters ? undefined : locusCalls(data, l);
    for (let g = 0; g < sets.length; g++) {
      let hom0 = 0;
      let het = 0;
      let hom1 = 0;
      if (counters) ({ hom0, het, hom1 } = counters[g]!(l));
      else
        for (const i of sets[g]![1]) {
          const a = calls![i * P]!;
          const b = calls![i * P + 1]!;
          if (a === MISSING || b === MISSING) continue;
          if (a !== b) het++;
          else if (a === 0) hom0++;
          else hom1++;
        }
      const p = hweExactP(het, hom0, hom1);
      if (p < min)
        return `HWE p = ${p.toExponential(2)} < ${min}${sets[g]![0] === undefined ? '' : ` in ${sets[g]![0]}`}`;
    }
    return undefined;
  };
}

/**
 * Applies the filters in PLINK's order: loci by name and chromosome (--extract, --exclude, --chr,
 * --not-chr, sex chromosomes); individuals by missingness (--mind, over those loci); loci by
 * missingness (--geno), monomorphism and minor-allele frequency (--maf), on the individuals kept;
 * then --thin-bp and linkage pruning (--indep-pairwise) on what remains. Missingness counts
 * genotypes (PLINK's call rate): a genotype with any copy missing is missing.
 */
export function applyFilters(data: GenotypeData, opts: FilterOptions): FilterResult {
  const problem = filterProblem(opts);
  if (problem) throw new RangeError(problem);
  const steps: FilterStep[] = [];
  const removedIndividuals: Removed[] = [];
  const removedLoci: Removed[] = [];
  let loci = range(data.loci.length);
  const byLocus = (step: string, drop: (l: number) => string | undefined) => {
    const before = loci.length;
    loci = loci.filter((l) => {
      const reason = drop(l);
      if (reason !== undefined) removedLoci.push({ name: data.loci[l]!.name, reason });
      return reason === undefined;
    });
    steps.push({ step, individuals: 0, loci: before - loci.length });
  };
  if (opts.extract) {
    const names = new Set(opts.extract);
    byLocus('--extract', (l) => (names.has(data.loci[l]!.name) ? undefined : 'not in the --extract list'));
  }
  if (opts.exclude) {
    const names = new Set(opts.exclude);
    byLocus('--exclude', (l) => (names.has(data.loci[l]!.name) ? 'in the --exclude list' : undefined));
  }
  if (opts.chromosomes) {
    const kept = chromosomeSet(opts.chromosomes);
    byLocus('--chr', (l) => (kept(data.loci[l]!.chrom) ? undefined : `chromosome ${data.loci[l]!.chrom ?? '(none)'}`));
  }
  if (opts.notChromosomes) {
    const left = chromosomeSet(opts.notChromosomes);
    byLocus('--not-chr', (l) => (left(data.loci[l]!.chrom) ? `chromosome ${data.loci[l]!.chrom}` : undefined));
  }
  if (opts.dropSexChromosomes) {
    const sex = chromosomeSet(opts.sexChromosomes ?? DEFAULT_SEX_CHROMOSOMES);
    byLocus(SEX_CHROMOSOME_STEP, (l) =>
      sex(data.loci[l]!.chrom) ? `sex or organelle chromosome ${data.loci[l]!.chrom}` : undefined,
    );
  }
  let keepInd = range(data.individuals.length);
  if (opts.maxIndividualMissing !== undefined) {
    const miss = individualMissing(data, loci);
    const max = opts.maxIndividualMissing;
    keepInd = keepInd.filter((i) => {
      if (miss[i]! <= max) return true;
      removedIndividuals.push({ name: data.individuals[i]!.id, reason: `missing ${pct(miss[i]!)} > ${pct(max)}` });
      return false;
    });
    steps.push({ step: '--mind', individuals: data.individuals.length - keepInd.length, loci: 0 });
  }
  if (
    opts.maxLocusMissing !== undefined ||
    opts.dropMonomorphic ||
    opts.minMaf !== undefined ||
    opts.minHweP !== undefined
  ) {
    const N = data.individuals.length;
    const P = data.ploidy;
    const counts = { geno: 0, monomorphic: 0, maf: 0, hwe: 0 };
    const hwe = opts.minHweP === undefined ? undefined : hweTester(data, keepInd, opts.minHweP);
    // Per locus: missing genotypes among the kept individuals, and allele counts (from the .bed
    // codes where the data are packed; unpacked data are read where they lie).
    const packed = data.packed;
    const kept = keepInd.length === N ? undefined : keepInd;
    const codeCounts = packed ? packedLocusCounter(packed, N, kept) : undefined;
    const tally = (l: number): { missing: number; alleles: Float64Array } => {
      if (codeCounts) {
        const c = codeCounts(l);
        const alleles = new Float64Array(data.loci[l]!.alleles.length);
        alleles[0] = 2 * c.hom0 + c.het;
        if (alleles.length > 1) alleles[1] = 2 * c.hom1 + c.het;
        return { missing: c.missing, alleles };
      }
      const calls = locusCalls(data, l);
      const Pl = locusPloidy(data, l);
      let missing = 0;
      for (const i of keepInd) if (genotypeMissing(calls, i, P, Pl)) missing++;
      return { missing, alleles: alleleCounts(data, l, keepInd) };
    };
    loci = loci.filter((l) => {
      const name = data.loci[l]!.name;
      const { missing, alleles: c } = tally(l);
      if (opts.maxLocusMissing !== undefined) {
        const f = keepInd.length === 0 ? 0 : missing / keepInd.length;
        if (f > opts.maxLocusMissing) {
          removedLoci.push({ name, reason: `missing ${pct(f)} > ${pct(opts.maxLocusMissing)}` });
          counts.geno++;
          return false;
        }
      }
      if (opts.dropMonomorphic && c.filter((x) => x > 0).length < 2) {
        removedLoci.push({ name, reason: 'monomorphic' });
        counts.monomorphic++;
        return false;
      }
      if (opts.minMaf !== undefined) {
        const maf = minorAlleleFrequency(c);
        if (!(maf >= opts.minMaf)) {
          removedLoci.push({
            name,
            reason: `MAF ${Number.isNaN(maf) ? 'undefined' : maf.toFixed(4)} < ${opts.minMaf}`,
          });
          counts.maf++;
          return false;
        }
      }
      const failed = hwe?.(l);
      if (failed) {
        removedLoci.push({ name, reason: failed });
        counts.hwe++;
        return false;
      }
      return true;
    });
    if (opts.maxLocusMissing !== undefined) steps.push({ step: '--geno', individuals: 0, loci: counts.geno });
    if (opts.dropMonomorphic) steps.push({ step: 'monomorphic', individuals: 0, loci: counts.monomorphic });
    if (opts.minMaf !== undefined) steps.push({ step: '--maf', individuals: 0, loci: counts.maf });
    if (opts.minHweP !== undefined) steps.push({ step: '--hwe', individuals: 0, loci: counts.hwe });
  }
  // Nothing removed: the dataset itself (a copy of a large one costs memory for nothing).
  let out =
    loci.length === data.loci.length && keepInd.length === data.individuals.length
      ? data
      : subsetDataset(data, loci, keepInd);
  if (opts.thinBp !== undefined) {
    const thin = thinByDistance(out, opts.thinBp);
    for (const l of thin.removed)
      removedLoci.push({ name: out.loci[l]!.name, reason: `within ${opts.thinBp} bp of the last locus kept` });
    steps.push({ step: '--thin-bp', individuals: 0, loci: thin.removed.length });
    out = subsetDataset(out, thin.kept, range(out.individuals.length));
  }
  let pruned: FilterResult['pruned'];
  if (opts.indepPairwise) {
    const prune = indepPairwise(out, opts.indepPairwise);
    for (const l of prune.removed)
      removedLoci.push({ name: out.loci[l]!.name, reason: 'in linkage (--indep-pairwise)' });
    steps.push({ step: '--indep-pairwise', individuals: 0, loci: prune.removed.length });
    pruned = {
      kept: prune.kept.map((l) => out.loci[l]!.name),
      removed: prune.removed.map((l) => out.loci[l]!.name),
    };
    out = subsetDataset(out, prune.kept, range(out.individuals.length));
  }
  return { data: out, removedIndividuals, removedLoci, steps, ...(pruned ? { pruned } : {}) };
}
