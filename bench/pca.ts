// PCA as users run it, against PLINK 2's `--pca` (Debian's plink2) on the same simulated binary
// PLINK files, at two sizes: `stratify pca FILE` with default options and
// `plink2 --bfile STEM --pca 10 --threads 1`, each a fresh process (the best of three, taken in
// turn), wall time and peak memory from GNU time; then the agreement of the ten components (|Pearson
// r| of each pair of columns) and of the eigenvalues. The populations drift from a common ancestor
// by different amounts (Balding–Nichols F_ST 0.02 … 0.12), so the structured components have
// distinct eigenvalues (with equal drift they would be tied, and any rotation within their span a
// valid answer); components 6–10 lie in the bulk of noise eigenvalues.
// Usage: node --import tsx bench/pca.ts [--dir DIR] > docs/pca.md
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writePlinkFileset } from './plink-fileset.ts';
import { bestOfThree, installed, timed } from './timed.ts';
import { correlation } from './correlation.ts';
import { scriptArg } from './args.ts';
import { madeAt } from './made-at.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'stratify.mjs');
const dir = scriptArg('--dir', tmpdir());
const SIZES = [
  [2000, 100000],
  [324, 14000],
] as const;
const FSTS = [0.02, 0.04, 0.06, 0.08, 0.1, 0.12];
const plink = installed('plink2');
const started = performance.now();

/** An .eigenvec's components by individual id (the IID column). */
function eigenvec(path: string): Map<string, number[]> {
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  const header = lines[0]!.split('\t');
  const iid = header.indexOf('IID') >= 0 ? header.indexOf('IID') : header.indexOf('#IID');
  const first = header.indexOf('PC1');
  return new Map(
    lines.slice(1).map((line) => {
      const f = line.split('\t');
      return [f[iid]!, f.slice(first).map(Number)];
    }),
  );
}

const sections: string[] = [];
for (const [N, L] of SIZES) {
  const stem = join(dir, `stratify-pca-bench-${N}x${L}`);
  if (!existsSync(`${stem}.bed`)) await writePlinkFileset(stem, N, L, FSTS.length, FSTS);
  const out = mkdtempSync(join(tmpdir(), 'stratify-pca-bench-'));
  const ours = 'stratify pca (defaults: 10 PCs)';
  const theirs = `plink2 --pca 10 --threads 1`;
  const runs = bestOfThree({
    [ours]: () => timed(process.execPath, [cli, 'pca', `${stem}.bed`, '--out', join(out, 'stratify')]),
    ...(plink
      ? {
          [theirs]: () =>
            timed('plink2', ['--bfile', stem, '--pca', '10', '--threads', '1', '--out', join(out, 'plink2')]),
        }
      : {}),
  });
  const lines = [
    `## ${N.toLocaleString('en')} individuals × ${L.toLocaleString('en')} SNPs`,
    '',
    '| command | wall time (s) | peak memory (MB) |',
    '|---|---|---|',
    ...Object.entries(runs).map(([name, t]) => `| ${name} | ${t.seconds.toFixed(2)} | ${t.mb.toFixed(0)} |`),
  ];
  if (!plink) lines.push('| plink2 | not installed (apt install plink2) | |');
  const json = JSON.parse(readFileSync(join(out, 'stratify', 'pca.json'), 'utf8')) as {
    method: string;
    iterations: number;
    converged: boolean;
    eigenvalues: number[];
  };
  lines.push(
    '',
    `Stratify's method: ${json.method}${json.method === 'randomized' ? `, ${json.iterations} iterations, converged: ${json.converged}` : ''}.`,
  );
  if (plink) {
    const a = runs[ours]!;
    const b = runs[theirs]!;
    lines.push(
      `Time: ${(a.seconds / b.seconds).toFixed(2)} × plink2's; memory: ${(a.mb / b.mb).toFixed(1)} × plink2's.`,
      '',
      '| PC | \\|r\\| with plink2 | eigenvalue (stratify) | eigenvalue (plink2) | ratio |',
      '|---|---|---|---|---|',
    );
    const ourVectors = eigenvec(join(out, 'stratify', 'stratify.eigenvec'));
    const theirVectors = eigenvec(join(out, 'plink2.eigenvec'));
    const ids = [...ourVectors.keys()].filter((id) => theirVectors.has(id));
    const theirValues = readFileSync(join(out, 'plink2.eigenval'), 'utf8').trim().split('\n').map(Number);
    for (let k = 0; k < 10; k++) {
      const r = Math.abs(
        correlation(
          ids.map((id) => ourVectors.get(id)![k]!),
          ids.map((id) => theirVectors.get(id)![k]!),
        ),
      );
      const ev = json.eigenvalues[k]!;
      const tv = theirValues[k]!;
      lines.push(`| ${k + 1} | ${r.toFixed(6)} | ${ev.toFixed(4)} | ${tv.toFixed(4)} | ${(ev / tv).toFixed(4)} |`);
    }
  }
  sections.push(lines.join('\n'));
  rmSync(out, { recursive: true, force: true });
}

console.log('# PCA against PLINK 2');
console.log();
console.log(
  `Made by \`node --import tsx bench/pca.ts > docs/pca.md\` in ${Math.round((performance.now() - started) / 1000)} s${plink ? ` (PLINK: ${plink}, Debian's \`plink2\`)` : ''}. Simulated binary PLINK files (bench/plink-fileset.ts: ${FSTS.length} populations drifted by F_ST ${FSTS.join(', ')}; 1 % missing calls). One thread each; the best of three runs, taken in turn; wall seconds and peak resident memory by GNU time, from the command line to the files written. PLINK 2 divides each pair's relationship by the markers both individuals have; Stratify by all markers, missing genotypes at the mean, so its eigenvalues are lower by about the share of missing pairs (1 % missing: 0.99² ≈ 0.98). Components 6–10 lie in the bulk of noise eigenvalues, where nearby eigenvalues make each vector sensitive to any difference of method.`,
);
console.log();
console.log(madeAt());
console.log();
console.log(sections.join('\n\n'));
