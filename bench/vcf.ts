// Streams a generated VCF.gz of `--variants` × `--samples` (default 100,000 × 500) through the
// VCF reader with progress, and reports the time and the peak memory.
// Usage: node --import tsx bench/vcf.ts [--variants 100000] [--samples 500] [--keep FILE]
import { createWriteStream, existsSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { once } from 'node:events';
import { readDataset } from '../engine/index.ts';
import { datasetFiles } from '../engine/node/file-source.ts';
import { createRng } from '../engine/util/rng.ts';
import { scriptNumber } from './args.ts';

const V = scriptNumber('--variants', 100_000);
const S = scriptNumber('--samples', 500);
const file = join(tmpdir(), `stratify-bench-${V}x${S}.vcf.gz`);

if (!existsSync(file)) {
  const t0 = performance.now();
  const gz = createGzip({ level: 1 });
  const out = createWriteStream(file);
  gz.pipe(out);
  const rng = createRng(1);
  const write = async (s: string) => {
    if (!gz.write(s)) await once(gz, 'drain');
  };
  await write(
    '##fileformat=VCFv4.2\n##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">\n##FORMAT=<ID=DP,Number=1,Type=Integer,Description="Depth">\n',
  );
  await write(
    [
      '#CHROM',
      'POS',
      'ID',
      'REF',
      'ALT',
      'QUAL',
      'FILTER',
      'INFO',
      'FORMAT',
      ...Array.from({ length: S }, (_, s) => `S${s + 1}`),
    ].join('\t') + '\n',
  );
  for (let v = 0; v < V; v++) {
    const p = 0.05 + 0.9 * rng.uniform();
    const cells: string[] = [];
    for (let s = 0; s < S; s++) {
      if (rng.uniform() < 0.01) cells.push('./.:0');
      else
        cells.push(`${rng.uniform() < p ? 1 : 0}/${rng.uniform() < p ? 1 : 0}:${10 + Math.floor(rng.uniform() * 20)}`);
    }
    await write(
      `${1 + Math.floor(v / 5000)}\t${1000 + 10 * v}\trs${v}\tA\tG\t50\tPASS\t.\tGT:DP\t${cells.join('\t')}\n`,
    );
  }
  gz.end();
  await once(out, 'finish');
  console.log(
    `generated ${file} (${(statSync(file).size / 2 ** 20).toFixed(1)} MiB compressed) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

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
const calls = data.calls.byteLength / 2 ** 20;
console.log(
  `parsed ${data.loci.length} variants × ${data.individuals.length} samples in ${seconds.toFixed(1)} s (${(data.loci.length / seconds).toFixed(0)} variants/s), ${reports} progress reports`,
);
console.log(
  `calls array ${calls.toFixed(0)} MiB (${data.calls.constructor.name}); peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB (baseline ${(baseline / 2 ** 20).toFixed(0)} MiB), peak JS heap ${(peakHeap / 2 ** 20).toFixed(0)} MiB`,
);
if (!process.argv.includes('--keep')) unlinkSync(file);
