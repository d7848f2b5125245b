// SNP preparation as users run it, against PLINK 2 (Debian's plink2) on the same simulated binary
// PLINK files with linkage (bench/ld-fileset.ts: haplotype blocks, several chromosomes, missing
// calls): linkage pruning (`stratify filter FILE --indep-pairwise 50 10 0.1` against
// `plink2 --indep-pairwise 50 10 0.1 --threads 1`, and the pruned fileset written: PLINK needs a
// second run with --extract --make-bed), and the filters --mind/--geno/--maf; the lists compared
// (Jaccard index of prune.in; the same SNPs and samples kept), seconds and peak memory, each the
// best of three runs taken in turn. Without plink2 the PLINK rows say so.
// Usage: node --import tsx bench/snp-preparation.ts [--n 2000] [--snps 100000] [--dir DIR] > docs/snp-preparation.md
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLdFileset } from './ld-fileset.ts';
import { bestOfThree, installed, timed } from './timed.ts';
import { scriptArg } from './args.ts';
import { madeAt } from './made-at.ts';

const T0 = performance.now();
const N = Number(scriptArg('--n', '2000'));
const L = Number(scriptArg('--snps', '100000'));
const dir = scriptArg('--dir', tmpdir());
const CHROMOSOMES = 10;
const stem = join(dir, `stratify-ld-bench-${N}x${L}`);
if (!existsSync(`${stem}.bed`))
  writeLdFileset(stem, {
    individuals: N,
    populations: 3,
    patchy: 0.05,
    chromosomes: Array.from({ length: CHROMOSOMES }, (_, c) => ({
      name: String(c + 1),
      snps: Math.ceil(L / CHROMOSOMES),
    })),
  });
const out = mkdtempSync(join(tmpdir(), 'stratify-ld-bench-out-'));
const cli = join(fileURLToPath(new URL('..', import.meta.url)), 'bin', 'stratify.mjs');
const plink = installed('plink2');
const lines = (path: string) => readFileSync(path, 'utf8').trim().split('\n');

const PRUNE = ['--indep-pairwise', '50', '10', '0.1'];
const FILTERS = ['--mind', '0.05', '--geno', '0.05', '--maf', '0.05'];
const runs = bestOfThree({
  'stratify filter --indep-pairwise 50 10 0.1 (writes prune.in/out and the pruned .bed)': () =>
    timed(process.execPath, [cli, 'filter', `${stem}.bed`, ...PRUNE, '--out', join(out, 'pruned')]),
  ...(plink
    ? {
        'plink2 --indep-pairwise 50 10 0.1 --threads 1 (writes prune.in/out)': () =>
          timed('plink2', ['--bfile', stem, ...PRUNE, '--threads', '1', '--out', join(out, 'plink')]),
        'plink2 --extract prune.in --make-bed --threads 1 (the second run PLINK needs)': () =>
          timed('plink2', [
            '--bfile',
            stem,
            '--extract',
            join(out, 'plink.prune.in'),
            '--make-bed',
            '--threads',
            '1',
            '--out',
            join(out, 'plink-pruned'),
          ]),
      }
    : {}),
  'stratify filter --mind 0.05 --geno 0.05 --maf 0.05': () =>
    timed(process.execPath, [cli, 'filter', `${stem}.bed`, ...FILTERS, '--out', join(out, 'filtered')]),
  ...(plink
    ? {
        'plink2 --mind 0.05 --geno 0.05 --maf 0.05 --make-bed --threads 1': () =>
          timed('plink2', [
            '--bfile',
            stem,
            ...FILTERS,
            '--make-bed',
            '--threads',
            '1',
            '--out',
            join(out, 'plink-filtered'),
          ]),
      }
    : {}),
});

console.log('# SNP preparation: linkage pruning and filters against PLINK 2\n');
console.log(
  `Made by \`node --import tsx bench/snp-preparation.ts --n ${N} --snps ${L} > docs/snp-preparation.md\` in ${((performance.now() - T0) / 1000).toFixed(0)} s. ${madeAt()}`,
);
console.log(
  `\nData: ${N} individuals × ${L.toLocaleString('en')} SNPs on ${CHROMOSOMES} chromosomes, simulated by bench/ld-fileset.ts (haplotype blocks of 1–40 SNPs, 1.5 % missing calls, twelve times as many for 5 % of the individuals and SNPs). One thread each; the best of three runs, taken in turn; wall seconds and peak resident memory by GNU time, from the command line to the files written. ${plink ? `PLINK: ${plink}.` : 'plink2 is not installed here (apt install plink2): no PLINK rows.'}\n`,
);
console.log('| command | seconds | peak MB |');
console.log('|---|---|---|');
for (const [name, t] of Object.entries(runs)) console.log(`| ${name} | ${t.seconds.toFixed(2)} | ${t.mb.toFixed(0)} |`);

if (plink) {
  const ours = lines(join(out, 'pruned.prune.in'));
  const theirs = lines(join(out, 'plink.prune.in'));
  const theirSet = new Set(theirs);
  const both = ours.filter((x) => theirSet.has(x)).length;
  const jaccard = both / (ours.length + theirs.length - both);
  const prune = (name: string) => runs[name]!.seconds;
  const oursPrune = prune('stratify filter --indep-pairwise 50 10 0.1 (writes prune.in/out and the pruned .bed)');
  const plinkPrune = prune('plink2 --indep-pairwise 50 10 0.1 --threads 1 (writes prune.in/out)');
  const plinkBoth = plinkPrune + prune('plink2 --extract prune.in --make-bed --threads 1 (the second run PLINK needs)');
  console.log(
    `\n**Pruning**: prune.in holds ${ours.length.toLocaleString('en')} SNPs (PLINK 2: ${theirs.length.toLocaleString('en')}); Jaccard index ${jaccard.toFixed(4)}${ours.join('\n') === theirs.join('\n') ? ', the same list in the same order' : ''}. Time against PLINK 2's pruning alone: ${(oursPrune / plinkPrune).toFixed(1)} ×; against PLINK's two runs that end with the pruned fileset: ${(oursPrune / plinkBoth).toFixed(1)} ×.`,
  );
  const ourBim = lines(join(out, 'filtered.bim')).map((l) => l.split('\t')[1]);
  const theirBim = lines(join(out, 'plink-filtered.bim')).map((l) => l.split('\t')[1]);
  const ourFam = lines(join(out, 'filtered.fam')).map((l) => l.split('\t')[1]);
  const theirFam = lines(join(out, 'plink-filtered.fam')).map((l) => l.split(/\s+/)[1]);
  console.log(
    `\n**Filters**: Stratify kept ${ourFam.length} individuals × ${ourBim.length.toLocaleString('en')} SNPs, PLINK 2 ${theirFam.length} × ${theirBim.length.toLocaleString('en')}; the same SNPs: ${ourBim.join() === theirBim.join() ? 'yes' : 'no'}; the same individuals: ${ourFam.join() === theirFam.join() ? 'yes' : 'no'}. Time: ${(prune('stratify filter --mind 0.05 --geno 0.05 --maf 0.05') / prune('plink2 --mind 0.05 --geno 0.05 --maf 0.05 --make-bed --threads 1')).toFixed(1)} × PLINK 2's.`,
  );
}
