// The admixture model's two-allele passes (engine/model/admixture/two-allele-passes.ts) against the
// JavaScript passes over entry lists (em-pass.ts, newton-passes.ts, f-derivatives.ts), which follow
// the model's definitions term by term: the same ln L, sums, derivatives and gains to rounding, and
// whole fits to the same optimum.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreparedData, type PreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { admixtureWork, emStep, emptyParams, type AdmixtureWork } from '../../engine/model/admixture/admixture.ts';
import { admixtureFitSteps, type AdmixtureFitResult } from '../../engine/model/admixture/admixture-fit.ts';
import { randomAdmixture } from '../../engine/model/admixture/admixture-start.ts';
import { emPass } from '../../engine/model/admixture/em-pass.ts';
import { derivativesPass, gainPass, type NewtonPassArguments } from '../../engine/model/admixture/newton-passes.ts';
import { fDerivativesPass, locusLogLik } from '../../engine/model/admixture/f-derivatives.ts';
import { passData } from '../../engine/model/admixture/pass-data.ts';
import { packedCodes, twoAllelePasses, MAX_K } from '../../engine/model/admixture/two-allele-passes.ts';
import { preparedForAdmixture } from '../../engine/service/start-work.ts';
import { TWO_ALLELE_PASSES_WASM } from '../../engine/model/admixture/generated/two-allele-passes-wasm.ts';
import { compileBase64 } from '../../engine/util/wasm-module.ts';
import { createRng } from '../../engine/util/rng.ts';
import { detLog } from '../../engine/util/det-math.ts';
import { makeData } from './synthetic.ts';
import type { GenotypeData } from '../../engine/data/genotype-data.ts';

/** N diploid individuals at L loci of two alleles (some of one), `missing` of genotypes missing. */
function snpData(N: number, L: number, seed: number, missing = 0.05): GenotypeData {
  const rng = createRng(seed);
  const freq = Array.from({ length: L }, (_, l) => (l % 11 === 5 ? 0 : 0.05 + 0.9 * rng.uniform()));
  const absent = Array.from({ length: N * L }, () => rng.uniform() < missing);
  return makeData(N, L, 2, Array(L).fill(2), (l, i) => (absent[l * N + i] ? -1 : rng.uniform() < freq[l]! ? 0 : 1));
}

const snps = (N: number, L: number, seed: number, missing = 0.05): PreparedData =>
  buildPreparedData(snpData(N, L, seed, missing));

/** |a − b| ≤ tol · max(1, |a|, |b|) for every entry. */
function close(a: ArrayLike<number>, b: ArrayLike<number>, tol: number, what: string): void {
  assert.equal(a.length, b.length, what);
  for (let j = 0; j < a.length; j++) {
    const x = a[j]!;
    const y = b[j]!;
    assert.ok(Math.abs(x - y) <= tol * Math.max(1, Math.abs(x), Math.abs(y)), `${what}[${j}]: ${x} vs ${y}`);
  }
}

test('the kernels are written for every K the passes offer them at, and the module imports only the memory', () => {
  const module = compileBase64(TWO_ALLELE_PASSES_WASM)!;
  const names = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
  for (let K = 1; K <= MAX_K; K++)
    for (const kernel of ['floglik', 'fderivatives', 'qderivatives', 'gains', 'em'])
      assert.ok(names.has(`${kernel}${K}`));
  assert.ok(!names.has(`em${MAX_K + 1}`));
  assert.deepEqual(
    WebAssembly.Module.imports(module).map((i) => i.name),
    ['memory'],
  );
});

