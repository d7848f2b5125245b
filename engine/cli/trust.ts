// `stratify fit-check` and `stratify bootstrap`: the trust features on a result already computed
// (a stratify.json of run, sweep or merge on the same file), without refitting it; `bootstrap
// --piece a..b` computes some of the refits (a workflow's piece) and `--pieces` combines them
// into what one `bootstrap` (or `run --bootstrap`) writes, bit for bit.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { nodeStartPool } from '../node/worker-pool.ts';
import { likeliestRunIn } from '../service/cluster-sweep.ts';
import type { SweepRun } from '../model/sweep.ts';
import { importResultFile } from '../service/import-result.ts';
import { bootstrapTasks, summarizeBootstrap } from '../service/bootstrap.ts';
import { VERSION } from '../util/version.ts';
import { ensureWritableDir } from './output-dir.ts';
import { positiveInt, threadsFlag, threadsOption } from './parse-args.ts';
import { ProgressBar } from './progress-bar.ts';
import { addReadOptions, readForCommand } from './read-options.ts';
import { bootstrapRuns, writeBootstrapFiles, writeFitChecks } from './trust-files.ts';

/** A result file's runs on the data, with the seed and fit options it ran with. */
function readResult(data: Parameters<typeof importResultFile>[0], file: string) {
  return importResultFile(data, file, readFileSync(file, 'utf8'));
}

/** The run a command works on: the likeliest at --k (which may be left out when the result holds one K). */
function runAtK(runs: readonly SweepRun[], k: unknown, file: string): SweepRun {
  return likeliestRunIn(runs, k === undefined ? undefined : positiveInt(k, '--k'), file);
}

/** A piece of a bootstrap: some refits' Q, in full precision, and what they belong to. */
interface BootstrapPiece {
  program: 'stratify';
  kind: 'bootstrap-piece';
  version: string;
  result: string;
  K: number;
  replicate: number;
  B: number;
  seed: number;
  N: number;
  /** 0-based refit index → its Q (N × K, row-major). */
  refits: { b: number; Q: number[] }[];
}

/** `a..b` (1-based, inclusive) within 1..B, as 0-based [from, to). */
function pieceRange(text: string, B: number): { from: number; to: number } {
  const m = /^(\d+)\s*(?:\.\.|-)\s*(\d+)$/.exec(text.trim());
  const a = m ? Number(m[1]) : NaN;
  const b = m ? Number(m[2]) : NaN;
  if (!(a >= 1 && b >= a && b <= B)) throw new Error(`--piece takes a..b within 1..${B} (--refits), got "${text}"`);
  return { from: a - 1, to: b };
}

/** The refits of a bootstrap from its pieces, checked to belong together and to cover 1..B once. */
function combinePieces(files: readonly string[], run: SweepRun, seed: number, N: number, B: number): Float64Array[] {
  const reps: (Float64Array | undefined)[] = new Array(B).fill(undefined);
  for (const file of files) {
    const p = JSON.parse(readFileSync(file, 'utf8')) as Partial<BootstrapPiece>;
    if (p.program !== 'stratify' || p.kind !== 'bootstrap-piece' || !Array.isArray(p.refits))
      throw new Error(`${file}: not a piece of \`stratify bootstrap --piece\``);
    const other = (what: string, there: unknown, here: unknown) =>
      new Error(`${file}: a piece of another bootstrap (${what} ${String(there)} there, ${String(here)} here)`);
    if (p.version !== VERSION) throw other('version', p.version, VERSION);
    if (p.K !== run.K) throw other('K', p.K, run.K);
    if (p.replicate !== run.replicate) throw other('replicate', (p.replicate ?? 0) + 1, run.replicate + 1);
    if (p.B !== B) throw other('refits', p.B, B);
    if (p.seed !== seed) throw other('seed', p.seed, seed);
    if (p.N !== N) throw other('individuals', p.N, N);
    for (const r of p.refits) {
      if (!(Number.isInteger(r.b) && r.b >= 0 && r.b < B) || r.Q.length !== N * run.K)
        throw new Error(`${file}: refit ${r.b + 1} does not fit ${N} individuals × K = ${run.K}`);
      if (reps[r.b]) throw new Error(`${file}: refit ${r.b + 1} is in another piece too`);
      reps[r.b] = Float64Array.from(r.Q);
    }
  }
  const missing = reps.flatMap((r, b) => (r ? [] : [b + 1]));
  if (missing.length > 0)
    throw new Error(
      `the pieces lack refit(s) ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''} of ${B}`,
    );
  return reps as Float64Array[];
}

