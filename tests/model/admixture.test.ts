// The admixture model: its log-likelihood and EM step against the definitions computed copy by
// copy on the raw calls, monotone ascent, plain EM and SQUAREM at the same optimum, and ancestry
// recovered on data simulated as in Pritchard et al. (2000).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MISSING, type GenotypeData } from '../../engine/data/genotype-data.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import {
  admixtureLogLik,
  admixtureWork,
  emStep,
  emptyParams,
  markerAveraging,
  type AdmixtureParams,
} from '../../engine/model/admixture/admixture.ts';
import { admixtureFitSteps, squaremFitSteps } from '../../engine/model/admixture/admixture-fit.ts';
import {
  admixtureStart,
  randomAdmixture,
  resolvedAdmixtureInit,
} from '../../engine/model/admixture/admixture-start.ts';
import {
  admixtureStep,
  type AdmixtureMap,
  resolvedQUpdate,
  resolvedFUpdate,
  resolvedAcceleration,
} from '../../engine/model/admixture/admixture-step.ts';
import { validateSweep } from '../../engine/model/sweep.ts';
import { admixtureCvError, heldOutDeviance } from '../../engine/model/admixture/cross-validation.ts';
import { alignToReference, permuteColumns } from '../../engine/model/align.ts';
import { runStart, startSeed } from '../../engine/model/start.ts';
import { DEFAULT_FIT, type FitOptions } from '../../engine/model/fit-options.ts';
import { createRng } from '../../engine/util/rng.ts';
import {
  CLUSTER_DEFAULTS,
  type Acceleration,
  type AdmixtureInit,
  type FUpdate,
  type QUpdate,
} from '../../engine/util/choices.ts';
import gammaln from '@stdlib/math-base-special-gammaln';
import { admixedData, makeData } from './synthetic.ts';

/** Row of allele a at locus l in the (Σ r_l, K) layout. */
const rowOf = (d: GenotypeData, l: number, a: number) =>
  d.loci.slice(0, l).reduce((s, x) => s + x.alleles.length, 0) + a;

/** ln L = Σ over observed copies of ln Σ_k q_ik f_kla, straight from the calls. */
function bruteLogLik(d: GenotypeData, p: AdmixtureParams): number {
  const N = d.individuals.length;
  let ll = 0;
  for (let l = 0; l < d.loci.length; l++)
    for (let i = 0; i < N; i++)
      for (let c = 0; c < d.ploidy; c++) {
        const a = d.calls[(l * N + i) * d.ploidy + c]!;
        if (a === MISSING) continue;
        let s = 0;
        for (let k = 0; k < p.K; k++) s += p.Q[i * p.K + k]! * p.F[rowOf(d, l, a) * p.K + k]!;
        ll += Math.log(s);
      }
  return ll;
}

/** The EM update of Tang et al. (2005) from its definition, copy by copy. */
function bruteEm(d: GenotypeData, p: AdmixtureParams, normalise = true): AdmixtureParams {
  const N = d.individuals.length;
  const K = p.K;
  const Q = new Float64Array(N * K);
  const F = new Float64Array(p.F.length);
  const copies = new Float64Array(N);
  for (let l = 0; l < d.loci.length; l++)
    for (let i = 0; i < N; i++)
      for (let c = 0; c < d.ploidy; c++) {
        const a = d.calls[(l * N + i) * d.ploidy + c]!;
        if (a === MISSING) continue;
        copies[i]!++;
        const row = rowOf(d, l, a);
        const post = Array.from({ length: K }, (_, k) => p.Q[i * K + k]! * p.F[row * K + k]!);
        const s = post.reduce((x, y) => x + y, 0);
        post.forEach((w, k) => {
          Q[i * K + k]! += w / s;
          F[row * K + k]! += w / s;
        });
      }
  for (let i = 0; i < N; i++) for (let k = 0; k < K; k++) Q[i * K + k]! /= copies[i]!;
  if (normalise)
    for (let l = 0; l < d.loci.length; l++)
      for (let k = 0; k < K; k++) {
        const rows = d.loci[l]!.alleles.map((_, a) => rowOf(d, l, a));
        const s = rows.reduce((x, r) => x + F[r * K + k]!, 0);
        for (const r of rows) F[r * K + k]! /= s;
      }
  return { K, Q, F };
}

