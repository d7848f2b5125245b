import type { GenotypeData } from '../data/genotype-data.ts';
import { pca, type PcaResult } from '../analysis/pca.ts';
import type { PcaOptions } from '../util/choices.ts';
import { preparedData } from '../model/prepared/prepared-data.ts';

/** A PCA of a dataset, with the individuals it describes, as every front end shows and writes it. */
export interface PrincipalComponents extends PcaResult {
  readonly ids: readonly string[];
  readonly populations: readonly (string | undefined)[];
}

/** The principal components of a dataset's genotypes (engine/analysis/pca.ts). */
export function principalComponents(data: GenotypeData, options: Partial<PcaOptions> = {}): PrincipalComponents {
  const result = pca(preparedData(data), options);
  return {
    ...result,
    ids: data.individuals.map((i) => i.id),
    populations: data.individuals.map((i) => i.population),
  };
}

const number = (x: number) => (Number.isFinite(x) ? String(Number(x.toPrecision(8))) : 'nan');

/**
 * PLINK 2's `.eigenvec` layout: a header `#FID IID PC1 …` (FID: the population, as PLINK reads a
 * .fam's family ID; `#IID PC1 …` when no individual has one), then one row per individual.
 */
export function eigenvecText(pc: PrincipalComponents): string {
  const withPop = pc.populations.some((p) => p !== undefined);
  const names = Array.from({ length: pc.pcs }, (_, k) => `PC${k + 1}`);
  const lines = [[...(withPop ? ['#FID', 'IID'] : ['#IID']), ...names].join('\t')];
  pc.ids.forEach((id, d) => {
    const values = Array.from({ length: pc.pcs }, (_, k) => number(pc.vectors[d * pc.pcs + k]!));
    lines.push([...(withPop ? [pc.populations[d] ?? '0', id] : [id]), ...values].join('\t'));
  });
  return lines.join('\n') + '\n';
}

/** PLINK 2's `.eigenval`: one eigenvalue a line. */
export function eigenvalText(pc: PrincipalComponents): string {
  return Array.from(pc.eigenvalues, number).join('\n') + '\n';
}