export function registerTrust(program: Command): void {
  addReadOptions(
    program
      .command('fit-check')
      .argument('<file>', 'the genotype file the result was computed on')
      .description(
        "the model-fit check of a result (evalAdmix's residual correlations): fit.K{K}.tsv per K, population × population means",
      ),
  )
    .requiredOption('--result <file>', 'stratify.json of run, sweep or merge on this file')
    .option('--k <K>', 'check only this K (default: every K of the result, its likeliest replicate)')
    .option('--matrix', 'also write fit.K{K}.matrix.tsv, every pair')
    .option('--out <dir>', 'output directory', 'stratify-fit-check')
    .action(async (file: string, o: Record<string, unknown>) => {
      const out = String(o['out']);
      ensureWritableDir(out);
      const { data } = await readForCommand(file, o, 'structure');
      const { runs } = readResult(data, String(o['result']));
      const chosen = o['k'] === undefined ? runs : runs.filter((r) => r.K === positiveInt(o['k'], '--k'));
      if (chosen.length === 0) throw new Error(`${String(o['result'])}: no run at K = ${String(o['k'])}`);
      const entries = writeFitChecks(out, data, chosen, o['matrix'] === true);
      writeFileSync(
        join(out, 'fit-check.json'),
        JSON.stringify({ program: 'stratify', version: VERSION, fitCheck: entries }),
      );
    });

  addReadOptions(
    program
      .command('bootstrap')
      .argument('<file>', 'the genotype file the result was computed on')
      .description(
        "bootstrap standard errors and 95 % intervals of an admixture result's Q (ADMIXTURE's -B) without refitting it: .Q_se, .Q_lower, .Q_upper",
      ),
  )
    .requiredOption('--result <file>', 'stratify.json of run, sweep or merge on this file (admixture model)')
    .option('--k <K>', 'which K (its likeliest replicate; needed when the result holds several)')
    .option('--refits <B>', 'refits on resampled markers', '100')
    .option('--piece <a..b>', 'compute only refits a to b and write them as a piece (a workflow job)')
    .option('--pieces <files...>', 'combine pieces (from --piece) into the intervals, instead of refitting')
    .addOption(threadsFlag('worker threads for the refits'))
    .option('--out <dir>', 'output directory', 'stratify-bootstrap')
    .action(async (file: string, o: Record<string, unknown>) => {
      const out = String(o['out']);
      const B = positiveInt(o['refits'], '--refits');
      if (B < 2) throw new Error('--refits: 2 or more');
      if (o['piece'] !== undefined && o['pieces'] !== undefined)
        throw new Error('--piece and --pieces: one or the other');
      ensureWritableDir(out);
      const { data } = await readForCommand(file, o, 'structure');
      const resultFile = String(o['result']);
      const { runs, seed, fit } = readResult(data, resultFile);
      const run = runAtK(runs, o['k'], resultFile);
      const N = data.individuals.length;
      const stem = 'stratify';
      const entry: Record<string, unknown> = { K: run.K, replicate: run.replicate, result: basename(resultFile) };
      if (Array.isArray(o['pieces'])) {
        const reps = combinePieces(o['pieces'] as string[], run, seed, N, B);
        entry['bootstrap'] = writeBootstrapFiles(out, stem, data, run, summarizeBootstrap(reps, data, run.K));
      } else if (typeof o['piece'] === 'string') {
        const { from, to } = pieceRange(o['piece'], B);
        const tasks = bootstrapTasks(run, B, seed).slice(from, to);
        const pool = nodeStartPool(threadsOption(o['threads']));
        const bar = new ProgressBar(process.stderr);
        try {
          const done = await pool.runBootstrap(data, tasks, { ...fit, model: 'admixture' }, undefined, (n) =>
            bar.update(n, tasks.length, `bootstrap of K=${run.K}: refits ${from + 1}..${to}`),
          );
          const piece: BootstrapPiece = {
            program: 'stratify',
            kind: 'bootstrap-piece',
            version: VERSION,
            result: basename(resultFile),
            K: run.K,
            replicate: run.replicate,
            B,
            seed,
            N,
            refits: done.results.map((q, j) => ({ b: from + j, Q: Array.from(q!) })),
          };
          const name = join(out, `bootstrap.K${run.K}.${from + 1}-${to}.piece.json`);
          writeFileSync(name, JSON.stringify(piece));
          process.stdout.write(`wrote refits ${from + 1}..${to} of ${B} to ${name}\n`);
        } finally {
          bar.done();
          pool.close();
        }
        return;
      } else {
        const entries = [entry];
        await bootstrapRuns(out, stem, data, [run], entries, {
          B,
          seed,
          fit,
          threads: threadsOption(o['threads']),
        });
      }
      writeFileSync(
        join(out, `bootstrap.K${run.K}.json`),
        JSON.stringify({ program: 'stratify', version: VERSION, ...entry }),
      );
      process.stdout.write(`wrote the bootstrap of K=${run.K} (${B} refits) to ${out}\n`);
    });
}
