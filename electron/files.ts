import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file atomically: the content goes to a temporary file beside the target, is flushed
 * to disk, and then renamed over the target, so a crash leaves either the old or the new file,
 * never a torn one.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/** Reads a JSON file, or returns `fallback` when it is missing or unreadable. */
export async function readJson<T>(path: string, fallback: T): Promise<T> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return fallback;
  }
}

/** The most-recent-first list with `path` added, without duplicates, at most `max` long. */
export function addRecent(list: readonly string[], path: string, max = 10): string[] {
  return [path, ...list.filter((p) => p !== path)].slice(0, max);
}

/** Genotype files among command-line arguments (file associations on Windows and Linux). */
export function genotypePathsIn(argv: readonly string[]): string[] {
  return argv.filter((a) => !a.startsWith('-') && /\.(str|stru|gen|vcf|vcf\.gz|ped|bed|csv|tsv)$/i.test(a));
}
