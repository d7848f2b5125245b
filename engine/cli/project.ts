import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { writeQ } from '../formats/q-files.ts';
import { toText } from '../formats/writers.ts';
import { projectOntoWith, readReference, type ReferenceK } from '../service/project.ts';
import type { MarkerMatchCounts } from '../data/marker-match.ts';
import { VERSION } from '../util/version.ts';
import { ensureWritableDir } from './output-dir.ts';
import { numberIn, positiveInt, threadsFlag, threadsOption } from './parse-args.ts';
import { withCancellablePool } from './pool-run.ts';
import { ProgressBar } from './progress-bar.ts';
import { FREQUENCY_PRIOR } from '../util/choices.ts';
import { addReadOptions, readForCommand } from './read-options.ts';

/** The matching of markers in one paragraph. */
export function matchSummary(c: MarkerMatchCounts): string {
  const dropped = [
    c.ambiguousDropped > 0 ? `${c.ambiguousDropped} A/T or C/G SNPs (strand unknown: others needed a flip)` : '',
    c.mismatched > 0 ? `${c.mismatched} with other alleles` : '',
  ].filter(Boolean);
  return (
    `${c.matched} of the reference's ${c.reference} markers used (matched by ${c.by}` +
    `${c.swapped > 0 ? `; ${c.swapped} with alleles in the other order` : ''}` +
    `${c.strandFlipped > 0 ? `; ${c.strandFlipped} read on the other strand` : ''})` +
    `${dropped.length > 0 ? `; dropped: ${dropped.join(', ')}` : ''}` +
    `${c.unseenAlleleCopies > 0 ? `; ${c.unseenAlleleCopies} allele copies unknown to the reference read as missing` : ''}`
  );
}

/** How the frequencies were scored, in a line (none for a mixture reference). */
function frequencyNote(applied: number | undefined, asked: number, sampleKnown: boolean): string {
  if (applied === undefined) return '';
  if (applied > 0)
    return `frequencies: the reference's copies with each individual's own, Dirichlet prior ${applied} per allele (--frequency-prior)\n`;
  return asked > 0 && !sampleKnown
    ? "frequencies: as in the reference (it does not say its sample's size, which the prior needs: a .P file)\n"
    : "frequencies: as fitted (--frequency-prior 0, ADMIXTURE's -P)\n";
}

/** `--k K` or `--k cv` of a reference (undefined when absent). */
export function referenceKOption(v: unknown): ReferenceK | undefined {
  if (v === undefined) return undefined;
  return v === 'cv' ? 'cv' : positiveInt(v, '--k');
}

export function registerProject(program: Command): void {
  addReadOptions(
    program
      .command('project')
      .argument('<file>', 'genotype file of the new individuals')
      .description(
        "ancestry of new individuals on a fitted reference without refitting it (ADMIXTURE's -P): .Q, projection.tsv and projection.json",
      )
      .requiredOption('--reference <file>', 'stratify.json of run or sweep (or a Stratify .P file)')
      .option('--k <K>', 'which K of the reference (needed when it holds several; cv: the K of the lowest CV error)')
      .option(
        '--frequency-prior <lambda>',
        "admixture reference: score each individual with frequencies from the reference's copies and its own under a Dirichlet prior of this weight per allele, as if it alone had joined the fit (0: the fitted frequencies, as ADMIXTURE's -P)",
        String(FREQUENCY_PRIOR),
      )
      .addOption(threadsFlag('worker threads: each projects a share of the individuals'))
      .option('--out <dir>', 'output directory', 'stratify-projection'),
  ).action(async (file: string, o: Record<string, unknown>) => {
    const K = referenceKOption(o['k']);
    const prior = numberIn(o['frequencyPrior'], '--frequency-prior', 0, 1e6);
    const referenceFile = String(o['reference']);
    const reference = readReference(referenceFile, readFileSync(referenceFile, 'utf8'), K);
    const out = String(o['out']);
    ensureWritableDir(out);
    const { data } = await readForCommand(file, o, 'structure');
    const bar = new ProgressBar(process.stderr);
    const p = await withCancellablePool(threadsOption(o['threads']), (pool, signal) =>
      projectOntoWith(pool, data, reference, prior, signal, (done, total) =>
        bar.update(done, total, `projected ${done} of ${total} individuals`),
      ),
    );
    bar.done();
    const N = data.individuals.length;
    const stem = `stratify.projected.K${reference.K}`;
    writeFileSync(join(out, `${stem}.Q`), toText(writeQ(p.Q, N, reference.K)));
    const clusters = Array.from({ length: reference.K }, (_, k) => `cluster${k + 1}`);
    const rows = data.individuals.map((ind, d) =>
      [
        ind.id,
        ind.population ?? '',
        p.copies[d],
        ...(p.logLik ? [p.logLik[d]!.toFixed(4)] : []),
        ...Array.from(p.Q.subarray(d * reference.K, (d + 1) * reference.K), (x) => x.toFixed(6)),
      ].join('\t'),
    );
    writeFileSync(
      join(out, 'projection.tsv'),
      [['id', 'population', 'copies', ...(p.logLik ? ['ln_L'] : []), ...clusters].join('\t'), ...rows].join('\n') +
        '\n',
    );
    const json = {
      program: 'stratify',
      version: VERSION,
      dataset: { file, individuals: N, loci: data.loci.length },
      reference: p.reference,
      ...(p.frequencyPrior !== undefined ? { frequencyPrior: p.frequencyPrior } : {}),
      markers: p.counts,
      what: reference.model === 'admixture' ? 'ancestry proportions' : 'cluster memberships',
      individuals: data.individuals.map((ind, d) => ({
        id: ind.id,
        ...(ind.population !== undefined ? { population: ind.population } : {}),
        copies: p.copies[d],
        ...(p.logLik ? { logLik: p.logLik[d] } : {}),
        Q: Array.from(p.Q.subarray(d * reference.K, (d + 1) * reference.K)),
      })),
    };
    writeFileSync(join(out, 'projection.json'), JSON.stringify(json));
    const none = Array.from(p.copies).filter((c) => c === 0).length;
    process.stdout.write(
      `${matchSummary(p.counts)}.\n` +
        `${reference.model === 'admixture' ? 'Ancestry' : 'Cluster memberships'} of ${N} individuals on ${referenceFile} (${reference.run})` +
        `${none > 0 ? `; ${none} without a call on the reference's markers (uniform)` : ''}\n` +
        `${frequencyNote(p.frequencyPrior, prior, reference.clusterCopies !== undefined)}` +
        `wrote ${stem}.Q, projection.tsv, projection.json to ${out}\n`,
    );
  });
}
