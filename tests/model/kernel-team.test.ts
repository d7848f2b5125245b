// Passes shared with helper threads (engine/util/kernel-team.ts, the two-allele passes' shares):
// the same bits as on one thread, however many helpers run; and the shared variant of a module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreparedData, type PreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { admixtureWork, type AdmixtureWork } from '../../engine/model/admixture/admixture.ts';
import { admixtureFitSteps } from '../../engine/model/admixture/admixture-fit.ts';
import { randomAdmixture } from '../../engine/model/admixture/admixture-start.ts';
import { runToEnd } from '../../engine/model/mixture/fit.ts';
import { passArguments, passData, type PassData } from '../../engine/model/admixture/pass-data.ts';
import { wasmPassesOf } from '../../engine/model/admixture/wasm-passes.ts';
import { cuts } from '../../engine/model/admixture/two-allele-passes.ts';
import {
  helperReady,
  helperRuns,
  helperSpawner,
  setHelperSpawner,
  setKernelHelperCell,
  setKernelHelpers,
} from '../../engine/util/kernel-team.ts';
import { registerKernelHelpers } from '../../engine/node/kernel-helper.ts';
import { compileBase64, sharedVariant } from '../../engine/util/wasm-module.ts';
import { TWO_ALLELE_PASSES_WASM } from '../../engine/model/admixture/generated/two-allele-passes-wasm.ts';
import { createRng } from '../../engine/util/rng.ts';
import { makeData } from './synthetic.ts';

const bitsEqual = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Array.from(a).every((x, j) => Object.is(x, b[j]));

/** 600 diploid individuals (enough for 8 shares of every pass) at 300 SNPs from three populations, 3 % missing. */
function snps() {
  const rng = createRng(11);
  const N = 600;
  const L = 300;
  const freq = Array.from({ length: 3 * L }, () => 0.05 + 0.9 * rng.uniform());
  // Per genotype: missing (both copies) or two draws from the population's frequency.
  const genotypes = Array.from({ length: N * L }, (_, j) => {
    const f = freq[((j % N) % 3) * L + Math.floor(j / N)]!;
    return rng.uniform() < 0.03 ? [-1, -1] : [rng.uniform() < f ? 0 : 1, rng.uniform() < f ? 0 : 1];
  });
  const calls = (l: number, i: number, c: number) => genotypes[l * N + i]![c]!;
  return buildPreparedData(makeData(N, L, 2, Array(L).fill(2), calls));
}

test('a module’s shared variant imports a shared memory; a module whose memory has no maximum has none', () => {
  const binary = Uint8Array.from(atob(TWO_ALLELE_PASSES_WASM), (c) => c.charCodeAt(0));
  const shared = new WebAssembly.Module(sharedVariant(binary)!);
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
  assert.ok(new WebAssembly.Instance(shared, { env: { memory } }));
  assert.throws(() => new WebAssembly.Instance(compileBase64(TWO_ALLELE_PASSES_WASM)!, { env: { memory } }));
  // (module (import "env" "memory" (memory 1))): limits without a maximum.
  const noMaximum = Uint8Array.from([
    0, 97, 115, 109, 1, 0, 0, 0, 2, 15, 1, 3, 101, 110, 118, 6, 109, 101, 109, 111, 114, 121, 2, 0, 1,
  ]);
  assert.ok(new WebAssembly.Module(noMaximum));
  assert.equal(sharedVariant(noMaximum), undefined);
});

/** Arguments of Q's passes at K = 3 over `data`: a step for every individual, sums from zero. */
function qArguments(md: PreparedData, data: PassData) {
  const K = 3;
  const T = 6;
  const N = md.N;
  return passArguments(data, {
    gradient: new Float64Array(N * K),
    hessian: new Float64Array(N * T),
    step: Float64Array.from({ length: N * K }, (_, j) => (j % K === 0 ? 0.02 : -0.01)),
    pending: new Uint8Array(N).fill(1),
    gain: new Float64Array(N),
    ratio: new Float64Array(N).fill(1),
  });
}

/** Arguments of F's derivative pass at K = 3 over `data`. */
function fArguments(md: PreparedData, data: PassData) {
  const K = 3;
  const T = 6;
  return passArguments(data, {
    outer: new Float64Array(md.N * T),
    gradient: new Float64Array(md.totalAlleles * K),
    hessian: new Float64Array(md.totalAlleles * T),
    lociLL: new Float64Array(md.L),
  });
}

/**
 * Every pass the fit uses on `md` at K = 3, from the same arguments, by the passes of `work`
 * (wasmPassesOf's), and a whole fit: their outputs.
 */
function everyPass(md: PreparedData, work: AdmixtureWork): ArrayLike<number>[] {
  const K = 3;
  const p = randomAdmixture(md, K, createRng(5));
  const data = passData(md, work, K, p.Q, p.F);
  const passes = wasmPassesOf(work, data)!;
  const q = qArguments(md, data);
  passes.derivatives(q);
  passes.gains(q);
  const f = fArguments(md, data);
  passes.beginFStep(f);
  assert.ok(passes.fDerivatives(f, 0, md.L, 0, md.totalAlleles));
  const lociLL = Float64Array.from(passes.logLik(p.Q, p.F));
  const fit = runToEnd(
    admixtureFitSteps(md, work, randomAdmixture(md, K, createRng(6)), {
      tolerance: 1e-6,
      maxIterations: 200,
      acceleration: 'squarem',
      qUpdate: 'auto',
      fUpdate: 'auto',
    }),
  );
  return [
    q.gradient,
    q.hessian,
    q.gain,
    q.ratio,
    f.gradient,
    f.lociLL,
    lociLL,
    fit.params.Q,
    fit.params.F,
    [fit.logLik],
  ];
}

