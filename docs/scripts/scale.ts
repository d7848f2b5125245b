// The largest scale the performance issue asks about, as users run it: a binary PLINK fileset of
// 10,000 individuals × 200,000 SNPs read by `stratify inspect`, and one start of the mixture model
// and one of the admixture model at K = 5 by `stratify run` with default options on one thread
// (bench/cli-defaults.ts --scale: each command a process of its own under GNU time). About an hour
// on 2 cores, most of it the admixture start.
// Usage: node --import tsx docs/scripts/scale.ts > docs/scale.md
import { execFileSync } from 'node:child_process';

const T0 = performance.now();
const out = (s = '') => process.stdout.write(`${s}\n`);
const table = execFileSync(process.execPath, ['--import', 'tsx', 'bench/cli-defaults.ts', '--scale'], {
  encoding: 'utf8',
  maxBuffer: 1 << 24,
});
const [madeAt, ...rest] = table.trim().split('\n');

out('# 10,000 × 200,000 SNPs as users run it');
out();
out(madeAt);
out();
out('Command: `node --import tsx docs/scripts/scale.ts > docs/scale.md` (bench/cli-defaults.ts `--scale`).');
out('Simulated binary PLINK fileset (Balding–Nichols, 5 populations, F_ST 0.05, 1 % missing; the .bed is 477 MiB),');
out('written once into the temporary folder. Each row is one `stratify` process with default options unless it says');
out('otherwise, reading the files and writing its results; wall time and peak resident memory from GNU time.');
out();
for (const line of rest) out(line);
out();
out(
  'The mixture start runs as `--algorithm auto` does: an EM start, EMA continued from it, and the held-out comparison',
);
out(
  "of the two (docs/algorithms.md §4); the admixture start is ADMIXTURE's model fitted as `--acceleration auto` does",
);
out(
  'on 8,000 loci or more: on every eighth locus first, then on all by Newton steps under Anderson acceleration (§14),',
);
out('on the two-bit codes. Genotypes are held as the .bed holds them (two bits each, 477 MiB here) and coded');
out('for clustering four SNPs to a byte (docs/performance.md, memory model); the rest of the peak is per-start arrays');
out('of O((N + L)·K) and the loci read one at a time.');
out();
out(`Report made in ${((performance.now() - T0) / 60_000).toFixed(1)} minutes.`);
