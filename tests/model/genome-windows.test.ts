// Linked markers in `--algorithm auto`: genome windows, the delete-one-window jackknife and the
// held-out log-likelihood without a window (docs/algorithms.md §4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { individualSubset, buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { DEFAULT_FIT, type FitOptions } from '../../engine/model/fit-options.ts';
import { randomModel } from '../../engine/model/mixture/mixture-model.ts';
import { genomeWindows } from '../../engine/model/prepared/genome-windows.ts';
import { addBlockDeletedLogLiks, jackknifeError } from '../../engine/model/mixture/block-deletion.ts';
import { combineStarts } from '../../engine/model/combine-starts.ts';
import { pairedGain, windowedGain } from '../../engine/model/algorithm-choice.ts';
import { runStart, startSeed, type StartResult } from '../../engine/model/start.ts';
import { createRng } from '../../engine/util/rng.ts';
import type { GenotypeData, Locus } from '../../engine/data/genotype-data.ts';
import { haplotypeFrequencyBlocks, multiAllelicPopulations, SNP_BLOCKS_3 } from './synthetic.ts';

const locus = (chrom: string | undefined, pos: number | undefined): Locus => ({
  name: `${chrom}:${pos}`,
  alleles: ['A', 'C'],
  ...(chrom !== undefined ? { chrom } : {}),
  ...(pos !== undefined ? { pos } : {}),
});

test('genome windows: ⌈L^(1/3)⌉ consecutive markers in genome order, never across a chromosome; none without positions', () => {
  // 10 markers (width ⌈10^(1/3)⌉ = 3), listed out of order: chr2 has 4, chr1 has 6.
  const loci = [
    locus('1', 500),
    locus('2', 30),
    locus('1', 100),
    locus('2', 10),
    locus('1', 300),
    locus('1', 200),
    locus('2', 20),
    locus('1', 400),
    locus('1', 600),
    locus('2', 40),
  ];
  const w = genomeWindows(loci)!;
  // chr1 (first seen) by position: 100 200 300 | 400 500 600; then chr2: 10 20 30 | 40.
  assert.equal(w.count, 4);
  const byPos = (chrom: string, pos: number) => w.of[loci.findIndex((l) => l.chrom === chrom && l.pos === pos)]!;
  assert.deepEqual(
    [100, 200, 300, 400, 500, 600].map((p) => byPos('1', p)),
    [0, 0, 0, 1, 1, 1],
  );
  assert.deepEqual(
    [10, 20, 30, 40].map((p) => byPos('2', p)),
    [2, 2, 2, 3],
  );
  // 8 markers: width exactly 2 (no rounding up of ∛8); one position missing: no windows.
  assert.equal(genomeWindows(Array.from({ length: 8 }, (_, i) => locus('1', i)))!.count, 4);
  assert.equal(genomeWindows([locus('1', 1), locus('1', undefined)]), undefined);
  assert.equal(genomeWindows([]), undefined);
});

test('the jackknife error of a sum of block terms is √B times their standard deviation', () => {
  const t = [3, -1, 4, 1, -5, 9];
  const T = t.reduce((a, b) => a + b, 0);
  const mean = T / t.length;
  const sd = Math.sqrt(t.reduce((s, x) => s + (x - mean) ** 2, 0) / (t.length - 1));
  const got = jackknifeError(t.map((x) => T - x));
  assert.ok(Math.abs(got - Math.sqrt(t.length) * sd) < 1e-12, `${got}`);
  assert.ok(Number.isNaN(jackknifeError([1])));
});

