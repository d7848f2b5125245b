import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { checkPieces, mergePieces, type NamedPiece, type PieceJson } from '../service/sweep-pieces.ts';
import { ensureWritableDir } from './output-dir.ts';
import { parseKRange, threadsFlag, threadsOption } from './parse-args.ts';
import { withCancellablePool } from './pool-run.ts';
import { readForCommand } from './read-options.ts';
import { writeSweepResult } from './sweep.ts';

/** Piece files named on the command line; a folder stands for the *.piece.json files in it. */
function pieceFiles(paths: readonly string[]): string[] {
  return paths.flatMap((p) =>
    statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => f.endsWith('.piece.json'))
          .sort()
          .map((f) => join(p, f))
      : [p],
  );
}

function readPiece(path: string): NamedPiece {
  let piece: PieceJson;
  try {
    piece = JSON.parse(readFileSync(path, 'utf8')) as PieceJson;
  } catch (e) {
    throw new Error(`${path}: not a readable piece (${e instanceof Error ? e.message : String(e)})`);
  }
  return { name: path, piece };
}

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .argument('<pieces...>', 'piece files written by `stratify run --replicate` (or folders holding them)')
    .description('gather the pieces of a sweep (e.g. cluster jobs) into the result `stratify sweep` writes')
    .option('--k <range>', 'the K the sweep must cover (refuses a missing K)')
    .option('--data <file>', 'the genotype file (default: the one named in the pieces)')
    .addOption(threadsFlag("worker threads: the admixture model's CV folds, the likeliest run per K, run on them"))
    .option('--out <dir>', 'output directory', 'stratify-out')
    .action(async (paths: string[], o: Record<string, unknown>) => {
      const out = String(o['out']);
      ensureWritableDir(out);
      const pieces = pieceFiles(paths).map(readPiece);
      checkPieces(pieces);
      const first = pieces[0]!.piece;
      const file = typeof o['data'] === 'string' ? o['data'] : first.dataset.file;
      if (!file) throw new Error(`${pieces[0]!.name}: names no dataset file; give it with --data`);
      const { data } = await readForCommand(file, first.readFlags, 'structure');
      const expectK = typeof o['k'] === 'string' ? parseKRange(o['k']) : undefined;
      const threads = threadsOption(o['threads']);
      const { options, runs } = await withCancellablePool(threads, (pool, signal) =>
        mergePieces(data, pieces, expectK, pool, signal),
      );
      writeSweepResult(out, data, options, runs, false, first.readFlags);
    });
}
