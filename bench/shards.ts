import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { scriptArg } from './args.ts';

/**
 * Runs a report script's jobs in `shards` processes of one thread each. The script calls this
 * once with its own URL: in a worker process (started with `--shard i/n`) it runs the jobs j with
 * j mod n = i, writes each result as a JSON line and exits; in the first process it starts the n
 * workers and returns every job's result, in job order.
 */
export async function shardedResults<R>(
  scriptUrl: string,
  jobs: number,
  run: (j: number) => R | Promise<R>,
  shards = 2,
): Promise<R[]> {
  const shard = /^(\d+)\/(\d+)$/.exec(scriptArg('--shard', ''));
  if (shard) {
    const [index, count] = [Number(shard[1]), Number(shard[2])];
    for (let j = index; j < jobs; j += count) process.stdout.write(`${JSON.stringify({ j, result: await run(j) })}\n`);
    process.exit(0);
  }
  const script = new URL(scriptUrl).pathname;
  const outputs = await Promise.all(
    Array.from({ length: shards }, (_, index) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', script, '--shard', `${index}/${shards}`], {
        maxBuffer: 1 << 24,
      }),
    ),
  );
  const results = new Array<R>(jobs);
  for (const line of outputs.flatMap((o) => o.stdout.trim().split('\n')).filter((l) => l)) {
    const { j, result } = JSON.parse(line) as { j: number; result: R };
    results[j] = result;
  }
  return results;
}
