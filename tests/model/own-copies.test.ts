// Projection with the individual's own copies in its frequencies (own-copies.ts): checked against a
// brute-force maximisation of the published objective on a tiny case, and against projection with
// F fixed when the reference's sample is so large that one individual cannot move it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alleleOffsets, MISSING } from '../../engine/data/genotype-data.ts';
import { projectAncestry } from '../../engine/model/admixture/projection.ts';
import { createRng } from '../../engine/util/rng.ts';
import { makeData, randomFrequencies } from './synthetic.ts';

/** The maximum of a function on [lo, hi] by grids narrowed around the best point (unimodal enough at this size). */
function zoomMax(f: (x: number) => number, lo = 1e-9, hi = 1 - 1e-9, rounds = 14): { x: number; value: number } {
  let best = { x: lo, value: -Infinity };
  for (let round = 0; round < rounds; round++) {
    const step = (hi - lo) / 16;
    for (let g = 0; g <= 16; g++) {
      const x = lo + g * step;
      const value = f(x);
      if (value > best.value) best = { x, value };
    }
    lo = Math.max(1e-12, best.x - 2 * step);
    hi = Math.min(1 - 1e-12, best.x + 2 * step);
  }
  return best;
}

test('own copies: q and ln L equal a brute-force maximum of the objective (K = 2, biallelic loci)', () => {
  // One diploid individual: homozygous for the first allele, heterozygous, homozygous for the
  // second, one locus missing. Reference: frequencies F̂ of the first allele, n = (8, 5) copies.
  const genotypes = [
    [0, 0],
    [0, 1],
    [1, 1],
    [MISSING, MISSING],
  ];
  const L = genotypes.length;
  const data = makeData(1, L, 2, [2, 2, 2, 2], (l, _i, p) => genotypes[l]![p]!);
  const first = [
    [0.9, 0.2],
    [0.4, 0.7],
    [0.6, 0.05],
    [0.5, 0.5],
  ];
  const n = [8, 5];
  const prior = 1;
  const offsets = alleleOffsets(data);
  const F = new Float64Array(offsets[L]! * 2);
  for (let l = 0; l < L; l++)
    for (let k = 0; k < 2; k++) {
      F[offsets[l]! * 2 + k] = first[l]![k]!;
      F[(offsets[l]! + 1) * 2 + k] = 1 - first[l]![k]!;
    }
  // Φ for one locus at q (first cluster's share) and the first allele's frequencies (x, y) in the
  // two clusters: its copies' ln L plus Σ_k (n_k f̂ + λ) ln f + (n_k (1 − f̂) + λ) ln(1 − f).
  const locusPhi = (l: number, q: number, x: number, y: number) => {
    const f = [x, y];
    let v = 0;
    for (const a of genotypes[l]!) {
      if (a === MISSING) continue;
      const pa = (k: number) => (a === 0 ? f[k]! : 1 - f[k]!);
      v += Math.log(q * pa(0) + (1 - q) * pa(1));
    }
    for (let k = 0; k < 2; k++)
      v +=
        (n[k]! * first[l]![k]! + prior) * Math.log(f[k]!) + (n[k]! * (1 - first[l]![k]!) + prior) * Math.log(1 - f[k]!);
    return v;
  };
  // For each locus the best (x, y) at q: concave in (x, y), so alternate one-dimensional maxima.
  const best = (q: number) => {
    let total = 0;
    let logLik = 0;
    for (let l = 0; l < L; l++) {
      let x = 0.5;
      let y = 0.5;
      for (let sweep = 0; sweep < 12; sweep++) {
        x = zoomMax((t) => locusPhi(l, q, t, y)).x;
        y = zoomMax((t) => locusPhi(l, q, x, t)).x;
      }
      total += locusPhi(l, q, x, y);
      for (const a of genotypes[l]!)
        if (a !== MISSING) logLik += Math.log(a === 0 ? q * x + (1 - q) * y : q * (1 - x) + (1 - q) * (1 - y));
    }
    return { total, logLik };
  };
  const q = zoomMax((t) => best(t).total).x;
  const got = projectAncestry(data, F, 2, offsets, { sample: { clusterCopies: Float64Array.from(n), prior } });
  assert.ok(Math.abs(got.Q[0]! - q) < 1e-5, `q ${got.Q[0]} vs brute force ${q}`);
  assert.ok(Math.abs(got.logLik[0]! - best(q).logLik) < 1e-6, `ln L ${got.logLik[0]} vs ${best(q).logLik}`);
  assert.equal(got.copies[0], 6);
  assert.equal(got.converged[0], 1);
  // Its own copies pull the frequencies towards its alleles: q differs from projection with F̂ fixed.
  const fixed = projectAncestry(data, F, 2, offsets);
  assert.ok(Math.abs(fixed.Q[0]! - q) > 1e-3, `own copies move q (${fixed.Q[0]} vs ${q})`);
});

test('own copies: with a reference sample too large to move, the same as projection with F fixed (K = 3, multi-allelic)', () => {
  const rng = createRng(5);
  const K = 3;
  const alleles = [2, 3, 5, 2, 4, 2, 6, 3];
  const L = alleles.length;
  const N = 6;
  const data = makeData(N, L, 2, alleles, (l, i) =>
    i === 5 && l < 3 ? MISSING : Math.floor(rng.uniform() * alleles[l]!),
  );
  const offsets = alleleOffsets(data);
  const F = randomFrequencies(rng, offsets, K);
  const tight = { tolerance: 1e-11, maxIterations: 100000 };
  const fixed = projectAncestry(data, F, K, offsets, tight);
  const own = projectAncestry(data, F, K, offsets, {
    ...tight,
    sample: { clusterCopies: Float64Array.from([1e9, 1e9, 1e9]), prior: 1 },
  });
  for (let j = 0; j < N * K; j++)
    assert.ok(Math.abs(own.Q[j]! - fixed.Q[j]!) < 1e-5, `entry ${j}: ${own.Q[j]} vs ${fixed.Q[j]}`);
  assert.deepEqual(Array.from(own.copies), Array.from(fixed.copies));
  assert.throws(
    () => projectAncestry(data, F, K, offsets, { sample: { clusterCopies: Float64Array.from([1, 1, 1]), prior: 0 } }),
    /above 0/,
  );
});
