// Where an admixture step's time goes: the passes over the data (WebAssembly and JavaScript, the
// same bits) and the two Newton blocks whole, on eHGDP (1,350 × 678 microsatellites) at K = 2..12,
// at the point a random start reaches after 10 SQUAREM cycles. One thread; milliseconds per call,
// the median of 15 calls after one untimed.
// Usage: node --import tsx bench/admixture-step.ts [--k 2..12] > docs/admixture-step.md
import { cpus } from 'node:os';
import { ADMIXTURE_CASES } from './admixture-cases.ts';
import { scriptArg } from './args.ts';
import { admixtureWork, emptyParams, type AdmixtureParams } from '../engine/model/admixture/admixture.ts';
import { admixtureFitSteps } from '../engine/model/admixture/admixture-fit.ts';
import { admixtureFitOptions, randomAdmixture } from '../engine/model/admixture/admixture-start.ts';
import { fNewtonStep, fNewtonWork } from '../engine/model/admixture/f-newton.ts';
import { qNewtonStep, qNewtonWork } from '../engine/model/admixture/q-newton.ts';
import { passData } from '../engine/model/admixture/pass-data.ts';
import { wasmPasses } from '../engine/model/admixture/wasm-passes.ts';
import { emPass } from '../engine/model/admixture/em-pass.ts';
import { derivativesPass, gainPass } from '../engine/model/admixture/newton-passes.ts';
import { fBlockRows, fBlocks, fDerivativesPass } from '../engine/model/admixture/f-derivatives.ts';
import { DEFAULT_FIT } from '../engine/model/fit-options.ts';
import { createRng } from '../engine/util/rng.ts';

const [kFrom, kTo] = scriptArg('--k', '2..12').split('..').map(Number) as [number, number];
const T0 = performance.now();
const md = await ADMIXTURE_CASES[0]!.data();
const work = admixtureWork(md);

/** Median milliseconds of `run` (15 timed calls after one untimed; `reset` before each, not timed). */
function time(run: () => void, reset: () => void = () => {}): number {
  const ms: number[] = [];
  for (let r = 0; r < 16; r++) {
    reset();
    const t = performance.now();
    run();
    if (r > 0) ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return ms[ms.length >> 1]!;
}

/** The parameters after 10 SQUAREM cycles of the default fit from a random start. */
function midFit(K: number): AdmixtureParams {
  const init = randomAdmixture(md, K, createRng(K));
  const steps = admixtureFitSteps(md, work, init, { ...admixtureFitOptions(DEFAULT_FIT), maxIterations: 10 });
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value.params;
}

const rows: string[] = [];
for (let K = kFrom; K <= kTo; K++) {
  const p = midFit(K);
  const T = (K * (K + 1)) / 2;
  const data = passData(md, work, K, p.Q, p.F);
  const wasm = wasmPasses(data)!;
  const newton = {
    ...data,
    gradient: new Float64Array(md.N * K),
    hessian: new Float64Array(md.N * T),
    step: new Float64Array(md.N * K),
    pending: new Uint8Array(md.N).fill(1),
    gain: new Float64Array(md.N),
    ratio: new Float64Array(md.N),
  };
  const resetNewton = () => {
    newton.gradient.fill(0);
    newton.hessian.fill(0);
    newton.gain.fill(0);
    newton.ratio.fill(1);
  };
  const em = { ...data, Qn: new Float64Array(md.N * K), Fn: new Float64Array(p.F.length), terms: new Float64Array(K) };
  const resetEm = () => {
    em.Qn.fill(0);
    em.Fn.fill(0);
  };
  const blockRows = Math.min(md.totalAlleles, fBlockRows(K));
  const outer = new Float64Array(md.N * T);
  const f = {
    ...data,
    outer,
    gradient: new Float64Array(blockRows * K),
    hessian: new Float64Array(blockRows * T),
    lociLL: new Float64Array(md.L),
  };
  /** F's derivative pass over every block of loci, as fNewtonStep makes them. */
  const fPass = (js: boolean) => {
    if (!js) wasm.beginFStep(f);
    for (const { l0, l1, rowBase, rows: n } of fBlocks(md.offsets, md.L, K)) {
      f.gradient.fill(0, 0, n * K);
      f.hessian.fill(0, 0, n * T);
      if (js || !wasm.fDerivatives(f, l0, l1, rowBase, n)) fDerivativesPass(f, l0, l1, rowBase);
    }
  };
  const trial = Float64Array.from(p.F);
  const checks = () => {
    for (let l = 0; l < md.L; l++) {
      const off = md.offsets[l]!;
      wasm.locusLogLik(l, off, md.alleles[l]!, trial.subarray(off * K));
    }
  };
  // The blocks whole, from copies of the point (each call then starts from the same point).
  const fScratch = fNewtonWork(md, K);
  const qScratch = qNewtonWork(md.N, K);
  const cur = emptyParams(md, K);
  const reset = () => {
    cur.Q.set(p.Q);
    cur.F.set(p.F);
  };
  const cells = [
    time(() => wasm.derivatives(newton), resetNewton),
    time(() => derivativesPass(newton), resetNewton),
    time(() => wasm.gains(newton), resetNewton),
    time(() => gainPass(newton), resetNewton),
    time(() => fPass(false)),
    time(() => fPass(true)),
    time(checks),
    time(() => wasm.em(em), resetEm),
    time(() => emPass(em), resetEm),
    time(() => fNewtonStep(md, work, K, cur.Q, cur.F, fScratch), reset),
    time(() => qNewtonStep(md, work, K, cur.Q, cur.F, qScratch), reset),
  ];
  rows.push(`| ${K} | ${cells.map((ms) => ms.toFixed(1)).join(' | ')} |`);
}

process.stdout.write(`# Where an admixture step's time goes

Made by \`node --import tsx bench/admixture-step.ts > docs/admixture-step.md\` on this machine
(${cpus()[0]?.model ?? 'unknown CPU'}, one thread) in ${((performance.now() - T0) / 60000).toFixed(0)} minutes. eHGDP (${md.N} individuals × ${md.L}
microsatellites, ${md.totalAlleles} alleles), at the point a random start reaches after 10 SQUAREM
cycles of the default fit, per K. Milliseconds per call, the median of 15 calls after one untimed;
wasm: the WebAssembly pass, JS: the JavaScript one (the same operations in the same order, so the
same bits; JavaScript runs where WebAssembly with SIMD is missing). Both have the K columns written
out up to K = 12 and loop over them beyond, except F's JavaScript derivative pass, a loop at every K.
Passes: Q's derivatives (gradient and Hessian per individual), Q's gains (the check of every
individual's step; a fit checks only the steps that are not certain), F's derivatives (gradient and
Hessian per allele, ln L per locus), F's checks (ψ_l at trial frequencies, every locus once; a fit
checks only some), the EM pass. Blocks: one whole Newton step of F (its pass, the solves per locus,
its checks) and of Q (pass, solves, checks), as a block-relaxation step takes them.

| K | Q derivatives wasm | JS | Q gains wasm | JS | F derivatives wasm | JS | F checks wasm | EM pass wasm | JS | F block | Q block |
|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`);