test('admixture: ln L and one EM step equal their definitions (triploid, multi-allelic, missing copies), for every K the written-out passes handle and beyond', () => {
  const rng = createRng(3);
  const d = makeData(7, 4, 3, [2, 3, 4, 1], (l, i, c) =>
    (i + c + l) % 5 === 0 ? -1 : Math.floor(rng.uniform() * [2, 3, 4, 1][l]!),
  );
  const md = buildPreparedData(d);
  const work = admixtureWork(md);
  for (const K of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
    const p = randomAdmixture(md, K, createRng(9 + K));
    const out = emptyParams(md, K);
    const ll = emStep(md, work, p, out);
    const want = bruteLogLik(d, p);
    assert.ok(Math.abs(ll - want) < 1e-10, `K = ${K}: ${ll} vs ${want}`);
    assert.ok(Math.abs(admixtureLogLik(md, work, p) - want) < 1e-10);
    const e = bruteEm(d, p);
    for (let j = 0; j < e.Q.length; j++) assert.ok(Math.abs(out.Q[j]! - e.Q[j]!) < 1e-12, `K = ${K}: Q[${j}]`);
    for (let j = 0; j < e.F.length; j++) assert.ok(Math.abs(out.F[j]! - e.F[j]!) < 1e-12, `K = ${K}: F[${j}]`);
  }
});

/** The Q and F updates of the step (engine/model/admixture/admixture-fit.ts's admixtureStep). */
const UPDATES = [
  ['em', 'em'],
  ['newton', 'em'],
  ['em', 'newton'],
  ['newton', 'newton'],
] as const;

test('admixture: the log-likelihood never decreases along the accepted steps, under each acceleration and Q and F update', () => {
  const { data } = admixedData(5, { N: 60, L: 150, K: 3, alpha: 0.5, fst: 0.1 });
  const md = buildPreparedData(data);
  const work = admixtureWork(md);
  for (const [qUpdate, fUpdate] of UPDATES)
    for (const acceleration of ['anderson', 'squarem', 'none'] as const) {
      if (acceleration === 'anderson' && qUpdate !== fUpdate) continue; // refused by sweeps (sweep.ts)
      const maxIterations = acceleration === 'none' ? 400 : 3000;
      const steps = admixtureFitSteps(md, work, randomAdmixture(md, 3, createRng(1)), {
        tolerance: 1e-6,
        maxIterations,
        acceleration,
        qUpdate,
        fUpdate,
      });
      const lls: number[] = [];
      let r = steps.next();
      while (!r.done) {
        lls.push(r.value.logLik);
        r = steps.next();
      }
      const name = `${acceleration}, Q by ${qUpdate}, F by ${fUpdate}`;
      if (acceleration !== 'none' || (qUpdate === 'newton' && fUpdate === 'newton'))
        assert.ok(r.value.converged, `${name} converged`);
      for (let t = 1; t < lls.length; t++)
        assert.ok(lls[t]! >= lls[t - 1]! - 1e-9, `${name}: step ${t} lowered ln L by ${lls[t - 1]! - lls[t]!}`);
    }
});

