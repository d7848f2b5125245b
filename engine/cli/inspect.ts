import type { DatasetSummary } from '../data/summary.ts';

function pct(x: number): string {
  return `${(100 * x).toFixed(2)}%`;
}

function fmt(x: number): string {
  return Number.isNaN(x) ? 'n/a' : x.toFixed(3);
}

/** The largest value, 0 for none (a loop: spreading 200,000 loci into Math.max overflows the stack). */
function largest(xs: ArrayLike<number>): number {
  let m = 0;
  for (let k = 0; k < xs.length; k++) m = Math.max(m, xs[k]!);
  return m;
}

/** The human-readable summary printed by `stratify inspect`. */
export function formatSummary(s: DatasetSummary): string {
  const lines: string[] = [];
  lines.push(`file         ${s.file ?? ''}`);
  lines.push(`format       ${s.format ?? 'unknown'}`);
  lines.push(`individuals  ${s.individuals}`);
  lines.push(`loci         ${s.loci}`);
  const named = s.chromosomes.filter((c) => c.chrom !== '');
  if (named.length > 0) {
    const shown = named.slice(0, 40).map((c) => `${c.chrom} (${c.loci})`);
    lines.push(
      `chromosomes  ${named.length}: ${shown.join(', ')}${named.length > 40 ? `, … ${named.length - 40} more` : ''}`,
    );
  }
  lines.push(`ploidy       ${s.ploidy}${s.phased && s.ploidy > 1 ? ' (phased)' : ''}`);
  const labelled = s.populations.filter((p) => p.name !== '');
  lines.push(
    `populations  ${labelled.length}${s.populations.length > labelled.length ? ` (+${s.populations.find((p) => p.name === '')!.count} unlabelled)` : ''}`,
  );
  for (const p of labelled) lines.push(`  ${p.name.padEnd(24)} ${p.count}`);
  if (s.groups.length > 0) {
    lines.push(`groups       ${s.groups.length}`);
    for (const g of s.groups) lines.push(`  ${(g.name || '(none)').padEnd(24)} ${g.count}`);
  }
  lines.push(
    `alleles      per locus min ${s.allelesMin}, median ${s.allelesMedian}, max ${s.allelesMax}; total ${s.allelesTotal}`,
  );
  lines.push(`biallelic    ${s.biallelic} loci; monomorphic ${s.monomorphic}`);
  lines.push(`missing      ${pct(s.missingRate)} of allele copies, ${pct(s.missingGenotypeRate)} of genotypes`);
  lines.push(
    `             worst locus ${pct(largest(s.missingPerLocus))}, worst individual ${pct(largest(s.missingPerIndividual))}`,
  );
  lines.push(`Ho / He      ${fmt(s.meanHo)} / ${fmt(s.meanHe)} (mean over loci)`);
  if (s.assumptions.length > 0) {
    lines.push('read as');
    for (const a of s.assumptions) lines.push(`  - ${a}`);
  }
  if (s.warnings.length > 0) {
    lines.push('warnings');
    for (const w of s.warnings) lines.push(`  ! ${w}`);
  }
  return lines.join('\n');
}

/** The JSON form of the summary (typed arrays as plain arrays). */
export function summaryJson(s: DatasetSummary): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s))
    out[k] = ArrayBuffer.isView(v) ? Array.from(v as Float64Array, (x) => (Number.isNaN(x) ? null : x)) : v;
  return out;
}