/**
 * Passes of `md` at K = 3 whose `helpers` helper threads are all ready (a pass run to start them);
 * the count set by setKernelHelpers or, with `cell`, in a helper cell as the start pool sets it.
 */
async function passesWithHelpers(md: PreparedData, helpers: number, cell = false) {
  const work = admixtureWork(md);
  const K = 3;
  const p = randomAdmixture(md, K, createRng(5));
  const spawn = helperSpawner()!;
  const started: Promise<void>[] = [];
  setHelperSpawner((start) => {
    started.push(helperReady(start));
    return spawn(start);
  });
  if (cell) {
    const cells = new Int32Array(new SharedArrayBuffer(8));
    Atomics.store(cells, 1, helpers);
    setKernelHelpers(0);
    setKernelHelperCell(cells, 1);
  } else setKernelHelpers(helpers);
  const passes = wasmPassesOf(work, passData(md, work, K, p.Q, p.F))!;
  passes.logLik(p.Q, p.F);
  setHelperSpawner(spawn);
  assert.equal(started.length, helpers, 'the first pass starts every helper allowed');
  await Promise.all(started);
  return { work, passes, p, logLik: () => passes.logLik(p.Q, p.F) };
}

/** Shares helper threads ran during `run`. */
function helperSharesOf(run: () => unknown): number {
  const before = helperRuns();
  run();
  return helperRuns() - before;
}

test('two-allele passes shared by 1, 2, 3, 4 and 8 threads give the bits of one thread: every pass, and a whole fit', async () => {
  const md = snps();
  const alone = everyPass(md, admixtureWork(md));
  registerKernelHelpers();
  try {
    // While helpers start, the passes run here (the first pass starts them).
    setKernelHelpers(1);
    const starting = admixtureWork(md);
    const whileStarting = everyPass(md, starting);
    for (const [j, x] of alone.entries())
      assert.ok(bitsEqual(x, whileStarting[j]!), `output ${j} while a helper starts`);
    for (const threads of [2, 3, 4, 8]) {
      const { work, passes, p, logLik } = await passesWithHelpers(md, threads - 1, threads === 3);
      // A pass by loci now runs in `threads` shares: threads − 1 of them on the helpers.
      assert.equal(helperSharesOf(logLik), threads - 1, `a pass on ${threads} threads is cut into ${threads} shares`);
      if (threads === 8) {
        // Every pass and solve the helpers share, each cut into 8 shares (7 on the helpers).
        const data = passData(md, work, 3, p.Q, p.F);
        const q = () => qArguments(md, data);
        const f = fArguments(md, data);
        const list = Int32Array.from({ length: 100 }, (_, j) => 5 * j);
        const shares = {
          'Q derivatives': helperSharesOf(() => passes.derivatives(q())),
          'step checks': helperSharesOf(() => passes.gains(q())),
          'listed step checks': helperSharesOf(() => passes.individualGains!(list, 0.5, p.Q, p.F, q().step)),
          "Q's derivatives and solves": helperSharesOf(() => passes.qStep(q())),
          "F's derivatives": helperSharesOf(() => {
            passes.beginFStep(f);
            passes.fDerivatives(f, 0, md.L, 0, md.totalAlleles);
          }),
          "F's solves": helperSharesOf(() => passes.solveBlock(Float64Array.from(p.F), 0, md.L, 0, md.totalAlleles)),
        };
        assert.deepEqual(shares, {
          'Q derivatives': 7,
          'step checks': 7,
          'listed step checks': 7,
          "Q's derivatives and solves": 14,
          "F's derivatives": 7,
          "F's solves": 7,
        });
      }
      const shared = everyPass(md, work);
      for (const [j, x] of alone.entries()) assert.ok(bitsEqual(x, shared[j]!), `output ${j} on ${threads} threads`);
      passes.close?.();
      setKernelHelperCell(undefined);
    }
  } finally {
    setKernelHelpers(0);
    setKernelHelperCell(undefined);
    setHelperSpawner(undefined);
  }
});

test('cuts: ranges cover [a, b) in order, aligned, as even as the alignment allows', () => {
  assert.deepEqual(cuts(0, 10, 1, 1), [[0, 10]]);
  assert.deepEqual(cuts(0, 10, 3, 1), [
    [0, 3],
    [3, 7],
    [7, 10],
  ]);
  assert.deepEqual(cuts(0, 100, 4, 8), [
    [0, 24],
    [24, 48],
    [48, 72],
    [72, 100],
  ]);
  // More shares than the range allows: some shares are empty, nothing is left out.
  assert.deepEqual(cuts(5, 7, 4, 1), [
    [5, 6],
    [6, 6],
    [6, 7],
    [7, 7],
  ]);
});
