// F's Newton step with Q fixed (engine/model/admixture/f-newton.ts) against an independent optimum
// (EM's F update with Q fixed, run to convergence) and against the optimum's KKT conditions computed
// from the genotype calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MISSING } from '../../engine/data/genotype-data.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import {
  admixtureLogLik,
  admixtureWork,
  cloneParams,
  emptyParams,
  emStep,
  PARAMETER_FLOOR,
} from '../../engine/model/admixture/admixture.ts';
import { randomAdmixture } from '../../engine/model/admixture/admixture-start.ts';
import { fNewtonStep, fNewtonWork } from '../../engine/model/admixture/f-newton.ts';
import { createRng } from '../../engine/util/rng.ts';
import { admixedData } from './synthetic.ts';

test('F by Newton with Q fixed: never lowers ln L, reaches the optimum that EM’s F update creeps to (triploid, 6 alleles, missing copies, frequencies at the floor), and meets its KKT conditions', () => {
  const K = 3;
  const { data } = admixedData(11, { N: 40, L: 12, K, alpha: 0.5, fst: 0.3, alleles: 6, ploidy: 3 });
  const rng = createRng(2);
  for (let j = 0; j < data.calls.length; j++) if (rng.uniform() < 0.05) data.calls[j] = MISSING;
  const md = buildPreparedData(data);
  const work = admixtureWork(md);
  const start = randomAdmixture(md, K, createRng(5));

  // Reference: EM's F update with Q held fixed, to convergence (slow, but the problem is concave).
  let cur = cloneParams(start);
  let next = emptyParams(md, K);
  for (let t = 0; t < 50000; t++) {
    emStep(md, work, cur, next);
    next.Q.set(cur.Q);
    [cur, next] = [next, cur];
  }
  const reference = admixtureLogLik(md, work, cur);

  const p = cloneParams(start);
  const s = fNewtonWork(md, K);
  let previous = -Infinity;
  let steps = 0;
  for (; steps < 30; steps++) {
    const ll = fNewtonStep(md, work, K, p.Q, p.F, s);
    assert.ok(ll >= previous - 1e-9, `step ${steps} lowered ln L: ${previous} → ${ll}`);
    if (ll - previous < 1e-10) break;
    previous = ll;
  }
  assert.deepEqual(p.Q, start.Q, 'Q stays fixed');
  const ll = admixtureLogLik(md, work, p);
  assert.ok(steps < 20, `${steps} Newton steps`);
  // EM's frequencies may fall below PARAMETER_FLOOR (1e-9), Newton's stop there: the floor costs
  // about Σ over floored entries of λ_k · 1e-9 (here ~2e-6).
  assert.ok(Math.abs(ll - reference) < 1e-5, `Newton ${ll}, EM ${reference}`);

  // KKT from the calls: g_ka = Σ over copies of allele a of q_ik / d is the same for every allele
  // whose frequency is above the floor (the multiplier of cluster k's simplex), and no larger at the floor.
  let floored = 0;
  for (let l = 0; l < data.loci.length; l++) {
    const A = data.loci[l]!.alleles.length;
    const g = new Float64Array(A * K);
    for (let i = 0; i < data.individuals.length; i++)
      for (let c = 0; c < data.ploidy; c++) {
        const a = data.calls[(l * data.individuals.length + i) * data.ploidy + c]!;
        if (a === MISSING) continue;
        const row = md.offsets[l]! + a;
        let d = 0;
        for (let k = 0; k < K; k++) d += p.Q[i * K + k]! * p.F[row * K + k]!;
        for (let k = 0; k < K; k++) g[a * K + k]! += p.Q[i * K + k]! / d;
      }
    for (let k = 0; k < K; k++) {
      const f = (a: number) => p.F[(md.offsets[l]! + a) * K + k]!;
      let lambda = 0;
      for (let a = 0; a < A; a++) lambda += f(a) * g[a * K + k]!;
      for (let a = 0; a < A; a++) {
        if (f(a) > 1e-6) assert.ok(Math.abs(g[a * K + k]! - lambda) < 1e-4 * lambda, `locus ${l}, k ${k}, allele ${a}`);
        else {
          floored++;
          assert.ok(
            f(a) < 10 * PARAMETER_FLOOR && g[a * K + k]! <= lambda * (1 + 1e-4),
            `locus ${l}, k ${k}, allele ${a} at the floor`,
          );
        }
      }
    }
  }
  assert.ok(floored > 0, 'some frequencies end at the floor (the active set is exercised)');
});
