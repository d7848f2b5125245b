import type { GenotypeData } from '../data/genotype-data.ts';
import { VERSION } from '../util/version.ts';
import type { SweepOptions, SweepRun } from '../model/sweep.ts';

/** Rounds for JSON output (keeps files small, 1e-9 relative is far below any use). */
export function r(x: number): number {
  return Number.isFinite(x) ? Number(x.toPrecision(10)) : x;
}

/** An (n, width) row-major array as JSON rows, rounded by {@link r}. */
export function rows(a: ArrayLike<number>, width: number): number[][] {
  const out: number[][] = [];
  for (let k = 0; k < a.length; k += width) out.push(Array.from({ length: width }, (_, j) => r(a[k + j]!)));
  return out;
}

/** Everything about a sweep as one JSON-serialisable object (the CLI's result file). */
export function sweepJson(
  data: GenotypeData,
  options: SweepOptions | undefined,
  runs: readonly SweepRun[],
  cancelled: boolean,
): Record<string, unknown> {
  return {
    program: 'stratify',
    version: VERSION,
    dataset: {
      file: data.source?.file,
      format: data.source?.format,
      individuals: data.individuals.map((i) => ({
        id: i.id,
        population: i.population ?? null,
        group: i.group ?? null,
      })),
      loci: data.loci.map((l) => ({ name: l.name, alleles: l.alleles, chrom: l.chrom ?? null, pos: l.pos ?? null })),
      ploidy: data.ploidy,
    },
    options: options ?? null,
    cancelled,
    runs: runs.map((run) => {
      const c = run.clustering;
      return {
        K: run.K,
        replicate: run.replicate,
        policy: c.policy,
        logLik: r(c.logLik),
        completedStarts: run.completedStarts,
        model: run.model ?? 'mixture',
        ...(run.cvError !== undefined ? { cvError: r(run.cvError) } : {}),
        bestStart: c.bestStart,
        ...(c.algorithmChoice ? { algorithmChoice: c.algorithmChoice } : {}),
        starts: c.starts.map((s) => ({ ...s, logLik: r(s.logLik), score: r(s.score) })),
        weights: Array.from(c.model.weights, r),
        Q: rows(c.Q, c.K),
        /** Per (locus, allele) row, K cluster frequencies. */
        frequencies: rows(c.model.theta, c.K),
        informative: Array.from(c.informative, r),
        independence: Array.from(c.independence, r),
        ...(c.linkage
          ? {
              linkage: c.linkage.map((p) => ({
                locus: p.locus,
                cluster: r(p.cluster),
                parents: p.parents.map((q) => ({ locus: q.locus, weight: r(q.weight) })),
              })),
            }
          : {}),
      };
    }),
  };
}
