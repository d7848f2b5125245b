// Opening a large VCF.gz in the desktop app: the renderer's memory when the engine host reads
// the file where it lives (the app now) against the bytes copied to the renderer and on to the
// engine (the app before). This process plays the renderer; the engine host's own logic runs in
// a child process (bench/desktop-open-host.ts). Writes docs/desktop-open.md's table to stdout.
// Usage: node --import tsx bench/desktop-open.ts [--variants 100000] [--samples 2000]
import { fork } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { execSync } from 'node:child_process';
import { EngineClient } from '../engine/runtime/engine-client.ts';
import type { FileInput } from '../engine/runtime/engine-protocol.ts';
import type { Port } from '../engine/runtime/port.ts';
import { scriptNumber } from './args.ts';
import { writeSimulatedVcfGz } from './simulated-vcf.ts';

const V = scriptNumber('--variants', 100_000);
const S = scriptNumber('--samples', 2_000);
const file = join(tmpdir(), `stratify-bench-${V}x${S}.vcf.gz`);
await writeSimulatedVcfGz(file, V, S);
const size = statSync(file).size;
const MiB = (b: number) => (b / 2 ** 20).toFixed(0);

/** The renderer's memory as Chromium's task manager would count its JavaScript: heap + buffers. */
function rendererMemory(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
}

async function open(mode: 'grant' | 'bytes') {
  const child = fork(new URL('./desktop-open-host.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
  });
  type Envelope = { to: 'host' | 'port'; data: unknown };
  const hostReplies: unknown[] = [];
  const portHandlers = new Set<(m: unknown) => void>();
  child.on('message', (m: Envelope) => {
    if (m.to === 'host') hostReplies.push(m.data);
    else for (const h of portHandlers) h(m.data);
  });
  const port: Port = {
    postMessage: (data) => child.send({ to: 'port', data }),
    onMessage: (h) => {
      portHandlers.add(h);
      return () => portHandlers.delete(h);
    },
    close: () => undefined,
  };
  global.gc?.();
  const before = rendererMemory();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rendererMemory())), 20);
  const t0 = performance.now();
  let files: FileInput[];
  if (mode === 'grant') {
    child.send({ to: 'host', data: { type: 'grant', id: 1, grant: 'g1', path: file } });
    while (hostReplies.length === 0) await new Promise((r) => setTimeout(r, 5));
    files = [{ name: 'big.vcf.gz', path: file, size, grant: 'g1' }];
  } else {
    // The app before: main read the file, the renderer kept its bytes and sent them on.
    files = [{ name: 'big.vcf.gz', bytes: readFileSync(file) }];
  }
  child.send({ to: 'host', data: { type: 'connect', window: 1 } });
  const client = new EngineClient(port);
  const info = await client.call('openDataset', [files, {}]).result;
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  global.gc?.();
  const after = rendererMemory();
  peak = Math.max(peak, after);
  const hostPeak = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024;
  child.kill();
  if (info.summary.individuals !== S || info.loci.length !== V) throw new Error('the dataset was not read whole');
  return { seconds, retained: after - before, peak: peak - before, hostPeak, kept: files };
}

// Each way twice, alternating, so neither gains from running second (page cache, JIT); the faster kept.
const runs = { grant: [] as Awaited<ReturnType<typeof open>>[], bytes: [] as Awaited<ReturnType<typeof open>>[] };
for (const mode of ['bytes', 'grant', 'bytes', 'grant'] as const) runs[mode].push(await open(mode));
const fastest = (xs: Awaited<ReturnType<typeof open>>[]) => xs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
const grant = fastest(runs.grant);
const bytes = fastest(runs.bytes);
const commit = execSync('git rev-parse --short HEAD').toString().trim();
console.log(`# Opening a large VCF.gz in the desktop app

Made by \`node --expose-gc --import tsx bench/desktop-open.ts --variants ${V} --samples ${S}\` at commit ${commit}
on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${MiB(totalmem())} MiB, Node ${process.version}.

A simulated VCF.gz of ${V.toLocaleString('en')} SNPs × ${S.toLocaleString('en')} samples (${MiB(size)} MiB) is
opened through the engine host's own code (\`electron/engine-host-serve.ts\`, in a child process standing
in for the utility process); this process stands in for the renderer. "Renderer" figures are its
JavaScript heap plus buffers after (retained) and during (peak) the open, over what it held before;
"before" is simulated by reading the file into this process and sending its bytes to the host, as
main did and the renderer relayed. Each way ran twice, alternating; the faster run is shown.

| how the file reaches the engine | renderer retained | renderer peak | engine host peak RSS | time |
|---|---:|---:|---:|---:|
| granted path, streamed by the host (the app now) | ${MiB(grant.retained)} MiB | ${MiB(grant.peak)} MiB | ${MiB(grant.hostPeak)} MiB | ${grant.seconds.toFixed(1)} s |
| bytes read by main, held by the renderer, copied on (before) | ${MiB(bytes.retained)} MiB | ${MiB(bytes.peak)} MiB | ${MiB(bytes.hostPeak)} MiB | ${bytes.seconds.toFixed(1)} s |

The renderer keeps what it opened (a project embeds it), so before the change the compressed file stayed
in its heap for as long as the dataset was open, and was copied once more to the engine.`);
