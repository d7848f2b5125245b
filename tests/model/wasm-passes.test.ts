// The admixture model's passes as WebAssembly (engine/model/admixture/wasm-passes.ts) against the
// JavaScript passes (em-pass.ts, newton-passes.ts): the same ln L, sums, derivatives and gains, bit
// for bit, and whole fits (EM and Newton's Q update) the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreparedData, everyLocus, type PreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { admixtureWork, emStep, emptyParams } from '../../engine/model/admixture/admixture.ts';
import {
  admixtureFitSteps,
  type AdmixtureFitOptions,
  type AdmixtureFitResult,
} from '../../engine/model/admixture/admixture-fit.ts';
import { randomAdmixture } from '../../engine/model/admixture/admixture-start.ts';
import type { AdmixtureParams, AdmixtureWork } from '../../engine/model/admixture/admixture.ts';
import { emPass, type PassArguments } from '../../engine/model/admixture/em-pass.ts';
import { derivativesPass, gainPass, type NewtonPassArguments } from '../../engine/model/admixture/newton-passes.ts';
import { wasmPasses } from '../../engine/model/admixture/wasm-passes.ts';
import { qSolveScratchBytes, solveScratchBytes } from '../../engine/model/admixture/solve-module.ts';
import { passData } from '../../engine/model/admixture/pass-data.ts';
import { NEWTON_SOLVES_WASM } from '../../engine/model/admixture/generated/newton-solves-wasm.ts';
import { ADMIXTURE_PASSES_WASM } from '../../engine/model/admixture/generated/admixture-passes-wasm.ts';
import { detLog } from '../../engine/util/det-math.ts';
import { compileBase64 } from '../../engine/util/wasm-module.ts';
import { fDerivativesPass, type FDerivativeArguments } from '../../engine/model/admixture/f-derivatives.ts';
import { fNewtonStep, fNewtonWork, solveLocus } from '../../engine/model/admixture/f-newton.ts';
import { qNewtonStep, qNewtonWork } from '../../engine/model/admixture/q-newton.ts';
import { PARAMETER_FLOOR } from '../../engine/model/admixture/admixture.ts';
import { createRng } from '../../engine/util/rng.ts';
import { makeData } from './synthetic.ts';

/** N individuals of ploidy P at loci with these allele counts (skewed frequencies when `skew` > 1), 4 % of copies missing. */
function dataset(N: number, P: number, r: number[], seed: number, skew = 2): PreparedData {
  const rng = createRng(seed);
  return buildPreparedData(
    makeData(N, r.length, P, r, (l) => (rng.uniform() < 0.04 ? -1 : Math.floor(rng.uniform() ** skew * r[l]!))),
  );
}

/** Held-out entries (individual-major), about one in five. */
function heldOutOf(md: PreparedData, seed: number): Uint8Array {
  const rng = createRng(seed);
  return Uint8Array.from({ length: md.N * md.L }, () => (rng.uniform() < 0.2 ? 1 : 0));
}