test('admixture SQUAREM: an extrapolated point is tested by an ln L pass equal to the map’s to the bit (F by Newton through WebAssembly and JavaScript, F by EM), and gives the fit that testing by whole steps gives, in fewer steps', () => {
  const { data } = admixedData(6, { N: 60, L: 150, K: 3, alpha: 0.5, fst: 0.1 });
  const md = buildPreparedData(data);
  const pairs: [QUpdate, FUpdate][] = [
    ['newton', 'newton'],
    ['em', 'newton'],
    ['newton', 'em'],
  ];
  for (const wasm of [true, false])
    for (const [qUpdate, fUpdate] of pairs) {
      const name = `Q by ${qUpdate}, F by ${fUpdate}, ${wasm ? 'WebAssembly' : 'JavaScript'}`;
      const work = { ...admixtureWork(md), wasm };
      const options = { tolerance: 1e-6, maxIterations: 3000, acceleration: 'squarem' as const, qUpdate, fUpdate };
      const map = admixtureStep(md, work, 3, options);
      const logLik = map.logLik;
      assert.ok(logLik, name);
      for (let seed = 1; seed <= 3; seed++) {
        const p = randomAdmixture(md, 3, createRng(seed));
        const ll: number = logLik(p);
        assert.equal(ll, map.step(p, emptyParams(md, 3)), `${name}, seed ${seed}`);
        const brute = bruteLogLik(data, p);
        assert.ok(Math.abs(ll - brute) < 1e-9 * Math.abs(brute), `${name}: ${ll} against ${brute} copy by copy`);
      }
      // The same fit when each test takes a whole step instead (its ln L), in fewer steps.
      let steps = 0;
      const counted = (cur: AdmixtureParams, out: AdmixtureParams) => (steps++, map.step(cur, out));
      const scratch = emptyParams(md, 3);
      const fitted = (m: AdmixtureMap) => {
        steps = 0;
        const fit = squaremFitSteps(md, work, randomAdmixture(md, 3, createRng(2)), options, m);
        let r = fit.next();
        while (!r.done) r = fit.next();
        return { ...r.value, steps };
      };
      const tested = fitted({ step: counted, logLik });
      const byStep = fitted({ step: counted, logLik: (cur) => counted(cur, scratch) });
      assert.ok(tested.converged, name);
      assert.equal(tested.logLik, byStep.logLik, name);
      assert.equal(tested.iterations, byStep.iterations, name);
      assert.deepEqual(tested.params.Q, byStep.params.Q, name);
      assert.deepEqual(tested.params.F, byStep.params.F, name);
      assert.ok(tested.steps < byStep.steps, `${name}: ${tested.steps} steps against ${byStep.steps}`);
    }
});

test('admixture: plain EM, SQUAREM and Anderson acceleration with EM for Q, and plain steps and SQUAREM with Newton for Q or F or both, reach the same log-likelihood (within 1e-3), the accelerated ones in far fewer passes', () => {
  const { data } = admixedData(8, { N: 80, L: 200, K: 2, alpha: 0.5, fst: 0.15 });
  const md = buildPreparedData(data);
  const work = admixtureWork(md);
  const run = (acceleration: Acceleration, qUpdate: QUpdate, fUpdate: FUpdate) => {
    const steps = admixtureFitSteps(md, work, randomAdmixture(md, 2, createRng(4)), {
      tolerance: 1e-8,
      maxIterations: 20000,
      acceleration,
      qUpdate,
      fUpdate,
    });
    let r = steps.next();
    while (!r.done) r = steps.next();
    return r.value;
  };
  const em = run('none', 'em', 'em');
  assert.ok(em.converged);
  for (const [qUpdate, fUpdate] of UPDATES)
    for (const acceleration of ['none', 'squarem', 'anderson'] as const) {
      // Anderson with Newton's Q update and EM's F update stalled 0.07 below here; sweeps refuse one
      // block by Newton and the other by EM under Anderson (sweep.ts).
      if (acceleration === 'none' && qUpdate === 'em' && fUpdate === 'em') continue;
      if (acceleration === 'anderson' && qUpdate !== fUpdate) continue;
      const fast = run(acceleration, qUpdate, fUpdate);
      const name = `${acceleration}, Q by ${qUpdate}, F by ${fUpdate}`;
      assert.ok(fast.converged, name);
      assert.ok(Math.abs(em.logLik - fast.logLik) < 1e-3, `EM ${em.logLik} vs ${name} ${fast.logLik}`);
      // A Newton step of Q costs about 2.5 EM passes, of F about 3; unaccelerated, block relaxation
      // with EM for either block saves less than half (the EM block crawls).
      const passes = fast.emSteps * ((qUpdate === 'newton' ? 2.5 : 1) + (fUpdate === 'newton' ? 3 : 0));
      if (acceleration !== 'none' || (qUpdate === 'newton' && fUpdate === 'newton'))
        assert.ok(passes < em.emSteps / 2, `${name}: ${passes} EM passes' worth, plain EM ${em.emSteps}`);
    }
});

