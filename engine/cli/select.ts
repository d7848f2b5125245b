import { readFileSync, writeFileSync } from 'node:fs';
import { ensureWritableDir } from './output-dir.ts';
import { join } from 'node:path';
import type { Command } from 'commander';
import { toText } from '../formats/writers.ts';
import type { FittedRun } from '../service/analyze-sweep.ts';
import type { Model } from '../util/choices.ts';
import { exportDataset, panelFormat } from '../service/dataset.ts';
import { markerPanel } from '../service/select-markers.ts';
import { numberIn, positiveInt } from './parse-args.ts';
import { readForCommand } from './read-options.ts';

interface RunJson {
  K: number;
  replicate: number;
  logLik: number;
  weights: number[];
  frequencies: number[][];
  informative: number[];
  Q: number[][];
  model?: Model;
}

interface ResultJson {
  dataset: { file: string; format: string };
  readFlags?: Record<string, unknown>;
  runs: RunJson[];
}

function fittedRun(r: RunJson, resultPath: string): FittedRun {
  if (!Array.isArray(r.Q))
    throw new Error(`${resultPath}: run K = ${r.K}, replicate ${r.replicate} has no memberships (Q); run it again`);
  return {
    K: r.K,
    replicate: r.replicate,
    model: { K: r.K, weights: Float64Array.from(r.weights), theta: Float64Array.from(r.frequencies.flat()) },
    informative: Float64Array.from(r.informative),
    Q: Float64Array.from(r.Q.flat()),
    ...(r.model ? { kind: r.model } : {}),
  };
}

export function registerSelect(program: Command): void {
  program
    .command('select')
    .argument('<result>', 'stratify.json written by `stratify run` or `stratify sweep`')
    .description(
      'mutual-information marker selection (two-step test of Figure 8.1): ranking, panel list, panel dataset, panel sizes over the p_rel × p_red grid',
    )
    .option('--p-rel <p>', 'relevance threshold', '0.01')
    .option('--p-red <p>', 'redundancy threshold', '0.01')
    .option('--k <K>', 'which K to use (default: the K with the highest mean F_ST)')
    .option('--out <dir>', 'output directory', 'stratify-panel')
    .action(async (resultPath: string, o: Record<string, unknown>) => {
      const result = JSON.parse(readFileSync(resultPath, 'utf8')) as ResultJson;
      if (!result.runs?.length || !result.dataset?.file)
        throw new Error(`${resultPath}: not a Stratify result (no runs or dataset)`);
      const { data } = await readForCommand(result.dataset.file, result.readFlags ?? {}, 'structure');
      const pRel = numberIn(o['pRel'], '--p-rel', 0, 1);
      const pRed = numberIn(o['pRed'], '--p-red', 0, 1);
      const {
        chosen,
        selection: sel,
        grid,
      } = markerPanel(
        data,
        result.runs.map((r) => fittedRun(r, resultPath)),
        o['k'] === undefined ? undefined : positiveInt(o['k'], '--k'),
        pRel,
        pRed,
        true,
      );
      const out = String(o['out']);
      ensureWritableDir(out);
      const ranking = [
        'rank\tlocus\tchrom\tpos\tmutual_information\tstatistic\tdf\tp_value\tinformative_w\tfst_theta\treynolds_distance\trelevant\tselected',
      ];
      sel.rows.forEach((r, k) => {
        ranking.push(
          [
            k + 1,
            r.name,
            r.chrom ?? '',
            r.pos ?? '',
            r.mi.toPrecision(6),
            r.statistic.toPrecision(6),
            r.df,
            r.p.toPrecision(4),
            r.informative.toPrecision(4),
            r.fstTheta.toPrecision(4),
            r.fst.toPrecision(4),
            r.relevant ? 'yes' : 'no',
            r.selected ? 'yes' : 'no',
          ].join('\t'),
        );
      });
      writeFileSync(join(out, 'ranking.tsv'), ranking.join('\n') + '\n');
      writeFileSync(
        join(out, 'panel.tsv'),
        [
          'locus\tchrom\tpos',
          ...sel.panel.map((i) => [data.loci[i]!.name, data.loci[i]!.chrom ?? '', data.loci[i]!.pos ?? ''].join('\t')),
        ].join('\n') + '\n',
      );
      const pf = panelFormat(data);
      writeFileSync(
        join(out, `panel.${pf.extension}`),
        toText(exportDataset(data, pf.format, sel.panel, 'Stratify marker panel')),
      );
      writeFileSync(
        join(out, 'panel-sizes.tsv'),
        ['p_rel\tp_red\tpanel_size', ...(grid ?? []).map((g) => `${g.pRel}\t${g.pRed}\t${g.size}`)].join('\n') + '\n',
      );
      const K = chosen.K;
      process.stdout.write(
        `K=${K} (replicate ${chosen.run.replicate + 1}, F_ST ${chosen.fst.toFixed(4)}): ${sel.rows.filter((r) => r.relevant).length} relevant, panel of ${sel.panel.length} markers at p_rel=${pRel}, p_red=${pRed}\n`,
      );
      process.stdout.write(`wrote ranking.tsv, panel.tsv, panel.${pf.extension}, panel-sizes.tsv to ${out}\n`);
    });
}