test('held-out ln L without a block equals the E step of the data without its loci (brute force)', () => {
  const cases = [
    // Microsatellite-like loci: one locus per group.
    {
      o: { pops: 3, perPop: 6, loci: 7, minAlleles: 2, maxAlleles: 5, fst: 0.1, missing: 0.1 },
      of: [0, 0, 1, 2, 2, 2, 1],
    },
    // SNPs among enough individuals for locus groups, with blocks that cut groups apart.
    {
      o: { pops: 3, perPop: 50, loci: 9, minAlleles: 2, maxAlleles: 2, fst: 0.1, missing: 0.05 },
      of: [0, 0, 0, 1, 1, 2, 2, 2, 1],
    },
  ];
  for (const { o, of } of cases) {
    const { data: plain } = multiAllelicPopulations(4, o);
    // The blocks as the genome windows of the SNPs (3 of 3 markers: positions in block order), so
    // the preparation keeps the rows of the loci of groups the blocks cut apart.
    const order = of.map((b, i) => [b, i] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    const data =
      o.maxAlleles === 2
        ? {
            ...plain,
            loci: plain.loci.map((l, i) => ({ ...l, chrom: '1', pos: 1 + order.findIndex(([, j]) => j === i) })),
          }
        : plain;
    const md = buildPreparedData(data);
    if (o.maxAlleles === 2) assert.deepEqual(Array.from(md.windows!.of), of);
    const K = 3;
    const model = randomModel(md, K, createRng(2), 'data');
    const blocks = { of: Int32Array.from(of), count: 3 };
    // Every individual, and a subset as cross-validation takes it (its grouped loci's codes not
    // copied except where a group spans blocks).
    const everyone = Array.from({ length: md.N }, (_, d) => d);
    for (const rows of [everyone, everyone.filter((d) => d % 3 !== 1)]) {
      const sub = rows.length === md.N ? md : individualSubset(md, rows);
      const out = new Float64Array(3).fill(0.5);
      addBlockDeletedLogLiks(sub, model, blocks, out);
      for (let b = 0; b < 3; b++) {
        let direct = 0;
        for (const d of rows) {
          const terms = Array.from({ length: K }, (_, c) => {
            let s = Math.log(model.weights[c]!);
            for (let l = 0; l < md.L; l++) {
              if (blocks.of[l] === b) continue;
              for (let p = 0; p < data.ploidy; p++) {
                const a = data.calls[(l * md.N + d) * data.ploidy + p]!;
                if (a >= 0) s += Math.log(model.theta[(md.offsets[l]! + a) * K + c]!);
              }
            }
            return s;
          });
          const m = Math.max(...terms);
          direct += m + Math.log(terms.reduce((t, x) => t + Math.exp(x - m), 0));
        }
        // out started at 0.5: the function adds.
        assert.ok(Math.abs(out[b]! - 0.5 - direct) < 1e-9, `block ${b}: ${out[b]! - 0.5} vs ${direct}`);
      }
    }
    if (md.N === 150)
      assert.ok(
        md.groups.row.some((r) => r >= 0),
        'the SNP case has groups of several loci',
      );
  }
});

test("the windowed gain's error adds the windows' jackknife error to the individuals' in quadrature", () => {
  const a = Float64Array.from([-10, -11, -9, -12]);
  const b = Float64Array.from([-11, -11.5, -10, -12]);
  const paired = pairedGain(a, b);
  const seInd = paired.total / paired.z;
  // Totals without each of 3 windows; their differences 1.5, 2.5, 0.5.
  const withoutA = Float64Array.from([-20, -21, -22]);
  const withoutB = Float64Array.from([-21.5, -23.5, -22.5]);
  const diffs = [1.5, 2.5, 0.5].map((x) => 1.5 * x); // each scaled by B/(B − 1) = 3/2
  const m = diffs.reduce((s, x) => s + x, 0) / 3;
  const seWin = Math.sqrt((2 / 3) * diffs.reduce((s, x) => s + (x - m) ** 2, 0));
  const g = windowedGain(a, b, withoutA, withoutB);
  assert.equal(g.total, paired.total);
  assert.equal(g.windows, 3);
  assert.ok(Math.abs(g.z - paired.total / Math.sqrt(seInd ** 2 + seWin ** 2)) < 1e-12);
});

test('auto on linked SNPs: a gain that rests on a few haplotype blocks does not keep EMA', () => {
  // Linked SNPs (40 blocks of 2–6 SNPs, F_ST 0.05; the accuracy suite's snp-blocks-3, seed 5):
  // EMA's best start clusters a few blocks' haplotypes (ARI 0.08 against the populations, EM's
  // 0.47) and predicts held-out individuals better by 3.8 standard errors over individuals. With
  // the markers' positions the error counts the genome windows too, and EM is kept; without
  // positions (markers taken as unlinked) the individuals' error alone keeps EMA.
  const { data } = haplotypeFrequencyBlocks(5, SNP_BLOCKS_3);
  // Random starts around the observed frequencies, as when the case was found.
  const o: FitOptions = { ...DEFAULT_FIT, init: 'data', algorithm: 'auto' };
  const choose = (d: GenotypeData) => {
    const md = buildPreparedData(d);
    const all: StartResult[] = Array.from({ length: 20 }, (_, k) => runStart(md, 3, o, k, startSeed(5, 3, 0, k)));
    return combineStarts(md, all, 'best', 'likelihood', o).algorithmChoice!;
  };
  const linked = choose(data);
  assert.equal(linked.algorithm, 'em', linked.reason);
  assert.match(linked.reason, /genome windows, too few to keep EMA/);
  const unplaced = choose({ ...data, loci: data.loci.map(({ name, alleles }) => ({ name, alleles })) });
  assert.equal(unplaced.algorithm, 'ema', unplaced.reason);
  assert.doesNotMatch(unplaced.reason, /windows/);
});
