// The model-fit check (evalAdmix's residual correlations): the fast estimator against a brute-force
// evaluation of the published formula on small data (SNPs and microsatellites, missing and partly
// called genotypes), and its behaviour on data simulated with three sources: about zero within
// populations at the right K, clearly positive in the merged populations at K = 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GenotypeData } from '../../engine/data/genotype-data.ts';
import { populationMeanCorrelations, residualCorrelations } from '../../engine/analysis/fit-check.ts';
import { admixtureWork } from '../../engine/model/admixture/admixture.ts';
import { admixtureFitSteps } from '../../engine/model/admixture/admixture-fit.ts';
import { admixtureFitOptions } from '../../engine/model/admixture/admixture-start.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { runToEnd } from '../../engine/model/mixture/fit.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { createRng } from '../../engine/util/rng.ts';
import { admixedData } from '../model/synthetic.ts';

/**
 * evalAdmix as published, written out plainly: for each i, F re-estimated without i by `its` EM
 * steps from F (Q fixed); cor(r_i with F, r_j with F⁽⁻ⁱ⁾) over the markers both have, each centred
 * by its mean over its own markers. One residual column per biallelic marker (allele 0), one per
 * allele otherwise.
 */
function bruteEvalAdmix(data: GenotypeData, Q: Float64Array, F: Float64Array, K: number, its: number): number[][] {
  const N = data.individuals.length;
  const P = data.ploidy;
  const loci = data.loci.map((l, index) => ({ index, A: l.alleles.length })).filter((l) => l.A >= 2);
  let row = 0;
  const rowOf: number[] = [];
  for (const l of data.loci) {
    rowOf.push(row);
    row += l.alleles.length;
  }
  const n = (l: number, i: number, a: number) => {
    let c = 0;
    for (let p = 0; p < P; p++) if (data.calls[(l * N + i) * P + p] === a) c++;
    return c;
  };
  const m = (l: number, i: number) => {
    let c = 0;
    for (let p = 0; p < P; p++) if (data.calls[(l * N + i) * P + p]! >= 0) c++;
    return c;
  };
  const freq = (f: Float64Array, l: number, a: number, k: number) => f[(rowOf[l]! + a) * K + k]!;
  const pred = (f: Float64Array, i: number, l: number, a: number) => {
    let s = 0;
    for (let k = 0; k < K; k++) s += Q[i * K + k]! * freq(f, l, a, k);
    return s;
  };
  const residuals = (f: Float64Array, i: number): number[] => {
    const r: number[] = [];
    for (const { index: l, A } of loci)
      for (let a = 0; a < (A === 2 ? 1 : A); a++) r.push(m(l, i) === 0 ? NaN : n(l, i, a) - m(l, i) * pred(f, i, l, a));
    return r;
  };
  const mean = (r: number[]) => {
    const x = r.filter((v) => !Number.isNaN(v));
    return x.reduce((s, v) => s + v, 0) / x.length;
  };
  const without = (i: number): Float64Array => {
    let f = Float64Array.from(F);
    for (let t = 0; t < its; t++) {
      const next = Float64Array.from(f);
      for (const { index: l, A } of loci) {
        const num: number[][] = Array.from({ length: A }, () => Array<number>(K).fill(0));
        for (let j = 0; j < N; j++) {
          if (j === i) continue;
          for (let a = 0; a < A; a++) {
            const c = n(l, j, a);
            if (c === 0) continue;
            const p = pred(f, j, l, a);
            for (let k = 0; k < K; k++) num[a]![k]! += (c * Q[j * K + k]! * freq(f, l, a, k)) / p;
          }
        }
        for (let k = 0; k < K; k++) {
          let tot = 0;
          for (let a = 0; a < A; a++) tot += num[a]![k]!;
          for (let a = 0; a < A; a++) next[(rowOf[l]! + a) * K + k] = num[a]![k]! / tot;
        }
      }
      f = next;
    }
    return f;
  };
  const cor: number[][] = Array.from({ length: N }, () => Array<number>(N).fill(NaN));
  for (let i = 0; i < N; i++) {
    const ri = residuals(F, i);
    const mi = mean(ri);
    const Fi = without(i);
    for (let j = i + 1; j < N; j++) {
      const rj = residuals(Fi, j);
      const mj = mean(rj);
      let num = 0;
      let d1 = 0;
      let d2 = 0;
      for (let s = 0; s < ri.length; s++) {
        if (Number.isNaN(ri[s]!) || Number.isNaN(rj[s]!)) continue;
        num += (ri[s]! - mi) * (rj[s]! - mj);
        d1 += (ri[s]! - mi) ** 2;
        d2 += (rj[s]! - mj) ** 2;
      }
      cor[i]![j] = cor[j]![i] = num / Math.sqrt(d1 * d2);
    }
  }
  return cor;
}

