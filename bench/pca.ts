// PCA as users run it, against PLINK 2's `--pca` (Debian's plink2) on the same simulated binary
// PLINK files: `stratify pca FILE` with default options and `plink2 --bfile STEM --pca 10`, each a
// fresh process with wall time and peak memory from GNU time, then the agreement of the first four
// components (|Pearson r| of each pair of columns) and of the eigenvalues. The populations drift
// from a common ancestor by different amounts (Balding–Nichols F_ST 0.02 … 0.12), so the structured
// components have distinct eigenvalues (with equal drift they would be tied, and any rotation
// within their span a valid answer).
// Usage: node --import tsx bench/pca.ts [--dir DIR] [--n 2000] [--l 100000] > table.md
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writePlinkFileset } from './plink-fileset.ts';
import { timed } from './timed.ts';
import { correlation } from './correlation.ts';
import { scriptArg } from './args.ts';
import { madeAt } from './made-at.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'stratify.mjs');
const dir = scriptArg('--dir', tmpdir());
const N = Number(scriptArg('--n', '2000'));
const L = Number(scriptArg('--l', '100000'));
const FSTS = [0.02, 0.04, 0.06, 0.08, 0.1, 0.12];

const stem = join(dir, `stratify-pca-bench-${N}x${L}`);
if (!existsSync(`${stem}.bed`)) await writePlinkFileset(stem, N, L, FSTS.length, FSTS);

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

const out = mkdtempSync(join(tmpdir(), 'stratify-pca-bench-'));
const ours = timed(process.execPath, [cli, 'pca', `${stem}.bed`, '--out', join(out, 'stratify')]);
const plink = spawnSync('plink2', ['--version'], { encoding: 'utf8' });
const hasPlink = plink.status === 0;
const theirs = hasPlink
  ? timed('plink2', ['--bfile', stem, '--pca', '10', '--threads', '1', '--out', join(out, 'plink2')])
  : undefined;

console.log('# PCA against PLINK 2');
console.log();
console.log(
  "Made by `node --import tsx bench/pca.ts > docs/pca.md` (about 2 minutes; PLINK 2 from Debian's `plink2`). PLINK 2 divides each pair's relationship by the markers both individuals have; Stratify by all markers, missing genotypes at the mean, so its eigenvalues are lower by about the share of missing pairs (1 % missing: 0.99² ≈ 0.98). Timings on this virtual machine vary by up to ±20 % between runs.",
);
console.log();
console.log(madeAt());
console.log(
  `Simulated ${N.toLocaleString('en')} individuals × ${L.toLocaleString('en')} SNPs (${FSTS.length} populations, F_ST ${FSTS.join(', ')}; 1 % missing).`,
);
console.log();
console.log('| command | wall time (s) | peak memory (MB) |');
console.log('|---|---|---|');
console.log(`| stratify pca (defaults: 10 PCs) | ${ours.seconds.toFixed(1)} | ${ours.mb.toFixed(0)} |`);
if (theirs)
  console.log(
    `| plink2 --pca 10 --threads 1 (${plink.stdout.trim().split('\n')[0]}) | ${theirs.seconds.toFixed(1)} | ${theirs.mb.toFixed(0)} |`,
  );
else console.log('| plink2 | not installed (apt install plink2) | |');
const json = JSON.parse(readFileSync(join(out, 'stratify', 'pca.json'), 'utf8')) as {
  method: string;
  iterations: number;
  converged: boolean;
  eigenvalues: number[];
};
console.log();
console.log(
  `Stratify's method: ${json.method}${json.method === 'randomized' ? `, ${json.iterations} iterations, converged: ${json.converged}` : ''}.`,
);
if (theirs) {
  const a = eigenvec(join(out, 'stratify', 'stratify.eigenvec'));
  const b = eigenvec(join(out, 'plink2.eigenvec'));
  const ids = [...a.keys()].filter((id) => b.has(id));
  const theirValues = readFileSync(join(out, 'plink2.eigenval'), 'utf8').trim().split('\n').map(Number);
  console.log();
  console.log('| PC | \\|r\\| with plink2 | eigenvalue (stratify) | eigenvalue (plink2) | ratio |');
  console.log('|---|---|---|---|---|');
  for (let k = 0; k < 6; k++) {
    const r = Math.abs(
      correlation(
        ids.map((id) => a.get(id)![k]!),
        ids.map((id) => b.get(id)![k]!),
      ),
    );
    const ev = json.eigenvalues[k]!;
    const tv = theirValues[k]!;
    console.log(`| ${k + 1} | ${r.toFixed(6)} | ${ev.toFixed(4)} | ${tv.toFixed(4)} | ${(ev / tv).toFixed(4)} |`);
  }
}
rmSync(out, { recursive: true, force: true });
