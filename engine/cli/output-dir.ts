import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Creates a folder and its missing parents one level at a time. (Node's recursive mkdirSync never
 * returns for a path under /proc: it retries the parent forever at 100 % CPU.)
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing.reverse()) mkdirSync(d);
}

/**
 * Creates the output folder (and its parents) and checks that files can be written in it, before
 * any computation: a folder that cannot be created or written fails at once with its reason.
 */
export function ensureWritableDir(dir: string): void {
  const probe = join(dir, `.stratify-write-test-${process.pid}`);
  try {
    makeDirs(dir);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^[A-Z]+: /, '') : String(e);
    throw new Error(`cannot write results to ${dir}: ${why}`);
  }
}