test('two-bit codes: only diploid data of at most two alleles a locus, held-out entries and padding missing', () => {
  const args = (d: PreparedData, h?: Uint8Array) =>
    passData(d, admixtureWork(d, h), 2, new Float64Array(d.N * 2), new Float64Array(d.totalAlleles * 2));
  // Codes packed from each locus's decoded row (held-out entries) and from the stored rows (none:
  // loci in groups of combined codes and loci stored alone), checked against the calls.
  for (const [N, L, held] of [
    [9, 6, true],
    [9, 6, false],
    [203, 70, false],
  ] as const) {
    const data = snpData(N, L, 1, 0.2);
    const md = buildPreparedData(data);
    const heldOut = held ? Uint8Array.from({ length: N * L }, (_, j) => (j % 7 === 3 ? 1 : 0)) : undefined;
    const codes = packedCodes(args(md, heldOut))!;
    const bpl = Math.ceil(N / 4);
    assert.equal(codes.length, L * bpl);
    for (let l = 0; l < L; l++) {
      // The locus's first allele is the calls' 0 or 1: the codes must agree with one of the two.
      const agrees = (first: number) =>
        Array.from({ length: 4 * bpl }, (_, i) => {
          const c = (codes[l * bpl + (i >> 2)]! >> (2 * (i & 3))) & 3;
          if (i >= N || heldOut?.[i * L + l]) return c === 1;
          const x = data.calls[(l * N + i) * 2]!;
          const y = data.calls[(l * N + i) * 2 + 1]!;
          if (x < 0) return c === 1;
          const firsts = (x === first ? 1 : 0) + (y === first ? 1 : 0);
          return c === [3, 2, 0][firsts];
        }).every(Boolean);
      assert.ok(agrees(0) || agrees(1), `${N} × ${L}, locus ${l}`);
    }
  }
  const multi = buildPreparedData(makeData(6, 2, 2, [3, 2], (l, i, p) => (l === 0 ? (i + p) % 3 : p)));
  assert.equal(packedCodes(args(multi)), undefined, 'three alleles');
  const haploid = buildPreparedData(makeData(6, 2, 1, [2, 2], (_l, i) => i % 2));
  assert.equal(packedCodes(args(haploid)), undefined, 'haploid');
  const half = buildPreparedData(makeData(6, 2, 2, [2, 2], (_l, i, p) => (i === 2 && p === 1 ? -1 : p)));
  assert.equal(packedCodes(args(half)), undefined, 'a genotype with one copy missing');
});

