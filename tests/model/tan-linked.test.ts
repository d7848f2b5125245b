import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineStarts } from '../../engine/model/combine-starts.ts';
import { runStart, startContext, startSeed } from '../../engine/model/start.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { hardAssignments, matchingAccuracy } from '../../engine/analysis/partition-scores.ts';
import { tanData } from '../../engine/model/tan/tan-data.ts';
import { haplotypeBlocks, makeData } from './synthetic.ts';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

test('linked SNPs in haplotype blocks: EMA-TAN is no less accurate than EMA and its parent weights find the blocks', () => {
  const acc: Record<'ema' | 'ema-tan', number[]> = { ema: [], 'ema-tan': [] };
  const within: number[] = [];
  const across: number[] = [];
  for (const seed of [1, 2, 3, 4]) {
    const { data, labels } = haplotypeBlocks(seed, { pops: 3, perPop: 40, blocks: 30, size: 5, flip: 0.03, fst: 0.1 });
    const ctx = startContext(data);
    for (const algorithm of ['ema', 'ema-tan'] as const) {
      const starts = Array.from({ length: 12 }, (_, k) =>
        runStart(ctx, 3, { ...DEFAULT_FIT, algorithm }, k, startSeed(seed, 3, 0, k)),
      );
      const res = combineStarts(ctx.md, starts, 'best');
      acc[algorithm].push(matchingAccuracy(hardAssignments(res.Q, data.individuals.length, 3), labels));
      if (res.linkage) {
        for (const p of res.linkage) {
          if (p.locus === 0) continue;
          const w = p.parents.find((q) => q.locus === p.locus - 1)?.weight ?? 0;
          (p.locus % 5 === 0 ? across : within).push(w);
        }
      }
    }
  }
  console.log(
    `haplotype blocks: EMA ${acc.ema.map((a) => a.toFixed(3)).join(' ')} | EMA-TAN ${acc['ema-tan'].map((a) => a.toFixed(3)).join(' ')}; weight on the previous marker within blocks ${mean(within).toFixed(3)}, across block boundaries ${mean(across).toFixed(3)}`,
  );
  assert.ok(mean(acc['ema-tan']) >= mean(acc.ema) - 0.02, 'EMA-TAN no worse than EMA');
  assert.ok(mean(within) > 0.9, 'within-block links found');
  assert.ok(mean(across) < 0.3, 'no links across block boundaries');
});

test('TAN variables: genotype-level for unphased diploids, copy-level for phased data; candidates stay on the chromosome', () => {
  const base = makeData(4, 3, 2, [2, 2, 2], (l, i, p) => (l + i + p) % 2);
  const unphased = tanData(
    { ...base, loci: base.loci.map((l, k) => ({ ...l, chrom: k < 2 ? '1' : '2', pos: 10 * k })) },
    { window: 3, order: 'genome', orderSeed: 1 },
  );
  assert.equal(unphased.level, 'genotype');
  assert.equal(unphased.R, 1);
  assert.deepEqual(Array.from(unphased.candidates[1]!), [0]);
  assert.deepEqual(Array.from(unphased.candidates[2]!), [], 'a new chromosome starts without candidates');
  const phased = tanData({ ...base, phased: true }, { window: 1, order: 'file', orderSeed: 1 });
  assert.equal(phased.level, 'copy');
  assert.equal(phased.R, 2);
  assert.deepEqual(Array.from(phased.candidates[2]!), [1]);
  const random = tanData(base, { window: 2, order: 'random', orderSeed: 5 });
  assert.deepEqual([...random.loci].sort(), [0, 1, 2]);
});
