import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { range, subsetData, type GenotypeData } from '../data/genotype-data.ts';
import { readDataset } from '../formats/read-dataset.ts';
import { toText, writeGenepop, writeStructure, writeVcf, type WrittenFile } from '../formats/writers.ts';
import { mixtureData } from '../model/mixture-data.ts';
import type { MixtureModel } from '../model/mixture-model.ts';
import { fstFromModel } from '../analysis/fst.ts';
import { PANEL_GRID, panelSweep, selectMarkers } from '../analysis/marker-selection.ts';
import { datasetFiles } from '../node/file-source.ts';
import { numberIn } from './parse-args.ts';
import { readOptionsFrom } from './read-options.ts';

interface RunJson {
  K: number;
  replicate: number;
  logLik: number;
  weights: number[];
  frequencies: number[][];
  informative: number[];
}

interface ResultJson {
  dataset: { file: string; format: string };
  readFlags?: Record<string, unknown>;
  runs: RunJson[];
}

/** The panel as a dataset in the user's input format (STRUCTURE, GENEPOP or VCF; VCF for PLINK and tables). */
export function panelFile(data: GenotypeData, panel: readonly number[]): { file: WrittenFile; extension: string } {
  const sub = subsetData(data, [...panel].sort((a, b) => a - b), range(data.individuals.length));
  switch (data.source?.format) {
    case 'structure':
      return { file: writeStructure(sub), extension: 'str' };
    case 'genepop':
      return data.ploidy <= 2 ? { file: writeGenepop(sub, 'Stratify marker panel'), extension: 'gen' } : { file: writeStructure(sub), extension: 'str' };
    default:
      return { file: writeVcf(sub), extension: 'vcf' };
  }
}

export function registerSelect(program: Command): void {
  program
    .command('select')
    .argument('<result>', 'stratify.json written by `stratify run` or `stratify sweep`')
    .description('mutual-information marker selection (two-step test of Figure 8.1): ranking, panel list, panel dataset, panel sizes over the p_rel × p_red grid')
    .option('--p-rel <p>', 'relevance threshold', '0.01')
    .option('--p-red <p>', 'redundancy threshold', '0.01')
    .option('--k <K>', 'which K to use (default: the K with the highest mean F_ST)')
    .option('--out <dir>', 'output directory', 'stratify-panel')
    .action(async (resultPath: string, o: Record<string, unknown>) => {
      const result = JSON.parse(readFileSync(resultPath, 'utf8')) as ResultJson;
      if (!result.runs?.length || !result.dataset?.file) throw new Error(`${resultPath}: not a Stratify result (no runs or dataset)`);
      const data = await readDataset(datasetFiles(result.dataset.file), readOptionsFrom(result.readFlags ?? {}));
      const md = mixtureData(data);
      const model = (r: RunJson): MixtureModel => ({ K: r.K, weights: Float64Array.from(r.weights), theta: Float64Array.from(r.frequencies.flat()) });
      const scored = result.runs.map((r) => ({ run: r, fst: fstFromModel(md, model(r)).fst }));
      let K: number;
      if (o['k'] !== undefined) K = Number(o['k']);
      else {
        const byK = new Map<number, number[]>();
        for (const s of scored) byK.set(s.run.K, [...(byK.get(s.run.K) ?? []), s.fst]);
        K = [...byK].map(([k, f]) => [k, f.reduce((a, b) => a + b, 0) / f.length] as const).sort((a, b) => b[1] - a[1])[0]![0];
      }
      // The dissertation picks, for a K, the model with the best F_ST among the replicates.
      const chosen = scored.filter((s) => s.run.K === K).sort((a, b) => b.fst - a.fst)[0];
      if (!chosen) throw new Error(`${resultPath}: no run with K = ${K}`);
      const m = model(chosen.run);
      const pRel = numberIn(o['pRel'], '--p-rel', 0, 1);
      const pRed = numberIn(o['pRed'], '--p-red', 0, 1);
      const sel = selectMarkers(md, m, pRel, pRed);
      const perLocusFst = fstFromModel(md, m).perLocus;
      const out = String(o['out']);
      mkdirSync(out, { recursive: true });
      const ranking = ['rank\tlocus\tchrom\tpos\tmutual_information\tstatistic\tdf\tp_value\tinformative_w\tfst\trelevant\tselected'];
      sel.ranking.forEach((r, k) => {
        const l = data.loci[r.locus]!;
        ranking.push([k + 1, l.name, l.chrom ?? '', l.pos ?? '', r.mi.toPrecision(6), r.statistic.toPrecision(6), r.df, r.p.toPrecision(4), chosen.run.informative[r.locus]!.toPrecision(4), perLocusFst[r.locus]!.toPrecision(4), r.relevant ? 'yes' : 'no', r.selected ? 'yes' : 'no'].join('\t'));
      });
      writeFileSync(join(out, 'ranking.tsv'), ranking.join('\n') + '\n');
      writeFileSync(join(out, 'panel.tsv'), ['locus\tchrom\tpos', ...sel.panel.map((i) => [data.loci[i]!.name, data.loci[i]!.chrom ?? '', data.loci[i]!.pos ?? ''].join('\t'))].join('\n') + '\n');
      const pf = panelFile(data, sel.panel);
      writeFileSync(join(out, `panel.${pf.extension}`), toText(pf.file));
      const grid = panelSweep(md, m, PANEL_GRID.pRel, PANEL_GRID.pRed);
      writeFileSync(join(out, 'panel-sizes.tsv'), ['p_rel\tp_red\tpanel_size', ...grid.map((g) => `${g.pRel}\t${g.pRed}\t${g.size}`)].join('\n') + '\n');
      process.stdout.write(`K=${K} (replicate ${chosen.run.replicate + 1}, F_ST ${chosen.fst.toFixed(4)}): ${sel.ranking.filter((r) => r.relevant).length} relevant, panel of ${sel.panel.length} markers at p_rel=${pRel}, p_red=${pRed}\n`);
      process.stdout.write(`wrote ranking.tsv, panel.tsv, panel.${pf.extension}, panel-sizes.tsv to ${out}\n`);
    });
}