test('admixture: under Anderson acceleration sweeps refuse one block by Newton and the other by EM; auto resolves to Newton for F, and for Q unless F is by EM under Anderson', () => {
  const fit = {
    ...DEFAULT_FIT,
    model: 'admixture' as const,
    qUpdate: 'newton' as const,
    fUpdate: 'em' as const,
    acceleration: 'anderson' as const,
  };
  const sweep = { kValues: [2], replicates: 1, starts: 1, policy: 'best' as const, seed: 1, fit };
  const refused = /both updated by Newton steps or both by EM/;
  assert.throws(() => validateSweep(sweep, 10), refused);
  assert.throws(() => validateSweep({ ...sweep, fit: { ...fit, qUpdate: 'em', fUpdate: 'newton' } }, 10), refused);
  assert.throws(() => validateSweep({ ...sweep, fit: { ...fit, qUpdate: 'em', fUpdate: 'auto' } }, 10), refused);
  validateSweep({ ...sweep, fit: { ...fit, acceleration: 'squarem' } }, 10);
  validateSweep({ ...sweep, fit: { ...fit, fUpdate: 'newton' } }, 10);
  validateSweep({ ...sweep, fit: { ...fit, fUpdate: 'auto' } }, 10);
  validateSweep({ ...sweep, fit: { ...fit, qUpdate: 'auto' } }, 10);
  validateSweep({ ...sweep, fit: { ...fit, qUpdate: 'em' } }, 10);
  assert.equal(resolvedQUpdate('auto', 'squarem'), 'newton');
  assert.equal(resolvedQUpdate('auto', 'anderson'), 'newton');
  assert.equal(resolvedQUpdate('auto', 'anderson', 'em'), 'em');
  assert.equal(resolvedQUpdate('auto', 'squarem', 'em'), 'newton');
  assert.equal(resolvedQUpdate('em', 'squarem'), 'em');
  assert.equal(resolvedQUpdate('newton', 'squarem'), 'newton');
  assert.equal(resolvedFUpdate('em'), 'em');
  assert.equal(resolvedFUpdate('newton'), 'newton');
  assert.equal(resolvedFUpdate('auto'), 'newton');
});

test('admixture: auto acceleration is Anderson’s with Newton updates on 8,000 loci or more, else SQUAREM', () => {
  assert.equal(resolvedAcceleration('auto', 8000), 'anderson');
  assert.equal(resolvedAcceleration('auto', 7999), 'squarem');
  assert.equal(resolvedAcceleration('auto', 100000, 'em', 'auto'), 'squarem');
  assert.equal(resolvedAcceleration('auto', 100000, 'auto', 'em'), 'squarem');
  assert.equal(resolvedAcceleration('auto', 100000, 'newton', 'newton'), 'anderson');
  for (const a of ['anderson', 'squarem', 'none'] as const)
    assert.equal(resolvedAcceleration(a, 100000, 'em', 'em'), a);
  assert.equal(CLUSTER_DEFAULTS.acceleration, 'auto');
});

