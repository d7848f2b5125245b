/**
 * Where tests, benchmarks and the report scripts find the datasets kept in this folder
 * (see README.md here for the source, licence and citation of each). Genotype files are read
 * by path through the same readers users get (gzip included); the UCI tables through
 * {@link uciText}.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const DATA_DIR = fileURLToPath(new URL('.', import.meta.url));

/** The path of a file in data/ (e.g. `eHGDP.str.gz`, `nancycats_original/nancycats.gen`). */
export function dataPath(name: string): string {
  const p = join(DATA_DIR, name);
  if (!existsSync(p)) throw new Error(`data/${name} is not in the repository`);
  return p;
}

/** The text of a file in data/, gunzipped when its name ends in .gz. */
export function dataText(name: string): string {
  const bytes = readFileSync(dataPath(name));
  return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** The text of a UCI table (`vote.arff`, `letter.csv`), stored plain or gzipped. */
export function uciText(file: string): string {
  const plain = join('uci', file);
  return existsSync(join(DATA_DIR, plain)) ? dataText(plain) : dataText(`${plain}.gz`);
}
