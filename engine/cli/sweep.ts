import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { readDataset } from '../formats/read-dataset.ts';
import { writeP, writeQ } from '../formats/q-files.ts';
import { toText } from '../formats/writers.ts';
import { preparedData } from '../service/dataset.ts';
import { sweepJson } from '../service/result-json.ts';
import type { SweepSummary } from '../service/analyze-sweep.ts';
import { analyzeSweep } from '../service/analyze-sweep.ts';
import { datasetFiles } from '../node/file-source.ts';
import { setting } from './parse-args.ts';
import { addReadOptions, pickReadFlags, readOptionsFrom } from './read-options.ts';
import type { GenotypeData } from '../data/genotype-data.ts';
import type { SweepOptions, SweepRun } from '../service/cluster-sweep.ts';
import { ensureWritableDir } from './output-dir.ts';
import { addClusterOptions, runSweepCli, sweepOptionsFrom, withSupervision } from './run.ts';

/** The F_ST-per-K table as TSV. */
export function kTable(summary: SweepSummary): string {
  const head = [
    'K',
    'replicates',
    'fst_mean',
    'fst_sd',
    'mann_whitney_p_vs_previous',
    'loglik_mean',
    'loglik_sd',
    'evanno_delta_k',
    'bic_mean',
    'cv_error',
    'negligible_clusters',
    'effective_clusters',
    'replicate_similarity_H',
    'modes',
    'fst_per_replicate',
    'algorithm',
  ];
  const rows = summary.perK.map((k) =>
    [
      k.K,
      k.replicates,
      k.fstMean.toFixed(5),
      k.fstSd.toFixed(5),
      k.versusPrevious ? k.versusPrevious.p.toPrecision(4) : '',
      k.logLikMean.toFixed(2),
      k.logLikSd.toFixed(2),
      k.deltaK !== undefined ? k.deltaK.toPrecision(5) : '',
      k.bicMean.toFixed(2),
      k.cvError !== undefined ? k.cvError.toFixed(5) : '',
      k.negligibleMean.toFixed(2),
      k.effectiveMean.toFixed(2),
      k.similarity.toFixed(4),
      k.modes,
      k.fst.map((f) => f.toFixed(5)).join(','),
      k.algorithmChoice?.algorithm ?? '',
    ].join('\t'),
  );
  return [head.join('\t'), ...rows].join('\n') + '\n';
}

export function registerSweep(program: Command): void {
  addClusterOptions(
    addReadOptions(
      program
        .command('sweep')
        .argument('<file>', 'genotype file')
        .description(
          'replicate multi-starts for each K: F_ST per K with Mann–Whitney tests, BIC, empty clusters, aligned Q files and one JSON',
        ),
    ),
    { replicates: '10' },
  ).action(async (file: string, o: Record<string, unknown>) => {
    const data = await readDataset(datasetFiles(file), readOptionsFrom(o));
    const out = String(o['out']);
    ensureWritableDir(out);
    const sweep = await withSupervision(data, sweepOptionsFrom(o), o);
    const result = await runSweepCli(data, sweep, setting(o['threads'], '--threads', 'threads'));
    writeSweepResult(out, data, sweep, result.runs, result.cancelled, pickReadFlags(o));
  });
}

/**
 * Writes a sweep's result: Q files aligned within each K, .P files, colours consistent across K,
 * fst-by-k.tsv and stratify.json. `stratify sweep` and `stratify merge` write through this, so a
 * merged sweep gives the same files.
 */
export function writeSweepResult(
  out: string,
  data: GenotypeData,
  sweep: SweepOptions,
  runs: readonly SweepRun[],
  cancelled: boolean,
  readFlags: Record<string, unknown>,
): void {
  const result = { runs, cancelled };
  const o = readFlags;
  const md = preparedData(data);
  const summary = analyzeSweep(md, result.runs).summary;
  summary.alignment.forEach((a, idx) => {
    const runs = result.runs.filter((r) => r.K === a.K).sort((x, y) => x.replicate - y.replicate);
    runs.forEach((run, r) => {
      const base = join(out, `stratify.K${a.K}.r${run.replicate + 1}`);
      writeFileSync(`${base}.Q`, toText(writeQ(a.aligned[r]!, md.N, a.K)));
      writeFileSync(`${base}.P`, toText(writeP(data, run.clustering.model)));
    });
    writeFileSync(join(out, `stratify.K${a.K}.colours`), Array.from(summary.colours[idx]!).join(' ') + '\n');
  });
  writeFileSync(join(out, 'fst-by-k.tsv'), kTable(summary));
  const json = {
    ...sweepJson(data, sweep, result.runs, result.cancelled),
    readFlags: o,
    summary: summary.perK.map((k) => ({ ...k })),
    alignment: summary.alignment.map((a, idx) => ({
      K: a.K,
      reference: a.reference,
      permutations: a.perms.map((p) => Array.from(p)),
      meanSimilarity: a.meanSimilarity,
      modes: a.modes.map((m) => m.members),
      colours: Array.from(summary.colours[idx]!),
    })),
  };
  writeFileSync(join(out, 'stratify.json'), JSON.stringify(json));
  process.stdout.write(kTable(summary));
  process.stdout.write(`wrote ${result.runs.length} run(s), fst-by-k.tsv and stratify.json to ${out}\n`);
}