test('admixture: a start from the mixture model’s EM clustering reaches the random start’s optimum (or higher) in fewer passes', () => {
  const sim = admixedData(6, { N: 150, L: 600, K: 3, alpha: 0.5, fst: 0.1 });
  const md = buildPreparedData(sim.data);
  const work = admixtureWork(md);
  const run = (admixtureInit: AdmixtureInit) => {
    const start = admixtureStart(md, 3, createRng(3), { ...DEFAULT_FIT, admixtureInit });
    const steps = admixtureFitSteps(md, work, start, {
      tolerance: 1e-4,
      maxIterations: 5000,
      acceleration: 'squarem',
      qUpdate: 'newton',
      fUpdate: 'em',
    });
    let r = steps.next();
    while (!r.done) r = steps.next();
    return r.value;
  };
  const random = run('random');
  const mixture = run('mixture');
  assert.ok(mixture.logLik >= random.logLik - 0.05, `mixture start ${mixture.logLik}, random ${random.logLik}`);
  assert.ok(mixture.emSteps < random.emSteps, `passes: mixture start ${mixture.emSteps}, random ${random.emSteps}`);
});

test('admixture starts: auto draws random starts when both blocks take Newton steps, else the mixture-model start', () => {
  assert.equal(resolvedAdmixtureInit('auto', {}), 'random');
  assert.equal(resolvedAdmixtureInit('auto', { qUpdate: 'newton', fUpdate: 'newton' }), 'random');
  assert.equal(resolvedAdmixtureInit('auto', { qUpdate: 'em' }), 'mixture');
  assert.equal(resolvedAdmixtureInit('auto', { fUpdate: 'em' }), 'mixture');
  assert.equal(resolvedAdmixtureInit('auto', { acceleration: 'anderson' }), 'random');
  assert.equal(resolvedAdmixtureInit('auto', { acceleration: 'anderson', fUpdate: 'em' }), 'mixture');
  assert.equal(resolvedAdmixtureInit('mixture', {}), 'mixture');
  assert.equal(resolvedAdmixtureInit('random', { qUpdate: 'em', fUpdate: 'em' }), 'random');
  // The default fit's start is the random one; with EM updates, the mixture model's.
  const md = buildPreparedData(admixedData(4, { N: 60, L: 40, K: 3, alpha: 0.5, fst: 0.1 }).data);
  const start = (fit: FitOptions) => admixtureStart(md, 3, createRng(7), fit);
  const random = start({ ...DEFAULT_FIT, admixtureInit: 'random' });
  const mixture = start({ ...DEFAULT_FIT, admixtureInit: 'mixture' });
  assert.notDeepEqual(random.Q, mixture.Q);
  assert.deepEqual(start(DEFAULT_FIT), random);
  assert.deepEqual(start({ ...DEFAULT_FIT, fUpdate: 'em' }), mixture);
});

test('admixture, marker averaging: one pass updates F as the formula (Dirichlet marginal likelihoods, learned prior) says', () => {
  const rng = createRng(5);
  const r = [2, 3, 4];
  const d = makeData(9, 3, 2, r, (l, i, c) => ((i + 2 * c + l) % 7 === 0 ? -1 : Math.floor(rng.uniform() * r[l]!)));
  const md = buildPreparedData(d);
  const work = admixtureWork(md);
  const K = 2;
  const p = randomAdmixture(md, K, createRng(2));
  const plain = emptyParams(md, K);
  emStep(md, work, p, plain);
  const priors = { alpha: 1, alphaCluster: 1, priorInformative: 'auto' as const };
  const averaging = markerAveraging(md, K, priors);
  averaging.informative.set([1, 0, 0.5]);
  const out = emptyParams(md, K);
  emStep(md, work, p, out, averaging);
  // Expected counts n_kla from the brute-force E step: the unnormalised F update.
  const counts = bruteEm(d, p, false).F;
  const pi = (1 + 0 + 0.5 + 1) / (3 + 2);
  const lnDirichlet = (n: number[]) =>
    gammaln(n.length) - gammaln(n.length + n.reduce((a, b) => a + b, 0)) + n.reduce((s, x) => s + gammaln(1 + x), 0);
  for (let l = 0; l < 3; l++) {
    const rows = Array.from({ length: r[l]! }, (_, a) => rowOf(d, l, a));
    const nk = (k: number) => rows.map((row) => counts[row * K + k]!);
    const pooled = rows.map((row) => counts[row * K]! + counts[row * K + 1]!);
    const odds = Math.log(pi / (1 - pi)) + lnDirichlet(nk(0)) + lnDirichlet(nk(1)) - lnDirichlet(pooled);
    const w = 1 / (1 + Math.exp(-odds));
    assert.ok(Math.abs(averaging.informative[l]! - w) < 1e-9, `w[${l}] ${averaging.informative[l]} vs ${w}`);
    const sum = (x: number[]) => x.reduce((a, b) => a + b, 0);
    rows.forEach((row, a) => {
      for (let k = 0; k < K; k++) {
        const dep = (1 + nk(k)[a]!) / (r[l]! + sum(nk(k)));
        const indep = (1 + pooled[a]!) / (r[l]! + sum(pooled));
        const want = w * dep + (1 - w) * indep;
        assert.ok(Math.abs(out.F[row * K + k]! - want) < 1e-9, `F[${row}, ${k}] ${out.F[row * K + k]} vs ${want}`);
      }
    });
  }
  // Q is updated as by EM.
  for (let j = 0; j < plain.Q.length; j++) assert.equal(out.Q[j], plain.Q[j]);
});

