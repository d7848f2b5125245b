import { UNLABELLED, type PlotIndividual, type PlotRow } from './structure-layout.ts';

/** One population's mean memberships at a K, in the plot's colour order. */
export interface PopulationMean {
  readonly population: string;
  /** Individuals in it. */
  readonly n: number;
  /** Mean of each column over its individuals, columns as {@link colourColumns} orders them. */
  readonly means: readonly number[];
}

/** The columns of a K in the plot's colour order: cluster indexes sorted by their palette index. */
export function colourColumns(row: Pick<PlotRow, 'K' | 'colours'>): number[] {
  return Array.from({ length: row.K }, (_, c) => c).sort((a, b) => (row.colours[a] ?? a) - (row.colours[b] ?? b));
}

/**
 * Mean memberships per population at one K (the table users read beside the bar plot: "ASW 0.79 /
 * 0.21"), populations in `order` (the plot's), each column the mean of Q's column over the
 * population's individuals; individuals without a population form "(no population)".
 * Populations with no individual are left out.
 */
export function populationMeans(
  individuals: readonly PlotIndividual[],
  row: Pick<PlotRow, 'K' | 'Q' | 'colours'>,
  order: readonly string[],
): PopulationMean[] {
  const columns = colourColumns(row);
  const sums = new Map<string, { n: number; sum: Float64Array }>();
  individuals.forEach((ind, d) => {
    const p = ind.population ?? UNLABELLED;
    let s = sums.get(p);
    if (!s) sums.set(p, (s = { n: 0, sum: new Float64Array(row.K) }));
    s.n++;
    for (let c = 0; c < row.K; c++) s.sum[c]! += row.Q[d * row.K + c]!;
  });
  const names = [...order.filter((p) => sums.has(p)), ...[...sums.keys()].filter((p) => !order.includes(p))];
  return names.map((population) => {
    const { n, sum } = sums.get(population)!;
    return { population, n, means: columns.map((c) => sum[c]! / n) };
  });
}
