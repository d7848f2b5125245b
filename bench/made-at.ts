// The line a report opens with: the commit it was made at (and whether files differed from it)
// and the machine, so a number can be traced to the code and the hardware that produced it.
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

/** "Made at commit abc1234 on 2 cores (CPU model), 24 GiB, Node 20.x." */
export function madeAt(): string {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  const commit = git('rev-parse', '--short', 'HEAD');
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '' ? ' (with uncommitted changes)' : '';
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `Made at commit ${commit}${dirty} on ${cpus().length} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node}.`;
}
