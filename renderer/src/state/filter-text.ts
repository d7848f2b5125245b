// The filters a result was made with, as a line of PLINK-style flags for README files: what a
// reader needs to make the same data again (`stratify filter FILE <flags>`).
import type { FilterOptions, FilterStep } from '../../../engine/runtime/engine-protocol.ts';

/** The filters as command-line flags ("" when none). */
export function filterFlags(f: FilterOptions): string {
  const flags: string[] = [];
  if (f.extract) flags.push(`--extract (${f.extract.length} loci)`);
  if (f.exclude) flags.push(`--exclude (${f.exclude.length} loci)`);
  if (f.chromosomes) flags.push(`--chr ${f.chromosomes.join(',')}`);
  if (f.notChromosomes) flags.push(`--not-chr ${f.notChromosomes.join(',')}`);
  if (f.sexChromosomes) flags.push(`--sex-chr ${f.sexChromosomes.join(',')}`);
  if (f.maxIndividualMissing !== undefined) flags.push(`--mind ${f.maxIndividualMissing}`);
  if (f.maxLocusMissing !== undefined) flags.push(`--geno ${f.maxLocusMissing}`);
  if (f.dropMonomorphic) flags.push('(monomorphic loci dropped)');
  if (f.minMaf !== undefined) flags.push(`--maf ${f.minMaf}`);
  if (f.minHweP !== undefined) flags.push(`--hwe ${f.minHweP}`);
  if (f.thinBp !== undefined) flags.push(`--thin-bp ${f.thinBp}`);
  const p = f.indepPairwise;
  if (p) flags.push(p.kb ? `--indep-pairwise ${p.window}kb ${p.r2}` : `--indep-pairwise ${p.window} ${p.step} ${p.r2}`);
  return flags.join(' ');
}

/** README lines: the filters and what each step removed (none when the data were used as read). */
export function filterReadme(f: FilterOptions, steps: readonly FilterStep[] = []): string[] {
  const flags = filterFlags(f);
  const sex = f.dropSexChromosomes ? 'sex and organelle chromosomes left out' : 'sex and organelle chromosomes kept';
  if (!flags && !f.dropSexChromosomes) return [];
  const removed = steps
    .filter((s) => s.individuals + s.loci > 0)
    .map(
      (s) =>
        `${s.step}: ${[s.individuals ? `${s.individuals} individuals` : '', s.loci ? `${s.loci} loci` : ''].filter(Boolean).join(', ')}`,
    );
  return [
    `Filters before clustering: ${[flags, sex].filter(Boolean).join('; ')}.`,
    ...(removed.length > 0 ? [`  Removed — ${removed.join('; ')}.`] : []),
  ];
}
