// A cohort larger than one fit, as users run it (issue #67): a simulated admixed fileset of
// N individuals × L SNPs (3 populations, each individual's ancestry from a Dirichlet around its home
// population, F_ST 0.05, 1 % missing; bench/plink-fileset.ts), run through the shipped Snakemake
// workflow on this machine's cores — `stratify workflow FILE --model admixture --k KS
// --reference-size R --shards S --threads T` (the admixture defaults otherwise) — with each job's wall time and
// peak memory from Snakemake's benchmark files; then the accuracy of the cohort's Q against the
// truth (RMSE, clusters matched to the true populations), beside one joint fit (`stratify run --k 3
// --keep`) of a subset of individuals on the same file.
// Usage: node --import tsx bench/cohort-scale.ts [--n 100000] [--snps 50000] [--reference 5000]
//   [--shards 20] [--subset 10000] [--k 2..4] [--threads every core] [--dir DIR] > docs/cohort-scale.md
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alignToReference, permuteColumns } from '../engine/model/align.ts';
import { scriptArg, scriptNumber } from './args.ts';
import { madeAt } from './made-at.ts';
import { writePlinkFileset } from './plink-fileset.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'stratify.mjs');
const N = scriptNumber('--n', 100_000);
const L = scriptNumber('--snps', 50_000);
const R = scriptNumber('--reference', 5000);
const S = scriptNumber('--shards', 20);
const SUBSET = scriptNumber('--subset', 10_000);
const KS = scriptArg('--k', '2..4');
const dir = scriptArg('--dir', tmpdir());
const cores = availableParallelism();
const THREADS = scriptNumber('--threads', cores);
const POPS = 3;

const stem = join(dir, `stratify-cohort-${N}x${L}`);
const t0 = performance.now();
if (!existsSync(`${stem}.bed`) || !existsSync(`${stem}.Q.truth`))
  await writePlinkFileset(stem, N, L, POPS, [0.05, 0.05, 0.05], { home: 4, other: 0.5 });
const simulated = (performance.now() - t0) / 1000;

function must(r: ReturnType<typeof spawnSync>, what: string): void {
  if (r.status !== 0) throw new Error(`${what} failed: ${String(r.stderr).slice(-2000)}`);
}
const stratify = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });

// The workflow, run on every core.
const wf = join(dir, `stratify-cohort-wf-${N}x${L}`);
rmSync(wf, { recursive: true, force: true });
must(
  stratify(
    dir,
    'workflow',
    `${stem}.bed`,
    '--model',
    'admixture',
    '--k',
    KS,
    '--reference-size',
    String(R),
    '--shards',
    String(S),
    '--threads',
    String(THREADS),
    '--out',
    wf,
  ),
  'stratify workflow',
);
const t1 = performance.now();
must(
  spawnSync('snakemake', ['--cores', String(cores), '-q'], { cwd: wf, encoding: 'utf8', maxBuffer: 1 << 28 }),
  'snakemake',
);
const total = (performance.now() - t1) / 1000;

// Per job kind: how many, mean and longest wall time, the largest peak memory.
const benchmarks = join(wf, 'results', 'benchmarks');
const kinds = new Map<string, { s: number[]; rss: number[] }>();
for (const f of readdirSync(benchmarks)) {
  const kind = f.startsWith('K')
    ? 'fit the reference: one (K, replicate) job, its starts'
    : f.startsWith('project')
      ? `project a shard (${Math.ceil((N - R) / S)} individuals)`
      : f === 'merge.tsv'
        ? 'merge the fits (and the CV error of the likeliest run per K)'
        : f.replace(/\.tsv$/, '');
  const [header, row] = readFileSync(join(benchmarks, f), 'utf8').trim().split('\n') as [string, string];
  const cells = Object.fromEntries(header.split('\t').map((h, k) => [h, Number(row.split('\t')[k])]));
  const entry = kinds.get(kind) ?? { s: [], rss: [] };
  entry.s.push(cells['s']!);
  entry.rss.push(cells['max_rss']!);
  kinds.set(kind, entry);
}

/** A Q file's rows. */
const readQ = (path: string): Float64Array =>
  Float64Array.from(
    readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .flatMap((l) => l.trim().split(/\s+/).map(Number)),
  );
const truth = readQ(`${stem}.Q.truth`);
/** RMSE of Q against the truth over the rows `rows` of both (clusters matched by overlap). */
function rmse(Q: Float64Array, truthRows: Float64Array, K: number): number {
  const n = truthRows.length / POPS;
  if (K !== POPS) return Number.NaN;
  const aligned = permuteColumns(Q, n, K, alignToReference(truthRows, Q, n, K));
  let s = 0;
  for (let x = 0; x < aligned.length; x++) s += (aligned[x]! - truthRows[x]!) ** 2;
  return Math.sqrt(s / aligned.length);
}
const rowsOf = (Q: Float64Array, rows: readonly number[], K: number) => {
  const out = new Float64Array(rows.length * K);
  rows.forEach((d, j) => out.set(Q.subarray(d * K, (d + 1) * K), j * K));
  return out;
};

