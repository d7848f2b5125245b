// `--init individuals`: starting clusters on individuals chosen far apart (k-means++ with the
// allele-sharing distance), docs/algorithms.md §3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { randomModel } from '../../engine/model/mixture/mixture-model.ts';
import { SEED_WEIGHT } from '../../engine/model/mixture/seeded-start.ts';
import { createRng } from '../../engine/util/rng.ts';
import { MISSING, type GenotypeData } from '../../engine/data/genotype-data.ts';

/** Diploid data from genotypes written per individual as [locus][copy] (−1 missing), 3 alleles per locus. */
function diploid(rows: number[][][]): GenotypeData {
  const N = rows.length;
  const L = rows[0]!.length;
  const calls = new Int16Array(L * N * 2);
  rows.forEach((loci, d) =>
    loci.forEach((copies, l) => copies.forEach((a, p) => (calls[(l * N + d) * 2 + p] = a < 0 ? MISSING : a))),
  );
  return {
    ploidy: 2,
    individuals: rows.map((_, d) => ({ id: `i${d}` })),
    loci: Array.from({ length: L }, (_, l) => ({ name: `m${l}`, alleles: ['1', '2', '3'] })),
    calls,
    phased: false,
  };
}

test('seeded start: the second seed is never an individual identical to the first; frequencies are ½ pooled + ½ the seed', () => {
  // Two kinds of individuals: A = (0/0, 1/2), four copies; B = (2/2, 0/0), three copies and one
  // missing at locus 1. With K = 2 the second seed has D = 0 for every A if the first is an A
  // (and the same for B), so the seeds are one A and one B, whatever the random draws.
  const A = [
    [0, 0],
    [1, 2],
  ];
  const B = [
    [2, 2],
    [0, 0],
  ];
  const Bmissing = [
    [2, 2],
    [-1, -1],
  ];
  const data = diploid([A, B, A, Bmissing, A, B, A, B]);
  const md = buildPreparedData(data);
  // Pooled frequencies, add-½ smoothed: locus 0 has 8 copies of allele 0 and 8 of allele 2 (16
  // observed); locus 1 has 4 × (1, 2) from A and 6 copies of 0 from the three observed B.
  const pooled = [
    [(8 + 0.5) / 17.5, 0.5 / 17.5, (8 + 0.5) / 17.5],
    [(6 + 0.5) / 15.5, (4 + 0.5) / 15.5, (4 + 0.5) / 15.5],
  ];
  const expected = (g: number[][], l: number) =>
    pooled[l]!.map((p, a) => (1 - SEED_WEIGHT) * p + (SEED_WEIGHT * g[l]!.filter((x) => x === a).length) / 2);
  for (let seed = 1; seed <= 30; seed++) {
    const m = randomModel(md, 2, createRng(seed), 'individuals');
    assert.deepEqual(Array.from(m.weights), [0.5, 0.5]);
    const column = (c: number, l: number) => [0, 1, 2].map((a) => m.theta[(md.offsets[l]! + a) * 2 + c]!);
    // Which cluster is A's: the one with more of allele 0 at locus 0.
    const a = column(0, 0)[0]! > column(1, 0)[0]! ? 0 : 1;
    const close = (x: number[], y: number[]) => x.every((v, k) => Math.abs(v - y[k]!) < 1e-12);
    for (const l of [0, 1]) assert.ok(close(column(a, l), expected(A, l)), `seed ${seed}, A, locus ${l}`);
    // B's cluster: its seed is a B, missing or not at locus 1 (missing: the pooled frequencies).
    assert.ok(close(column(1 - a, 0), expected(B, 0)), `seed ${seed}, B, locus 0`);
    const b1 = column(1 - a, 1);
    assert.ok(close(b1, expected(B, 1)) || close(b1, pooled[1]!), `seed ${seed}, B, locus 1: ${b1}`);
    for (let c = 0; c < 2; c++)
      for (const l of [0, 1]) assert.ok(Math.abs(column(c, l).reduce((s, x) => s + x, 0) - 1) < 1e-12);
  }
  // The same seed draws the same start.
  assert.deepEqual(randomModel(md, 2, createRng(5), 'individuals'), randomModel(md, 2, createRng(5), 'individuals'));
});

test('seeded start: with more clusters than distinct individuals the extra seeds repeat (no crash, frequencies still sum to 1)', () => {
  const g = [
    [0, 1],
    [2, 2],
  ];
  const md = buildPreparedData(diploid([g, g, g]));
  const m = randomModel(md, 4, createRng(3), 'individuals');
  for (let c = 0; c < 4; c++)
    for (let l = 0; l < 2; l++) {
      let s = 0;
      for (let a = 0; a < 3; a++) s += m.theta[(md.offsets[l]! + a) * 4 + c]!;
      assert.ok(Math.abs(s - 1) < 1e-12);
    }
});

test('seeded start: an individual with no observed copy never becomes a seed', () => {
  // Three A, three B and one individual missing everywhere: with K = 2 the seeds are one A and one B
  // for every draw (the first seed is drawn among individuals with data; the missing one is at
  // distance 0, not 1, from every seed, so the D² rule never picks it).
  const A = [
    [0, 0],
    [1, 1],
  ];
  const B = [
    [2, 2],
    [0, 0],
  ];
  const none = [
    [-1, -1],
    [-1, -1],
  ];
  const md = buildPreparedData(diploid([A, none, B, A, B, A, B]));
  for (let seed = 1; seed <= 40; seed++) {
    const m = randomModel(md, 2, createRng(seed), 'individuals');
    // Allele 0 at locus 0, pooled p̂ = (6 + ½)/(12 + 3/2): a B seed gives ½ p̂, an A seed ½ p̂ + ½,
    // the individual with no data would give p̂.
    const p = 6.5 / 13.5;
    const f = [0, 1].map((c) => m.theta[(md.offsets[0]! + 0) * 2 + c]!).sort((a, b) => a - b);
    assert.ok(Math.abs(f[0]! - p / 2) < 1e-12 && Math.abs(f[1]! - (p / 2 + 0.5)) < 1e-12, `seed ${seed}: ${f}`);
  }
});
