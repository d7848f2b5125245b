// The app's own files of a result, beside the command line's (which come from the engine): the
// memberships as the plot shows them, so that a figure redrawn elsewhere matches the app's.
import { colourColumns } from '../charts/population-means.ts';
import type { PlotIndividual, PlotRow } from '../charts/structure-layout.ts';

/** What the plotted files are made from: the individuals in file order, and per K the memberships shown. */
export interface PlottedInput {
  readonly stem: string;
  readonly individuals: readonly PlotIndividual[];
  /** Per K: the memberships shown (the mode chosen there) and each cluster's palette index. */
  readonly rows: readonly Pick<PlotRow, 'K' | 'Q' | 'colours'>[];
  readonly palette: readonly string[];
}

/**
 * Per K the memberships as plotted (`<stem>.K<K>.plotted.tsv`: each individual's id and population,
 * columns ordered and named by the plot's colours — the same name for the same colour at every K),
 * the colour of each column (`colours.tsv`) and each individual's population (`populations.txt`,
 * which with the Q files is CLUMPAK's and pong's input). File name → text.
 */
export function plottedFiles({ stem, individuals, rows, palette }: PlottedInput): Record<string, string> {
  const text = (lines: readonly string[]) => lines.join('\n') + '\n';
  const column = (colour: number) => `cluster_${colour + 1}`;
  const files: Record<string, string> = { 'populations.txt': text(individuals.map((i) => i.population ?? 'NA')) };
  const used = new Set<number>();
  for (const k of rows) {
    const order = colourColumns(k);
    order.forEach((c) => used.add(k.colours[c] ?? c));
    const lines = [['id', 'population', ...order.map((c) => column(k.colours[c] ?? c))].join('\t')];
    individuals.forEach((ind, d) =>
      lines.push([ind.id, ind.population ?? 'NA', ...order.map((c) => k.Q[d * k.K + c]!.toFixed(6))].join('\t')),
    );
    files[`${stem}.K${k.K}.plotted.tsv`] = text(lines);
  }
  files['colours.tsv'] = text([
    'column\tcolour',
    ...[...used].sort((a, b) => a - b).map((c) => `${column(c)}\t${palette[c % palette.length]}`),
  ]);
  return files;
}

/** The README lines that say what the plotted files are. */
export function plottedReadme(stem: string): string[] {
  return [
    `${stem}.K<K>.plotted.tsv: the memberships as the plot shows them (the mode chosen at each K), with each`,
    "  individual's id and population; columns named and ordered by the plot's colours, the same name",
    '  for the same colour at every K.',
    'colours.tsv: the colour of each column. populations.txt: the population of each individual, in file order.',
  ];
}
