// A command run under GNU time, as the benchmarks compare Stratify's CLI with a peer's in one run.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const TIME = '/usr/bin/time';

/** Runs a command under GNU time: wall seconds and peak resident MB; throws with its stderr when it fails. */
export function timed(command: string, args: readonly string[]): { seconds: number; mb: number } {
  if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed for the peak memory: apt install time`);
  const r = spawnSync(TIME, ['-f', 'TIME %e %M', command, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const m = /TIME ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${command} failed (exit ${r.status}): ${r.stderr.trim().slice(-500)}`);
  return { seconds: Number(m[1]), mb: Number(m[2]) / 1024 };
}

/** Whether a peer program is on the PATH (its --version runs). */
export function installed(command: string): string | undefined {
  const r = spawnSync(command, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().split('\n')[0] : undefined;
}

/** The best of three runs of each command, taken in turn (the machine's drift falls on both). */
export function bestOfThree(commands: Record<string, () => { seconds: number; mb: number }>) {
  const best: Record<string, { seconds: number; mb: number }> = {};
  for (let r = 0; r < 3; r++)
    for (const [name, run] of Object.entries(commands)) {
      const t = run();
      if (!best[name] || t.seconds < best[name].seconds) best[name] = t;
    }
  return best;
}