const cohortDir = join(wf, 'results', 'cohort');
const qFile = readdirSync(join(cohortDir, 'result')).find((f) => f.endsWith('.Q'))!;
const K = Number(/K(\d+)\.Q$/.exec(qFile)![1]);
const cohortQ = readQ(join(cohortDir, 'result', qFile));
const index = new Map(
  readFileSync(`${stem}.fam`, 'utf8')
    .trim()
    .split('\n')
    .map((l, d) => [l.split(/\s+/)[1]!, d]),
);
const idsIn = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((id) => index.get(id)!);
const reference = idsIn(join(cohortDir, 'reference.ids'));
const projected = idsIn(join(cohortDir, 'projected.ids'));
const all = Array.from({ length: N }, (_, d) => d);

// One joint fit of a subset: the first SUBSET individuals, at K = 3, the admixture defaults.
const subset = all.slice(0, SUBSET);
const subsetIds = join(dir, `stratify-cohort-subset-${SUBSET}.ids`);
writeFileSync(subsetIds, subset.map((d) => `i${d}\n`).join(''));
const jointOut = join(dir, `stratify-cohort-joint-${N}x${L}`);
mkdirSync(jointOut, { recursive: true });
const t2 = performance.now();
const joint = spawnSync(
  '/usr/bin/time',
  [
    '-f',
    'TIME %e %M',
    process.execPath,
    cli,
    'run',
    `${stem}.bed`,
    '--keep',
    subsetIds,
    '--model',
    'admixture',
    '--k',
    '3',
    '--cv',
    '0',
    '--threads',
    String(cores),
    '--out',
    jointOut,
  ],
  { encoding: 'utf8', maxBuffer: 1 << 28 },
);
must(joint, 'the joint fit');
const jointSeconds = (performance.now() - t2) / 1000;
const jointMb = Number(/TIME [\d.]+ (\d+)/.exec(joint.stderr)?.[1] ?? NaN) / 1024;
const jointQ = readQ(
  join(
    jointOut,
    readdirSync(jointOut).find((f) => f.endsWith('.Q'))!,
  ),
);

const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '—');
const out: string[] = [];
out.push('# A cohort larger than one fit: a reference fitted, the others projected in shards');
out.push('');
out.push(
  `${madeAt()} \`node --import tsx bench/cohort-scale.ts --n ${N} --snps ${L} --reference ${R} --shards ${S} --subset ${SUBSET} --k ${KS} --threads ${THREADS} > docs/cohort-scale.md\`.`,
);
out.push('');
out.push(
  `Data: ${N.toLocaleString('en')} individuals × ${L.toLocaleString('en')} simulated SNPs (a ${(statSync(`${stem}.bed`).size / 2 ** 20).toFixed(0)} MiB .bed${simulated > 1 ? `, simulated in ${fmt(simulated, 0)} s` : ''}): three populations (F_ST 0.05), each individual's ancestry drawn from a Dirichlet with weight 4 on its home population and 0.5 on each other, 1 % missing calls (bench/plink-fileset.ts).`,
);
out.push('');
out.push(
  `Workflow: \`stratify workflow FILE --model admixture --k ${KS} --reference-size ${R} --shards ${S} --threads ${THREADS}\` (the admixture defaults otherwise: adaptive starts, 5-fold CV, projected at the K of the lowest CV error), run by \`snakemake --cores ${cores}\` on this machine: **${fmt(total / 60)} minutes** in all. Each job's figures from Snakemake's benchmark files:`,
);
out.push('');
out.push('| job | jobs | mean wall time (s) | longest (s) | peak memory (MB) |');
out.push('|---|---|---|---|---|');
for (const [kind, e] of [...kinds].sort(
  (a, b) => b[1].s.reduce((x, y) => x + y, 0) - a[1].s.reduce((x, y) => x + y, 0),
))
  out.push(
    `| ${kind} | ${e.s.length} | ${fmt(e.s.reduce((a, b) => a + b, 0) / e.s.length)} | ${fmt(Math.max(...e.s))} | ${fmt(Math.max(...e.rss), 0)} |`,
  );
out.push('');
out.push(
  `Projected at K = ${K}. Accuracy against the simulated ancestry (RMSE of Q, clusters matched to the populations by overlap):`,
);
out.push('');
out.push('| individuals | cohort (fitted + projected) | joint fit of the subset |');
out.push('|---|---|---|');
out.push(`| all ${N.toLocaleString('en')} | ${fmt(rmse(cohortQ, truth, K), 4)} | — |`);
out.push(
  `| the ${R.toLocaleString('en')} of the reference (fitted) | ${fmt(rmse(rowsOf(cohortQ, reference, K), rowsOf(truth, reference, POPS), K), 4)} | — |`,
);
out.push(
  `| the ${projected.length.toLocaleString('en')} projected | ${fmt(rmse(rowsOf(cohortQ, projected, K), rowsOf(truth, projected, POPS), K), 4)} | — |`,
);
out.push(
  `| the first ${SUBSET.toLocaleString('en')} | ${fmt(rmse(rowsOf(cohortQ, subset, K), rowsOf(truth, subset, POPS), K), 4)} | ${fmt(rmse(jointQ, rowsOf(truth, subset, POPS), 3), 4)} |`,
);
out.push('');
out.push(
  `The joint fit: \`stratify run FILE --keep first-${SUBSET}.ids --model admixture --k 3 --cv 0 --threads ${cores}\`, ${fmt(jointSeconds)} s, ${fmt(jointMb, 0)} MB peak.`,
);
process.stdout.write(out.join('\n') + '\n');
