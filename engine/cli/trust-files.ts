// The files of the trust features, written by `run` (--bootstrap, --fit-check) and by the
// `bootstrap` and `fit-check` commands alike: .Q_se/.Q_lower/.Q_upper and fit.K{K}.tsv.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenotypeData } from '../data/genotype-data.ts';
import { writeQ } from '../formats/q-files.ts';
import { toText } from '../formats/writers.ts';
import type { FitOptions } from '../model/fit-options.ts';
import type { SweepRun } from '../model/sweep.ts';
import { bootstrapAncestryOn, type AncestryBootstrap } from '../service/bootstrap.ts';
import { checkFitAtK, fitMatrixTsv, fitMeansTsv, type FitCheck } from '../service/fit-check.ts';
import { nodeStartPool } from '../node/worker-pool.ts';
import { ProgressBar } from './progress-bar.ts';

/** A run's bootstrap as .Q_se, .Q_lower and .Q_upper (the .Q layout), and its JSON entry. */
export function writeBootstrapFiles(
  dir: string,
  stem: string,
  data: GenotypeData,
  run: SweepRun,
  b: AncestryBootstrap,
): Record<string, unknown> {
  const base = join(dir, `${stem}.K${run.K}.r${run.replicate + 1}`);
  const N = data.individuals.length;
  writeFileSync(`${base}.Q_se`, toText(writeQ(b.se, N, run.K)));
  writeFileSync(`${base}.Q_lower`, toText(writeQ(b.lower, N, run.K)));
  writeFileSync(`${base}.Q_upper`, toText(writeQ(b.upper, N, run.K)));
  const rows = (a: Float64Array) =>
    Array.from({ length: N }, (_, d) =>
      Array.from(a.subarray(d * run.K, (d + 1) * run.K), (x) => Number(x.toPrecision(6))),
    );
  return {
    replicates: b.B,
    resampled: b.blocks === undefined ? 'markers' : `${b.blocks} genome windows`,
    se: rows(b.se),
    lower: rows(b.lower),
    upper: rows(b.upper),
  };
}

/**
 * Bootstraps each run on a pool of `threads` workers (B refits each), writes its files and puts
 * its JSON entry in `entries` (parallel to `runs`).
 */
export async function bootstrapRuns(
  out: string,
  stem: string,
  data: GenotypeData,
  runs: readonly SweepRun[],
  entries: Record<string, unknown>[],
  o: { B: number; seed: number; fit: FitOptions; threads: number },
): Promise<void> {
  const pool = nodeStartPool(o.threads);
  try {
    for (const [k, run] of runs.entries()) {
      const bar = new ProgressBar(process.stderr);
      const label = `bootstrap of K=${run.K} replicate ${run.replicate + 1}`;
      const b = await bootstrapAncestryOn(pool, data, run, o.B, o.seed, o.fit, undefined, (done) =>
        bar.update(done, o.B, label),
      );
      bar.done();
      if (!b) throw new Error(`${label}: cancelled`);
      if (!bar.active)
        process.stdout.write(
          `${label}: ${o.B} refits on resampled ${b.blocks === undefined ? 'markers' : `genome windows (${b.blocks})`}\n`,
        );
      entries[k]!['bootstrap'] = writeBootstrapFiles(out, stem, data, run, b);
    }
  } finally {
    pool.close();
  }
}

/** `--fit-check` (true) or `--fit-check matrix`; undefined when not given. */
export function fitCheckOption(value: unknown): 'means' | 'matrix' | undefined {
  if (value === undefined) return undefined;
  if (value === true) return 'means';
  if (value === 'matrix') return 'matrix';
  throw new Error(`--fit-check takes nothing or "matrix", got "${String(value)}"`);
}

/** Runs the fit check of each K's likeliest run, writes fit.K{K}.tsv (and the matrix); the JSON entries. */
export function writeFitChecks(
  out: string,
  data: GenotypeData,
  runs: readonly SweepRun[],
  matrix: boolean,
): Record<string, unknown>[] {
  const entries: Record<string, unknown>[] = [];
  for (const K of [...new Set(runs.map((r) => r.K))].sort((a, b) => a - b)) {
    const bar = new ProgressBar(process.stderr);
    const label = `fit check (residual correlations) of K=${K}`;
    let check: FitCheck;
    const t0 = performance.now();
    try {
      check = checkFitAtK(data, runs, K, { onProgress: (f) => bar.update(Math.round(f * 1000), 1000, label) });
    } finally {
      bar.done();
    }
    writeFileSync(join(out, `fit.K${K}.tsv`), fitMeansTsv(check));
    if (matrix) writeFileSync(join(out, `fit.K${K}.matrix.tsv`), fitMatrixTsv(data, check));
    const G = check.populations.length;
    const within = check.populations.map((_, g) => check.means[g * G + g]!);
    const shown = within.filter((v) => !Number.isNaN(v));
    const mean = shown.reduce((a, b) => a + b, 0) / Math.max(1, shown.length);
    process.stdout.write(
      `fit check K=${K} replicate=${check.replicate + 1}: mean within-population residual correlation ${mean.toFixed(4)} over ${shown.length} populations (${check.loci} of ${check.lociTotal} markers; ${((performance.now() - t0) / 1000).toFixed(1)} s) → fit.K${K}.tsv\n`,
    );
    if (check.note && entries.length === 0) process.stdout.write(`fit check: ${check.note}\n`);
    entries.push({
      K,
      replicate: check.replicate,
      model: check.model,
      iterations: check.iterations,
      loci: check.loci,
      lociTotal: check.lociTotal,
      populations: check.populations,
      means: Array.from({ length: G }, (_, a) =>
        Array.from(check.means.subarray(a * G, (a + 1) * G), (v) => (Number.isNaN(v) ? null : Number(v.toFixed(5)))),
      ),
      ...(check.note ? { note: check.note } : {}),
    });
  }
  return entries;
}
