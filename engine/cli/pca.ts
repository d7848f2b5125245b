import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { PCA_DEFAULTS } from '../util/choices.ts';
import { eigenvalText, eigenvecText, principalComponents } from '../service/principal-components.ts';
import { VERSION } from '../util/version.ts';
import { ensureWritableDir } from './output-dir.ts';
import { positiveInt, wholeNumber } from './parse-args.ts';
import { addReadOptions, readForCommand } from './read-options.ts';

export function registerPca(program: Command): void {
  addReadOptions(
    program
      .command('pca')
      .argument('<file>', 'genotype file')
      .description(
        'principal components of the genotypes (standardised as smartpca and PLINK 2 --pca): .eigenvec, .eigenval, and pca.json',
      )
      .option('--pcs <n>', 'components to compute', String(PCA_DEFAULTS.pcs))
      .option(
        '--seed <n>',
        'seed of the randomised method (more individuals than --exact-up-to)',
        String(PCA_DEFAULTS.seed),
      )
      .option(
        '--exact-up-to <n>',
        'exact eigendecomposition up to this many individuals',
        String(PCA_DEFAULTS.exactUpTo),
      )
      .option('--out <dir>', 'output directory', 'stratify-pca'),
  ).action(async (file: string, o: Record<string, unknown>) => {
    const pcs = positiveInt(o['pcs'], '--pcs');
    const seed = wholeNumber(o['seed'], '--seed');
    const exactUpTo = wholeNumber(o['exactUpTo'], '--exact-up-to');
    const out = String(o['out']);
    ensureWritableDir(out);
    const { data } = await readForCommand(file, o, 'structure');
    const pc = principalComponents(data, { pcs, seed, exactUpTo });
    writeFileSync(join(out, 'stratify.eigenvec'), eigenvecText(pc));
    writeFileSync(join(out, 'stratify.eigenval'), eigenvalText(pc));
    const json = {
      program: 'stratify',
      version: VERSION,
      dataset: { file, individuals: data.individuals.length, loci: data.loci.length },
      method: pc.method,
      iterations: pc.iterations,
      converged: pc.converged,
      columns: pc.columns,
      lociUsed: pc.loci,
      eigenvalues: Array.from(pc.eigenvalues),
      varianceFraction: Array.from(pc.varianceFraction),
      individuals: pc.ids.map((id, d) => ({
        id,
        ...(pc.populations[d] !== undefined ? { population: pc.populations[d] } : {}),
        pcs: Array.from(pc.vectors.subarray(d * pc.pcs, (d + 1) * pc.pcs)),
      })),
    };
    writeFileSync(join(out, 'pca.json'), JSON.stringify(json));
    const share = Array.from(
      pc.varianceFraction.subarray(0, Math.min(4, pc.pcs)),
      (f, k) => `PC${k + 1} ${(100 * f).toFixed(2)} %`,
    );
    process.stdout.write(
      `PCA of ${data.individuals.length} individuals × ${pc.columns} allele columns (${pc.loci} loci), ${pc.method}` +
        `${pc.method === 'randomized' ? `, ${pc.iterations} iterations${pc.converged ? '' : ' (not converged)'}` : ''}: ${share.join(', ')}\n` +
        `wrote stratify.eigenvec, stratify.eigenval, pca.json to ${out}\n`,
    );
  });
}
