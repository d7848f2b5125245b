// The `stratify` command as report scripts run it: bin/stratify.mjs in a child process, its
// stdout and wall-clock seconds, and its stderr in the error when it fails.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs `stratify ...args` to the end. */
export function stratify(...args: string[]): { stdout: string; seconds: number } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'stratify.mjs'), ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`stratify ${args.join(' ')}: ${r.stderr}`);
  return { stdout: r.stdout, seconds: (performance.now() - t) / 1000 };
}