test('each two-allele pass gives the sums of the passes over entry lists: EM, Q and F derivatives, gains, ln L per locus; K 1 to 10, held-out entries', () => {
  for (const [N, L] of [
    [37, 23],
    [64, 40],
  ] as const) {
    const md = snps(N, L, N);
    for (const held of [false, true]) {
      const rng = createRng(N + (held ? 1 : 0));
      const heldOut = held ? Uint8Array.from({ length: N * L }, () => (rng.uniform() < 0.2 ? 1 : 0)) : undefined;
      const work: AdmixtureWork = admixtureWork(md, heldOut);
      for (const K of [1, 2, 3, 4, 7, 10]) {
        const p = randomAdmixture(md, K, createRng(K));
        const data = passData(md, work, K, p.Q, p.F);
        const passes = twoAllelePasses(data)!;
        assert.ok(passes, 'two-allele passes apply');
        const tag = `N ${N}, K ${K}, held ${held}`;
        // EM.
        const js = {
          ...data,
          Qn: new Float64Array(N * K),
          Fn: new Float64Array(p.F.length),
          terms: new Float64Array(K),
        };
        const wa = { ...js, Qn: new Float64Array(N * K), Fn: new Float64Array(p.F.length) };
        const llJs = emPass(js);
        const llWasm = passes.em(wa);
        close([llWasm], [llJs], 1e-12, `EM ln L ${tag}`);
        close(wa.Qn, js.Qn, 1e-11, `EM Q sums ${tag}`);
        close(wa.Fn, js.Fn, 1e-11, `EM F sums ${tag}`);
        // ln L per locus.
        const lociJs = Array.from({ length: L }, (_, l) => locusLogLik(data, l, p.F, 0));
        close(passes.logLik(p.Q, p.F), lociJs, 1e-12, `ln L per locus ${tag}`);
        if (K < 2) continue;
        // Q's derivatives and gains.
        const T = (K * (K + 1)) / 2;
        const own = (): NewtonPassArguments => {
          const r = createRng(7 * K);
          const step = new Float64Array(N * K);
          for (let i = 0; i < N; i++) {
            const target = Array.from({ length: K }, () => r.uniform() + 1e-3);
            const s = target.reduce((x, y) => x + y, 0);
            for (let k = 0; k < K; k++) step[i * K + k] = 0.4 * (target[k]! / s - p.Q[i * K + k]!);
          }
          const starts = [1, 1e199, 1e-199, 3.5];
          return {
            ...data,
            gradient: new Float64Array(N * K).fill(0.25),
            hessian: new Float64Array(N * T).fill(0.5),
            step,
            pending: Uint8Array.from({ length: N }, (_, i) => (i % 3 === 1 ? 0 : 1)),
            gain: new Float64Array(N).fill(-0.125),
            ratio: Float64Array.from({ length: N }, (_, i) => starts[i % 4]!),
          };
        };
        const a = own();
        const b = own();
        derivativesPass(a);
        passes.derivatives(b);
        // As they act on steps with Σ Δ = 0 (the only steps taken): g_k − g_0 and
        // (e_k − e_0)ᵀ A (e_m − e_0) for k, m ≥ 1. The two-allele pass gives the second allele's terms
        // as the first's there (qderivatives), so the whole vectors differ.
        // (Differences of sums: compared to 1e-9.)
        const tangent = (x: NewtonPassArguments) => {
          const g: number[] = [];
          const h: number[] = [];
          const at = (i: number, k: number, m: number) =>
            x.hessian[i * T + (k >= m ? (k * (k + 1)) / 2 + m : (m * (m + 1)) / 2 + k)]!;
          for (let i = 0; i < N; i++)
            for (let k = 1; k < K; k++) {
              g.push(x.gradient[i * K + k]! - x.gradient[i * K]!);
              for (let m = 1; m < K; m++) h.push(at(i, k, m) - at(i, k, 0) - at(i, 0, m) + at(i, 0, 0));
            }
          return { g, h };
        };
        close(tangent(b).g, tangent(a).g, 1e-9, `Q gradient on Σ Δ = 0 ${tag}`);
        close(tangent(b).h, tangent(a).h, 1e-9, `Q Hessian on Σ Δ = 0 ${tag}`);
        gainPass(a);
        passes.gains(b);
        // Compare what the caller reads: gain + ln ratio, pending individuals only.
        for (let i = 0; i < N; i++) {
          if (!a.pending[i]) continue;
          close([b.gain[i]! + detLog(b.ratio[i]!)], [a.gain[i]! + detLog(a.ratio[i]!)], 1e-10, `gain ${i} ${tag}`);
        }
        // The checks of a few individuals, one sweep over the loci for a list: each the gain the
        // pass gives (from its starting gain and ratio), and the bits of one individual's check.
        const list = Array.from({ length: N }, (_, i) => i).filter((i) => a.pending[i]);
        const initial = [1, 1e199, 1e-199, 3.5];
        for (const t of [1, 0.5]) {
          const listed = passes.individualGains!(list, t, p.Q, p.F, a.step);
          list.forEach((i, j) => {
            if (t === 1) {
              const reference = a.gain[i]! + detLog(a.ratio[i]!) - (-0.125 + detLog(initial[i % 4]!));
              close([listed[j]!], [reference], 1e-9, `listed gain ${i} ${tag}`);
            }
            assert.equal(
              listed[j],
              passes.individualGains!([i], t, p.Q, p.F, a.step)[0],
              `one individual's check ${i} ${tag}`,
            );
          });
        }
        // F's derivatives: gradients per allele, the two alleles' Hessians summed, ln L per locus.
        const outer = new Float64Array(N * T);
        for (let i = 0; i < N; i++)
          for (let k = 0, t = i * T; k < K; k++)
            for (let m = 0; m <= k; m++) outer[t++] = p.Q[i * K + k]! * p.Q[i * K + m]!;
        const rows = md.totalAlleles;
        const fa = {
          ...data,
          outer,
          gradient: new Float64Array(rows * K),
          hessian: new Float64Array(rows * T),
          lociLL: new Float64Array(L),
        };
        const fb = {
          ...fa,
          gradient: new Float64Array(rows * K),
          hessian: new Float64Array(rows * T),
          lociLL: new Float64Array(L),
        };
        fDerivativesPass(fa, 0, L, 0);
        passes.beginFStep(fb);
        assert.ok(passes.fDerivatives(fb, 0, L, 0, rows));
        close(fb.lociLL, fa.lociLL, 1e-12, `F ln L ${tag}`);
        for (let l = 0; l < L; l++) {
          const r0 = md.offsets[l]!;
          if (md.offsets[l + 1]! - r0 < 2) continue;
          close(
            fb.gradient.subarray(r0 * K, (r0 + 2) * K),
            fa.gradient.subarray(r0 * K, (r0 + 2) * K),
            1e-11,
            `F gradient ${l} ${tag}`,
          );
          if (passes.solves) continue; // the Hessians stay in the passes' memory
          const sum = (h: Float64Array) => Array.from({ length: T }, (_, t) => h[r0 * T + t]! + h[(r0 + 1) * T + t]!);
          close(sum(fb.hessian), sum(fa.hessian), 1e-11, `F Hessian ${l} ${tag}`);
        }
        // A check's trial frequencies for one locus.
        const l = md.offsets.findIndex((o, j) => j < L && md.offsets[j + 1]! - o === 2);
        const trial = Float64Array.from({ length: 2 * K }, (_, j) => (j < K ? 0.3 + 0.04 * j : 0.7 - 0.04 * (j - K)));
        close(
          [passes.locusLogLik(l, md.offsets[l]!, 2, trial)!],
          [locusLogLik(data, l, trial, md.offsets[l]!)],
          1e-12,
          `trial ${tag}`,
        );
      }
    }
  }
});