test('admixture, marker averaging: after the ML fit, the noise loci are judged uninformative, the informative ones less so', () => {
  const noise = 60;
  const sim = admixedData(4, { N: 150, L: 120, K: 3, alpha: 0.5, fst: 0.15, noiseLoci: noise });
  const md = buildPreparedData(sim.data);
  const work = admixtureWork(md);
  const priors = { alpha: 1, alphaCluster: 1, priorInformative: 'auto' as const };
  const steps = admixtureFitSteps(md, work, randomAdmixture(md, 3, createRng(1)), {
    tolerance: 1e-4,
    maxIterations: 3000,
    acceleration: 'anderson',
    qUpdate: 'em',
    fUpdate: 'em',
    averaging: priors,
  });
  let r = steps.next();
  while (!r.done) r = steps.next();
  const w = Array.from(r.value.informative!);
  const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
  const informative = mean(w.slice(0, 120 - noise));
  const uninformative = mean(w.slice(120 - noise));
  // Measured, not wished: the learned prior also pulls a part of the informative loci to pooled
  // frequencies (docs/admixture.md); 53 of the 60 noise loci are judged uninformative (seed 4).
  assert.ok(uninformative < 0.2, `noise loci: mean w ${uninformative}`);
  assert.ok(informative > uninformative + 0.3, `informative loci: mean w ${informative}, noise ${uninformative}`);
});

test('admixture: ancestry of simulated admixed individuals (K = 3, α = 0.5, F_ST = 0.1, 2,000 SNPs) within RMSE 0.05', () => {
  const K = 3;
  const N = 200;
  const sim = admixedData(11, { N, L: 2000, K, alpha: 0.5, fst: 0.1 });
  const md = buildPreparedData(sim.data);
  const opts = { ...DEFAULT_FIT, model: 'admixture' as const };
  const starts = Array.from({ length: 2 }, (_, s) => runStart(md, K, opts, s, startSeed(1, K, 0, s)));
  const best = starts.reduce((a, b) => (b.logLik > a.logLik ? b : a));
  const Q = permuteColumns(best.posterior, N, K, alignToReference(sim.Q, best.posterior, N, K));
  let se = 0;
  for (let j = 0; j < Q.length; j++) se += (Q[j]! - sim.Q[j]!) ** 2;
  const rmse = Math.sqrt(se / Q.length);
  console.log(
    `admixture simulation: Q RMSE ${rmse.toFixed(4)}, ln L ${best.logLik.toFixed(2)}, ${best.iterations} steps`,
  );
  assert.ok(rmse <= 0.05, `RMSE ${rmse}`);
});

