// The Q block's Newton step (engine/model/admixture/q-newton.ts) against the exact optimum of each
// individual's likelihood with F fixed: a grid over the simplex (K = 3) and a long run of the Q-only
// EM iteration (a different algorithm with the same fixed point), computed from the raw calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MISSING, type GenotypeData } from '../../engine/data/genotype-data.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { admixtureWork } from '../../engine/model/admixture/admixture.ts';
import { qNewtonStep, qNewtonWork } from '../../engine/model/admixture/q-newton.ts';
import { createRng } from '../../engine/util/rng.ts';
import { admixedData } from './synthetic.ts';

/** Rows of F (engine layout) of individual i's observed copies, one entry per copy. */
function copyRows(d: GenotypeData, i: number): number[] {
  const N = d.individuals.length;
  const rows: number[] = [];
  let offset = 0;
  for (let l = 0; l < d.loci.length; l++) {
    for (let c = 0; c < d.ploidy; c++) {
      const a = d.calls[(l * N + i) * d.ploidy + c]!;
      if (a !== MISSING) rows.push(offset + a);
    }
    offset += d.loci[l]!.alleles.length;
  }
  return rows;
}

/** φ_i(q) = Σ over observed copies of ln Σ_k q_k f_k(copy). */
function phi(rows: number[], q: ArrayLike<number>, F: Float64Array, K: number): number {
  let s = 0;
  for (const r of rows) {
    let d = 0;
    for (let k = 0; k < K; k++) d += q[k]! * F[r * K + k]!;
    s += Math.log(d);
  }
  return s;
}

/** The Q-only EM iteration q_k ← mean over copies of q_k f_k / d, run long. */
function qOnlyEm(rows: number[], F: Float64Array, K: number, iterations: number): number[] {
  let q = Array<number>(K).fill(1 / K);
  for (let t = 0; t < iterations; t++) {
    const next = Array<number>(K).fill(0);
    for (const r of rows) {
      let d = 0;
      for (let k = 0; k < K; k++) d += q[k]! * F[r * K + k]!;
      for (let k = 0; k < K; k++) next[k]! += (q[k]! * F[r * K + k]!) / d / rows.length;
    }
    q = next;
  }
  return q;
}

/** Simulated triploid data, 4 alleles per locus, strong structure, some missing copies. */
function dataset(K: number, seed: number) {
  const sim = admixedData(seed, { N: 24, L: 40, K, alpha: 0.3, fst: 0.3, alleles: 4, ploidy: 3, references: K });
  const calls = sim.data.calls;
  const rng = createRng(seed + 100);
  for (let j = 0; j < calls.length; j++) if (rng.uniform() < 0.08) calls[j] = MISSING;
  // The populations' true frequencies (floored, so that every copy has d > 0): sharp clusters, so
  // that the unadmixed references and others have optima on the simplex's boundary.
  const F = sim.F.map((x) => Math.max(x, 1e-6));
  return { data: sim.data, F };
}

/**
 * Newton steps from Q = uniform, or with `corner`, from individual i's ancestry 0.98 in cluster
 * (i + 1) mod K (far from most optima, where the quadratic model is poorest).
 */
function newtonSteps({ data, F }: { data: GenotypeData; F: Float64Array }, K: number, steps: number, corner = false) {
  const md = buildPreparedData(data);
  assert.equal(md.totalAlleles * K, F.length);
  const work = admixtureWork(md);
  const Q = new Float64Array(md.N * K).fill(corner ? 0.02 / (K - 1) : 1 / K);
  if (corner) for (let i = 0; i < md.N; i++) Q[i * K + ((i + 1) % K)] = 0.98;
  const scratch = qNewtonWork(md.N, K);
  const trace: number[][] = [];
  const rows = Array.from({ length: md.N }, (_, i) => copyRows(data, i));
  trace.push(rows.map((r, i) => phi(r, Q.subarray(i * K, (i + 1) * K), F, K)));
  for (let s = 0; s < steps; s++) {
    qNewtonStep(md, work, K, Q, F, scratch);
    trace.push(rows.map((r, i) => phi(r, Q.subarray(i * K, (i + 1) * K), F, K)));
  }
  return { md, F, Q, rows, trace };
}

test('Q Newton step (K = 3): no individual loses likelihood, and it reaches the optimum a simplex grid finds, on the boundary too', () => {
  const K = 3;
  // From the wrong corners (the steps that must be halved) and from uniform ancestry.
  const corner = newtonSteps(dataset(K, 3), K, 25, true);
  for (let s = 1; s < corner.trace.length; s++)
    for (let i = 0; i < corner.md.N; i++)
      assert.ok(corner.trace[s]![i]! >= corner.trace[s - 1]![i]! - 1e-9, `from a corner, step ${s}, individual ${i}`);
  const { md, F, Q, rows, trace } = newtonSteps(dataset(K, 3), K, 25);
  for (let s = 1; s < trace.length; s++)
    for (let i = 0; i < md.N; i++)
      assert.ok(
        trace[s]![i]! >= trace[s - 1]![i]! - 1e-9,
        `step ${s}, individual ${i}: ${trace[s - 1]![i]} → ${trace[s]![i]}`,
      );
  const n = 300;
  let onBoundary = 0;
  for (let i = 0; i < md.N; i++) {
    let best = -Infinity;
    let arg = [0, 0, 0];
    for (let a = 0; a <= n; a++)
      for (let b = 0; a + b <= n; b++) {
        const q = [a / n, b / n, (n - a - b) / n];
        const v = phi(rows[i]!, q, F, K);
        if (v > best) [best, arg] = [v, q];
      }
    const got = Q.subarray(i * K, (i + 1) * K);
    const value = phi(rows[i]!, got, F, K);
    // The grid may put a component at exactly 0, Newton keeps it at the 1e-9 floor: ≤ ~1e-7 apart.
    assert.ok(value >= best - 1e-6, `individual ${i}: Newton ${value} below the grid's ${best}`);
    for (let k = 0; k < K; k++)
      assert.ok(Math.abs(got[k]! - arg[k]!) <= 2.5 / n, `individual ${i}: q ${Array.from(got)} vs grid ${arg}`);
    if (arg.some((x) => x === 0)) onBoundary++;
  }
  // The case the pinned components handle is present.
  assert.ok(onBoundary >= 3, `${onBoundary} optima on the boundary`);
});

test('Q Newton step (K = 9, beyond the written-out passes): reaches the Q-only EM fixed point', () => {
  const K = 9;
  const { md, F, Q, rows, trace } = newtonSteps(dataset(K, 5), K, 40);
  for (let s = 1; s < trace.length; s++)
    for (let i = 0; i < md.N; i++) assert.ok(trace[s]![i]! >= trace[s - 1]![i]! - 1e-9, `step ${s}, individual ${i}`);
  for (let i = 0; i < md.N; i++) {
    const want = qOnlyEm(rows[i]!, F, K, 20000);
    const got = Q.subarray(i * K, (i + 1) * K);
    const gap = phi(rows[i]!, want, F, K) - phi(rows[i]!, got, F, K);
    assert.ok(gap < 1e-6, `individual ${i}: Newton below the EM fixed point by ${gap}`);
    for (let k = 0; k < K; k++)
      assert.ok(Math.abs(got[k]! - want[k]!) < 2e-3, `individual ${i}, k ${k}: ${got[k]} vs ${want[k]}`);
  }
});