function fit(md: PreparedData, work: AdmixtureWork, K: number, update: 'auto' | 'em'): AdmixtureFitResult {
  const steps = admixtureFitSteps(md, work, randomAdmixture(md, K, createRng(K)), {
    tolerance: 1e-8,
    maxIterations: update === 'em' ? 40 : 500, // EM crawls: its first 40 cycles
    acceleration: 'squarem',
    qUpdate: update,
    fUpdate: update,
  });
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

test('fits through the two-allele passes end where the general passes end (ln L to 1e-9, Q to 1e-4): Newton and EM updates (EM drives frequencies to 0)', () => {
  const md = snps(120, 300, 5);
  for (const update of ['auto', 'em'] as const)
    for (const K of [2, 3, 5]) {
      const a = fit(md, admixtureWork(md), K, update);
      const b = fit(md, { ...admixtureWork(md), wasm: 'general' }, K, update);
      close([a.logLik], [b.logLik], 1e-9, `ln L K ${K} ${update}`);
      close(a.params.Q, b.params.Q, 1e-4, `Q K ${K} ${update}`);
      const e = emptyParams(md, K);
      close([emStep(md, { ...admixtureWork(md), wasm: false }, a.params, e)], [a.logLik], 1e-12, 'ln L recomputed');
    }
});

test('the admixture workers share every locus’s codes only where the passes need them: not for SNPs up to the kernels’ K', () => {
  const md = snps(20, 30, 9);
  assert.equal(preparedForAdmixture(md, MAX_K), md, 'SNPs at K ≤ MAX_K: the preparation as it is');
  assert.ok('genotypeOf' in preparedForAdmixture(md, MAX_K + 1), 'above MAX_K the general passes read every locus');
  const multi = buildPreparedData(makeData(6, 2, 2, [3, 2], (l, i, p) => (l === 0 ? (i + p) % 3 : p)));
  assert.ok('genotypeOf' in preparedForAdmixture(multi, 2), 'three alleles: every locus decoded');
});
