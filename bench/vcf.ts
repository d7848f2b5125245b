// Streams a generated VCF.gz of `--variants` × `--samples` (default 100,000 × 500) through the
// VCF reader with progress, and reports the time and the peak memory.
// Usage: node --import tsx bench/vcf.ts [--variants 100000] [--samples 500] [--keep FILE]
import { statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDataset } from '../engine/index.ts';
import { datasetFiles } from '../engine/node/file-source.ts';
import { scriptNumber } from './args.ts';
import { writeSimulatedVcfGz } from './simulated-vcf.ts';

const V = scriptNumber('--variants', 100_000);
const S = scriptNumber('--samples', 500);
const file = join(tmpdir(), `stratify-bench-${V}x${S}.vcf.gz`);

await writeSimulatedVcfGz(file, V, S);
console.log(`reading ${file} (${(statSync(file).size / 2 ** 20).toFixed(1)} MiB compressed)`);

let peakRss = process.memoryUsage().rss;
let peakHeap = process.memoryUsage().heapUsed;
const baseline = peakRss;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 50);
let reports = 0;
const t0 = performance.now();
const data = await readDataset(datasetFiles(file), {
  onProgress: (p) => {
    reports++;
    if (reports % 20 === 0)
      process.stderr.write(`\r${((100 * p.bytesRead) / (p.totalBytes ?? 1)).toFixed(0)}% ${p.records} lines`);
  },
});
const seconds = (performance.now() - t0) / 1000;
clearInterval(sampler);
process.stderr.write('\n');
// What holds the genotypes: the packed bytes where the reader kept them packed (reading `calls`
// would unpack them), else the calls array.
const held = data.packed ? data.packed.bytes : data.calls;
const calls = held.byteLength / 2 ** 20;
console.log(
  `parsed ${data.loci.length} variants × ${data.individuals.length} samples in ${seconds.toFixed(1)} s (${(data.loci.length / seconds).toFixed(0)} variants/s), ${reports} progress reports`,
);
console.log(
  `genotypes ${calls.toFixed(0)} MiB (${data.packed ? 'packed, two bits a genotype' : held.constructor.name}); peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB (baseline ${(baseline / 2 ** 20).toFixed(0)} MiB), peak JS heap ${(peakHeap / 2 ** 20).toFixed(0)} MiB`,
);
if (!process.argv.includes('--keep')) unlinkSync(file);