/** Simulated data with holes: a share of genotypes missing and (diploid) some with one copy missing. */
function withHoles(data: GenotypeData, seed: number, missing: number, partial: number): GenotypeData {
  const rng = createRng(seed);
  const calls = Int16Array.from(data.calls);
  const P = data.ploidy;
  for (let g = 0; g < calls.length / P; g++) {
    const u = rng.uniform();
    if (u < missing) for (let p = 0; p < P; p++) calls[g * P + p] = -1;
    else if (u < missing + partial) calls[g * P + P - 1] = -1;
  }
  return { ...data, calls };
}

function compare(fast: Float32Array, brute: number[][], N: number): { max: number; meanAbs: number } {
  let max = 0;
  let sum = 0;
  for (let i = 0; i < N; i++)
    for (let j = 0; j < N; j++) {
      if (i === j) continue;
      const e = Math.abs(fast[i * N + j]! - brute[i]![j]!);
      max = Math.max(max, e);
      sum += e;
    }
  return { max, meanAbs: sum / (N * (N - 1)) };
}

for (const kind of ['SNPs', 'microsatellites'] as const)
  test(`fit check: the fast residual correlations equal a brute-force evalAdmix (${kind}, missing and partly called genotypes)`, () => {
    const K = 3;
    const N = 24;
    const sim = admixedData(kind === 'SNPs' ? 4 : 5, {
      N,
      L: kind === 'SNPs' ? 300 : 60,
      K,
      alpha: 0.7,
      fst: 0.1,
      ...(kind === 'SNPs' ? {} : { alleles: 6 }),
    });
    const data = withHoles(sim.data, 11, 0.05, 0.03);
    const md = buildPreparedData(data);
    const fitted = runToEnd(
      admixtureFitSteps(
        md,
        admixtureWork(md),
        { K, Q: Float64Array.from(sim.Q), F: Float64Array.from(sim.F) },
        admixtureFitOptions({ ...DEFAULT_FIT, model: 'admixture' }),
      ),
    ).params;
    // No EM step: no correction, the same formula (float32 storage).
    for (const [Q, F] of [
      [sim.Q, sim.F],
      [fitted.Q, fitted.F],
    ] as const) {
      const diff = compare(
        residualCorrelations(data, Q, F, K, { iterations: 0 }).matrix,
        bruteEvalAdmix(data, Q, F, K, 0),
        N,
      );
      assert.ok(diff.max < 1e-6, `${kind}, uncorrected: largest difference ${diff.max}`);
    }
    // One step from the truth (far from an EM fixed point: F⁽⁰⁾ must follow the EM): exact but
    // for the one second-order term left out (of order 1/(N·√markers); N = 24 is very small).
    const one = compare(
      residualCorrelations(data, sim.Q, sim.F, K, { iterations: 1 }).matrix,
      bruteEvalAdmix(data, sim.Q, sim.F, K, 1),
      N,
    );
    assert.ok(one.max < 0.01, `${kind}, 1 step from the truth: largest difference ${one.max}`);
    // The default five steps on a fit (what users check): the error is a small part of the correction.
    const brute5 = bruteEvalAdmix(data, fitted.Q, fitted.F, K, 5);
    const brute0 = bruteEvalAdmix(data, fitted.Q, fitted.F, K, 0);
    const fast = residualCorrelations(data, fitted.Q, fitted.F, K);
    assert.equal(fast.iterations, 5);
    assert.ok(Number.isNaN(fast.matrix[0]), 'the diagonal is NaN');
    const err = compare(fast.matrix, brute5, N);
    let correction = 0;
    for (let i = 0; i < N; i++)
      for (let j = 0; j < N; j++) if (i !== j) correction += Math.abs(brute5[i]![j]! - brute0[i]![j]!);
    correction /= N * (N - 1);
    assert.ok(correction > 0.02, `the correction matters here: mean |change| ${correction}`);
    assert.ok(err.max < 0.015, `${kind}, 5 steps: largest difference ${err.max}`);
    assert.ok(
      err.meanAbs < 0.05 * correction,
      `${kind}, 5 steps: mean |difference| ${err.meanAbs} vs correction ${correction}`,
    );
  });