test('admixture CV error: the held-out deviance is ADMIXTURE binomial deviance for diploid SNPs; K = 3 predicts better than 1 and than an overfitted 5', () => {
  const { data } = admixedData(21, { N: 120, L: 300, K: 3, alpha: 0.5, fst: 0.15 });
  const md = buildPreparedData(data);
  const N = 120;
  const L = 300;
  // Binomial deviance n ln(n/μ) + (2 − n) ln((2 − n)/(2 − μ)), n = copies of allele 1, μ = 2p.
  const p = randomAdmixture(md, 3, createRng(2));
  const heldOut = new Uint8Array(N * L);
  for (let j = 0; j < N * L; j += 7) heldOut[j] = 1;
  let want = 0;
  let entries = 0;
  for (let i = 0; i < N; i++)
    for (let l = 0; l < L; l++) {
      if (!heldOut[i * L + l]) continue;
      const copies = [data.calls[(l * N + i) * 2]!, data.calls[(l * N + i) * 2 + 1]!];
      const n = copies.filter((a) => a === 1).length;
      let p1 = 0;
      for (let k = 0; k < 3; k++) p1 += p.Q[i * 3 + k]! * p.F[(2 * l + 1) * 3 + k]!;
      const mu = 2 * p1;
      want += (n > 0 ? n * Math.log(n / mu) : 0) + (n < 2 ? (2 - n) * Math.log((2 - n) / (2 - mu)) : 0);
      entries++;
    }
  const got = heldOutDeviance(md, heldOut, p);
  assert.equal(got.entries, entries);
  // The engine reads p_0 = Σ_k q_ik f_k0 where ADMIXTURE writes 2 − μ = 2(1 − p_1): equal up to
  // rounding, which a frequency near the 1e-9 floor amplifies to ~1e-7 relative in one term.
  assert.ok(Math.abs(got.sum - want) < 1e-6 * Math.abs(want), `${got.sum} vs ${want}`);
  const fitOpts = {
    tolerance: 1e-4,
    maxIterations: 2000,
    acceleration: 'squarem' as const,
    qUpdate: 'newton' as const,
    fUpdate: 'newton' as const,
  };
  const cv = (K: number) => {
    const steps = admixtureFitSteps(md, admixtureWork(md), randomAdmixture(md, K, createRng(K)), fitOpts);
    let r = steps.next();
    while (!r.done) r = steps.next();
    return admixtureCvError(md, r.value.params, 5, 1, fitOpts).error;
  };
  const errors = [1, 3, 5].map(cv);
  console.log(`admixture CV error K = 1, 3, 5: ${errors.map((e) => e.toFixed(4)).join(' ')}`);
  assert.ok(errors[1]! < errors[0]! && errors[1]! < errors[2]!, errors.join(' '));
});

test('admixtureWork: observed copies per individual are the calls that are not missing (loci stored combined and alone, held-out entries)', () => {
  const N = 200;
  const L = 60;
  const { data } = admixedData(21, { N, L, K: 2, alpha: 0.5, fst: 0.1 });
  const rng = createRng(3);
  for (let j = 0; j < data.calls.length; j++) if (rng.uniform() < 0.05) data.calls[j] = MISSING;
  const md = buildPreparedData(data);
  assert.ok(
    Array.from(md.groups.row).some((r) => r >= 0),
    'some loci are stored combined only',
  );
  const heldOut = Uint8Array.from({ length: N * L }, () => (rng.uniform() < 0.1 ? 1 : 0));
  for (const held of [undefined, heldOut]) {
    const expected = new Float64Array(N);
    for (let l = 0; l < L; l++)
      for (let i = 0; i < N; i++) {
        if (held?.[i * L + l]) continue;
        for (let p = 0; p < 2; p++) if (data.calls[(l * N + i) * 2 + p]! !== MISSING) expected[i]!++;
      }
    assert.deepEqual(admixtureWork(md, held).copies, expected);
  }
});