function admixtureFit(
  md: PreparedData,
  work: AdmixtureWork,
  init: AdmixtureParams,
  o: AdmixtureFitOptions,
): AdmixtureFitResult {
  const steps = admixtureFitSteps(md, work, init, o);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

const seedOf = (c: number, K: number) => 1000 + 100 * c + K;

type NewtonOwn = Pick<NewtonPassArguments, 'gradient' | 'hessian' | 'step' | 'pending' | 'gain' | 'ratio'>;

/**
 * The Newton passes' own arguments: a step towards a random point of the simplex, about two thirds
 * of the individuals pending, running products starting at 1 or near the bounds 1e±200 (so that
 * some are set aside), nonzero gradient and Hessian to add to.
 */
function newtonArguments(md: PreparedData, K: number, Q: Float64Array, seed: number): NewtonOwn {
  const rng = createRng(seed);
  const step = new Float64Array(md.N * K);
  for (let i = 0; i < md.N; i++) {
    const target = Array.from({ length: K }, () => rng.uniform() + 1e-3);
    const sum = target.reduce((a, b) => a + b, 0);
    for (let k = 0; k < K; k++) step[i * K + k] = 0.4 * (target[k]! / sum - Q[i * K + k]!);
  }
  const start = [1, 1e199, 1e-199, 3.5];
  return {
    gradient: Float64Array.from({ length: md.N * K }, () => rng.uniform()),
    hessian: Float64Array.from({ length: (md.N * K * (K + 1)) / 2 }, () => rng.uniform()),
    step,
    pending: Uint8Array.from({ length: md.N }, () => (rng.uniform() < 0.67 ? 1 : 0)),
    gain: Float64Array.from({ length: md.N }, () => rng.uniform() - 0.5),
    ratio: Float64Array.from({ length: md.N }, (_, i) => start[i % 4]!),
  };
}

/** F's derivative pass's arguments (f-derivatives.ts) over `data`'s, outputs zeroed. */
function fArguments(md: PreparedData, K: number, Q: Float64Array, data: PassArguments): FDerivativeArguments {
  const T = (K * (K + 1)) / 2;
  const outer = new Float64Array(md.N * T);
  for (let i = 0; i < md.N; i++)
    for (let k = 0, t = i * T; k < K; k++) for (let m = 0; m <= k; m++) outer[t++] = Q[i * K + k]! * Q[i * K + m]!;
  return {
    ...data,
    outer,
    gradient: new Float64Array(md.totalAlleles * K),
    hessian: new Float64Array(md.totalAlleles * T),
    lociLL: new Float64Array(md.L),
  };
}

const bitsEqual = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((x, j) => Object.is(x, b[j]));

test('the WebAssembly passes (EM, derivatives, gains, F derivatives and checks) give the bits of the JavaScript passes: ploidy 1-3, 8-, 16- and 32-bit codes, missing copies, held-out entries, every K to 14, codes resident or copied a few loci at a time', () => {
  const cases = [
    { P: 2, r: [2, 3, 7, 2, 12, 2, 5, 9], N: undefined, skew: undefined }, // 8-bit codes
    { P: 1, r: [2, 4, 3, 2, 6], N: undefined, skew: undefined },
    { P: 3, r: [3, 2, 5, 4], N: undefined, skew: undefined },
    { P: 2, r: [40, 3, 2, 30], N: 700, skew: 1 }, // over 255 genotypes at a locus: 16-bit codes
  ];
  let checked = 0;
  for (const [c, { P, r, N, skew }] of cases.entries()) {
    const md = dataset(N ?? 310, P, r, 10 + c, skew);
    assert.equal(everyLocus(md).genotypeOf.constructor.name, c === 3 ? 'Uint16Array' : 'Uint8Array');
    for (const held of [false, true]) {
      const work = admixtureWork(md, held ? heldOutOf(md, c) : undefined);
      for (const K of [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 14]) {
        const p = randomAdmixture(md, K, createRng(100 * c + K));
        // 32-bit codes: the same codes widened (real data need over 65,535 genotypes at a locus).
        for (const genotypeOf of [everyLocus(md).genotypeOf, Int32Array.from(everyLocus(md).genotypeOf)]) {
          const args = (): PassArguments => ({
            N: md.N,
            L: md.L,
            K,
            genotypeOf,
            genotypeOffsets: everyLocus(md).genotypeOffsets,
            heldOut: work.heldOut,
            start: work.start,
            row: work.row,
            count: work.count,
            Q: p.Q,
            F: p.F,
            Qn: new Float64Array(md.N * K),
            Fn: new Float64Array(p.F.length),
            terms: new Float64Array(K),
          });
          const js = args();
          const ll = emPass(js);
          const newtonJs = newtonArguments(md, K, p.Q, seedOf(c, K));
          const { gradient, hessian, gain, ratio } = newtonJs;
          derivativesPass({ ...js, ...newtonJs });
          gainPass({ ...js, ...newtonJs });
          for (const limits of [undefined, { residentBytes: 0, chunkBytes: md.N * 3 * genotypeOf.BYTES_PER_ELEMENT }]) {
            const wa = args();
            const passes = wasmPasses(wa, limits);
            assert.ok(passes, 'WebAssembly with SIMD runs in Node');
            const where = `case ${c}, K = ${K}, ${genotypeOf.constructor.name}, held out ${held}, ${limits ? 'chunks' : 'resident'}`;
            assert.ok(Object.is(passes.em(wa), ll), `${where}: ln L`);
            assert.ok(bitsEqual(wa.Qn, js.Qn), `${where}: Q sums`);
            assert.ok(bitsEqual(wa.Fn, js.Fn), `${where}: F sums`);
            const newtonWa = newtonArguments(md, K, p.Q, seedOf(c, K));
            passes.derivatives({ ...wa, ...newtonWa });
            passes.gains({ ...wa, ...newtonWa });
            assert.ok(bitsEqual(newtonWa.gradient, gradient), `${where}: gradient`);
            assert.ok(bitsEqual(newtonWa.hessian, hessian), `${where}: Hessian`);
            assert.ok(bitsEqual(newtonWa.gain, gain), `${where}: gains`);
            assert.ok(bitsEqual(newtonWa.ratio, ratio), `${where}: ratios`);
            // F's derivative pass, over all loci and over the loci from the third (rows from its first).
            for (const l0 of [0, 2]) {
              const rowBase = md.offsets[l0]!;
              const rows = md.totalAlleles - rowBase;
              const fJs = fArguments(md, K, p.Q, js);
              fDerivativesPass(fJs, l0, md.L, rowBase);
              const fWa = fArguments(md, K, p.Q, wa);
              passes.beginFStep(fWa);
              assert.ok(passes.fDerivatives(fWa, l0, md.L, rowBase, rows), `${where}: F derivatives in WebAssembly`);
              assert.ok(bitsEqual(fWa.gradient, fJs.gradient), `${where}, from locus ${l0}: F gradient`);
              assert.ok(bitsEqual(fWa.hessian, fJs.hessian), `${where}, from locus ${l0}: F Hessian`);
              assert.ok(bitsEqual(fWa.lociLL, fJs.lociLL), `${where}, from locus ${l0}: ln L per locus`);
            }
            // The F step's check: ψ_l with locus l's rows replaced by trial frequencies, against the
            // JavaScript pass's ln L of that locus with those rows in F.
            const rng = createRng(7 * c + K);
            for (let l = 0; l < md.L; l++) {
              const off = md.offsets[l]!;
              const alleles = md.alleles[l]!;
              const trial = Float64Array.from({ length: alleles * K }, () => 0.01 + rng.uniform());
              const F = Float64Array.from(p.F);
              F.set(trial, off * K);
              const fJs = fArguments(md, K, p.Q, { ...js, F });
              fDerivativesPass(fJs, l, l + 1, off);
              const fast = passes.locusLogLik(l, off, alleles, trial);
              assert.ok(Object.is(fast, fJs.lociLL[l]), `${where}, locus ${l}: trial ln L ${fast} vs ${fJs.lociLL[l]}`);
            }
            checked++;
          }
        }
      }
    }
  }
  assert.equal(checked, 4 * 2 * 11 * 2 * 2);
});

test('F’s solve per locus in WebAssembly gives the bits of the JavaScript solve: pinned entries, released ones, certain and unchecked steps, K to 13; a block’s solves in one call', () => {
  const codes = [0, 0, 0];
  let pinnedLoci = 0;
  for (const [c, { P, r }] of [
    { P: 2, r: [2, 3, 7, 2, 12, 2, 5, 9, 4, 6] },
    { P: 3, r: [3, 2, 5, 4, 8, 2] },
    { P: 1, r: [2, 4, 3, 2, 6, 11] },
  ].entries()) {
    const md = dataset(240, P, r, 40 + c);
    const work = admixtureWork(md);
    for (const K of [2, 3, 5, 8, 12, 13]) {
      const rng = createRng(500 + 10 * c + K);
      const p = randomAdmixture(md, K, createRng(300 + 10 * c + K));
      // About a third of the frequencies at the floor: their entries start pinned, and some are
      // released; then the same after four Newton steps (small steps, most of them certain).
      for (let j = 0; j < p.F.length; j++) if (rng.uniform() < 0.3) p.F[j] = PARAMETER_FLOOR;
      const near = Float64Array.from(p.F);
      for (let t = 0; t < 4; t++) fNewtonStep(md, work, K, p.Q, near, fNewtonWork(md, K));
      for (const F of [p.F, near]) {
        const data = {
          ...passData(md, work, K, p.Q, F),
          Qn: new Float64Array(md.N * K),
          Fn: new Float64Array(F.length),
          terms: new Float64Array(K),
        };
        const s = fNewtonWork(md, K);
        const fJs = { ...fArguments(md, K, p.Q, data), gradient: s.gradient, hessian: s.hessian };
        fDerivativesPass(fJs, 0, md.L, 0);
        const passes = wasmPasses(data)!;
        assert.ok(passes.solves, 'the solve module runs in Node');
        const fWa = fArguments(md, K, p.Q, data);
        passes.beginFStep(fWa);
        assert.ok(passes.fDerivatives(fWa, 0, md.L, 0, md.totalAlleles));
        // The block's solves in one call: what each locus found, certain steps applied, the others kept.
        const expected = Float64Array.from(F);
        const found: number[] = [];
        const steps: Float64Array[] = [];
        for (let l = 0; l < md.L; l++) {
          const off = md.offsets[l]!;
          const A = md.alleles[l]!;
          const js = solveLocus(md, K, F, s, l, off);
          const wa = passes.solve(off, A, off);
          const where = `case ${c}, K = ${K}, locus ${l}`;
          assert.equal(wa, js, `${where}: what the solve found`);
          assert.ok(bitsEqual(passes.solvedStep.subarray(0, A * K), s.step.subarray(0, A * K)), `${where}: the step`);
          codes[js]!++;
          if (s.pinned.subarray(0, A * K).some((x) => x === 1)) pinnedLoci++;
          found.push(js);
          steps.push(Float64Array.from(s.step.subarray(0, A * K)));
          // A certain step is applied: floored at PARAMETER_FLOOR, each cluster's frequencies renormalised.
          if (js === 1)
            for (let k = 0; k < K; k++) {
              let sum = 0;
              for (let a = 0; a < A; a++) {
                const x = Math.max(PARAMETER_FLOOR, expected[(off + a) * K + k]! + s.step[a * K + k]!);
                expected[(off + a) * K + k] = x;
                sum += x;
              }
              for (let a = 0; a < A; a++) expected[(off + a) * K + k]! /= sum;
            }
        }
        const blockF = Float64Array.from(F);
        const left = passes.solveBlock(blockF, 0, md.L, 0, md.totalAlleles);
        assert.deepEqual(Array.from(passes.blockStatus.subarray(0, md.L)), found, `case ${c}, K = ${K}: statuses`);
        assert.equal(left, found.filter((x) => x === 2).length);
        assert.ok(bitsEqual(blockF, expected), `case ${c}, K = ${K}: F after the block's certain steps`);
        for (let l = 0; l < md.L; l++)
          if (found[l] === 2) {
            const from = md.offsets[l]! * K;
            const kept = passes.blockSteps.subarray(from, from + md.alleles[l]! * K);
            assert.ok(bitsEqual(kept, steps[l]!), `case ${c}, K = ${K}, locus ${l}: the step to check`);
          }
      }
    }
  }
  // The scratch the passes set aside is the size the module lays out.
  const solveModule = new WebAssembly.Instance(compileBase64(NEWTON_SOLVES_WASM)!, {
    env: { memory: new WebAssembly.Memory({ initial: 1, maximum: 1 }) },
  }).exports as unknown as { scratchBytes(K: number, A: number): number; qScratchBytes(K: number): number };
  for (const [K, A] of [
    [2, 2],
    [8, 12],
    [13, 40],
  ] as const) {
    assert.equal(solveModule.scratchBytes(K, A), solveScratchBytes(K, A));
    assert.equal(solveModule.qScratchBytes(K), qSolveScratchBytes(K));
  }
  assert.ok(codes[1]! > 0 && codes[2]! > 0, `certain and unchecked steps both met: ${codes}`);
  assert.ok(pinnedLoci > 20, `${pinnedLoci} loci end with pinned entries`);
});

test('Q’s Newton step with its solves in WebAssembly gives the bits of the JavaScript step: components at the floor, fixed individuals, K to 13', () => {
  const md = dataset(260, 2, [2, 5, 3, 8, 2, 4, 6, 2, 3], 61);
  let pinned = 0;
  for (const K of [2, 3, 5, 8, 12, 13]) {
    const rng = createRng(70 + K);
    const p = randomAdmixture(md, K, createRng(80 + K));
    // About a quarter of the components at the floor (pinned, some released), rows renormalised.
    for (let i = 0; i < md.N; i++) {
      let sum = 0;
      for (let k = 0; k < K; k++) {
        if (rng.uniform() < 0.25) p.Q[i * K + k] = PARAMETER_FLOOR;
        sum += p.Q[i * K + k]!;
      }
      for (let k = 0; k < K; k++) p.Q[i * K + k]! /= sum;
      pinned += p.Q.subarray(i * K, (i + 1) * K).filter((x) => x < 2 * PARAMETER_FLOOR).length;
    }
    const fixed = Uint8Array.from({ length: md.N }, (_, i) => (i % 17 === 0 ? 1 : 0));
    for (const withFixed of [false, true]) {
      const base = admixtureWork(md);
      const work = withFixed ? { ...base, fixed } : base;
      const wasmQ = Float64Array.from(p.Q);
      const jsQ = Float64Array.from(p.Q);
      for (let t = 0; t < 3; t++) {
        qNewtonStep(md, work, K, wasmQ, p.F, qNewtonWork(md.N, K));
        qNewtonStep(md, { ...work, wasm: false }, K, jsQ, p.F, qNewtonWork(md.N, K));
        assert.ok(bitsEqual(wasmQ, jsQ), `K = ${K}, fixed ${withFixed}, step ${t}`);
      }
      assert.ok(!bitsEqual(wasmQ, p.Q), 'Q moved');
    }
  }
  assert.ok(pinned > 500, `${pinned} components started at the floor`);
});

test('a running product that underflows (tiny frequencies) is flushed into ln L as in JavaScript, and a zero d gives -Infinity in both', () => {
  const md = dataset(200, 2, [6, 6, 6, 6, 6, 6], 3);
  const work = admixtureWork(md);
  const K = 3;
  const p = randomAdmixture(md, K, createRng(1));
  for (let j = 0; j < p.F.length; j++) p.F[j] = 1e-30 * (1 + (j % 7));
  for (const zero of [false, true]) {
    if (zero) p.F.fill(0, 0, 6 * K);
    const a = emptyParams(md, K);
    const b = emptyParams(md, K);
    const llWasm = emStep(md, work, p, a);
    const llJs = emStep(md, { ...work, wasm: false }, p, b);
    assert.ok(Object.is(llWasm, llJs), `${llWasm} vs ${llJs}`);
    assert.equal(llWasm === -Infinity, zero);
    if (!zero) assert.ok(llWasm < -1e5 && Number.isFinite(llWasm));
    assert.ok(bitsEqual(a.Q, b.Q) && bitsEqual(a.F, b.F));
  }
});

test('whole SQUAREM fits through the WebAssembly passes (EM, and Newton updates of Q, F or both) end at the bits of the JavaScript ones', () => {
  const md = dataset(150, 2, [5, 8, 3, 2, 6, 4, 7, 2, 2, 9], 21);
  for (const [K, qUpdate, fUpdate] of [
    [2, 'em', 'em'],
    [4, 'em', 'em'],
    [3, 'newton', 'em'],
    [5, 'newton', 'em'],
    [3, 'newton', 'newton'],
    [6, 'em', 'newton'],
    [13, 'newton', 'newton'], // every pass loops over the columns (none written out beyond K = 12)
  ] as const) {
    const init = randomAdmixture(md, K, createRng(K));
    const options = { tolerance: 1e-6, maxIterations: 300, acceleration: 'squarem', qUpdate, fUpdate } as const;
    const wasm = admixtureFit(md, admixtureWork(md), init, options);
    const js = admixtureFit(md, { ...admixtureWork(md), wasm: false }, init, options);
    assert.ok(Object.is(wasm.logLik, js.logLik), `K = ${K}: ${wasm.logLik} vs ${js.logLik}`);
    assert.equal(wasm.emSteps, js.emSteps);
    assert.ok(bitsEqual(wasm.params.Q, js.params.Q) && bitsEqual(wasm.params.F, js.params.F));
  }
});

test('the passes’ logarithm (compiled from assembly/det-log.ts into the text module) gives the bits of detLog', () => {
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 65536 });
  const { log } = new WebAssembly.Instance(compileBase64(ADMIXTURE_PASSES_WASM)!, { env: { memory } }).exports as {
    log: (x: number) => number;
  };
  const rng = createRng(3);
  // Subnormals, the branches near 1 and powers of two, products as the passes flush them, huge values.
  const special = [
    0,
    -0,
    -1,
    NaN,
    Infinity,
    5e-324,
    2.2e-308,
    1e-250,
    1e-200,
    0.5,
    1,
    1 + 2 ** -52,
    1 - 2 ** -53,
    2,
    1e200,
    1.7e308,
  ];
  const drawn = Array.from({ length: 20000 }, (_, j) => (j % 2 ? rng.uniform() : Math.exp(1400 * rng.uniform() - 700)));
  for (const x of [...special, ...drawn]) assert.ok(Object.is(log(x), detLog(x)), `log(${x})`);
});