test('fit check: three sources — K = 3 fits (within-population residual correlation ≈ 0), K = 2 does not (positive in the merged populations)', () => {
  const sim = admixedData(21, { N: 90, L: 2000, K: 3, alpha: 1, fst: 0.1, references: 90 });
  const { data } = sim;
  const groups = Int32Array.from({ length: 90 }, (_, i) => i % 3);
  const md = buildPreparedData(data);
  const fitFrom = (K: number, Q: Float64Array, F: Float64Array) =>
    runToEnd(
      admixtureFitSteps(
        md,
        admixtureWork(md),
        { K, Q, F },
        admixtureFitOptions({ ...DEFAULT_FIT, model: 'admixture' }),
      ),
    ).params;
  const three = fitFrom(3, Float64Array.from(sim.Q), Float64Array.from(sim.F));
  // K = 2 from the truth with populations 1 and 2 merged.
  const Q2 = new Float64Array(90 * 2);
  for (let i = 0; i < 90; i++) {
    Q2[i * 2] = sim.Q[i * 3]!;
    Q2[i * 2 + 1] = sim.Q[i * 3 + 1]! + sim.Q[i * 3 + 2]!;
  }
  const F2 = new Float64Array((sim.F.length / 3) * 2);
  for (let x = 0; x < sim.F.length / 3; x++) {
    F2[x * 2] = sim.F[x * 3]!;
    F2[x * 2 + 1] = (sim.F[x * 3 + 1]! + sim.F[x * 3 + 2]!) / 2;
  }
  const two = fitFrom(2, Q2, F2);
  const within = (K: number, Q: Float64Array, F: Float64Array, its?: number) => {
    const r = residualCorrelations(data, Q, F, K, its === undefined ? {} : { iterations: its });
    const { means } = populationMeanCorrelations(r.matrix, 90, groups, 3);
    return [means[0]!, means[4]!, means[8]!];
  };
  const fit3 = within(3, three.Q, three.F);
  for (const v of fit3) assert.ok(Math.abs(v) <= 0.01, `K = 3: within-population mean ${v}`);
  const raw3 = within(3, three.Q, three.F, 0);
  for (let p = 0; p < 3; p++)
    assert.ok(raw3[p]! < fit3[p]! - 0.005, `uncorrected residuals are biased down: ${raw3[p]} vs ${fit3[p]}`);
  const fit2 = within(2, two.Q, two.F);
  assert.ok(Math.abs(fit2[0]!) <= 0.01, `K = 2, the population kept apart: ${fit2[0]}`);
  for (const v of fit2.slice(1)) assert.ok(v > 0.05, `K = 2, a merged population: ${v}`);
});

test('fit check: the WebAssembly dot products agree with the JavaScript ones (sizes not multiples of 4)', () => {
  for (const [N, L] of [
    [5, 13],
    [9, 1030],
  ] as const) {
    const sim = admixedData(8, { N, L, K: 2, alpha: 1, fst: 0.1 });
    const data = withHoles(sim.data, 3, 0.1, 0);
    const wasm = residualCorrelations(data, sim.Q, sim.F, 2);
    const js = residualCorrelations(data, sim.Q, sim.F, 2, { wasm: false });
    for (let x = 0; x < N * N; x++)
      if (x % (N + 1) !== 0) assert.ok(Math.abs(wasm.matrix[x]! - js.matrix[x]!) < 1e-5, `entry ${x}`);
  }
});
