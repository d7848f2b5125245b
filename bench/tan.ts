// EMA-TAN cost: time per iteration relative to EMA on the same data, for window w = 1, 3, 5.
// Data: phased SNPs in haplotype blocks (500 individuals, 3 populations, 400 blocks × 5 SNPs).
// Usage: node --import tsx bench/tan.ts
import { DEFAULT_FIT } from '../engine/model/fit-options.ts';
import { startContext, runStart } from '../engine/model/start.ts';
import { haplotypeBlocks } from '../tests/model/synthetic.ts';

const { data } = haplotypeBlocks(1, { pops: 3, perPop: 167, blocks: 400, size: 5, flip: 0.03, fst: 0.05 });
const ctx = startContext(data);
const K = 3;
function perIteration(fit: typeof DEFAULT_FIT): { ms: number; iterations: number } {
  let ms = 0;
  let iterations = 0;
  for (let s = 0; s < 3; s++) {
    const t0 = performance.now();
    const r = runStart(ctx, K, { ...fit, maxIterations: 15 }, s, 1000 + s);
    ms += performance.now() - t0;
    iterations += r.iterations + 1;
  }
  return { ms: ms / iterations, iterations };
}
console.log(`data: ${data.individuals.length} individuals × ${data.loci.length} phased SNPs, K = ${K}`);
const ema = perIteration(DEFAULT_FIT);
console.log(`EMA:            ${ema.ms.toFixed(2)} ms/iteration`);
for (const w of [1, 3, 5]) {
  const tan = perIteration({ ...DEFAULT_FIT, algorithm: 'ema-tan', tan: { window: w, order: 'genome', orderSeed: 1 } });
  console.log(`EMA-TAN, w = ${w}:  ${tan.ms.toFixed(2)} ms/iteration  (${(tan.ms / ema.ms).toFixed(1)}× EMA)`);
}
