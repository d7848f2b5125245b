import type { PreparedData } from '../prepared/prepared-data.ts';
import type { AdmixtureMap } from './admixture-step.ts';
import {
  projectToSimplex,
  type AdmixtureFitOptions,
  type AdmixtureFitResult,
  type AdmixtureParams,
  type AdmixtureStepInfo,
  type AdmixtureWork,
} from './admixture.ts';

/** Differences kept by Anderson acceleration (3, 5 and 10 were measured on eHGDP; docs/admixture.md). */
export const ANDERSON_ORDER = 5;

/** Tikhonov damping of the least-squares problem, relative to the mean squared residual difference. */
const RIDGE = 1e-8;

/** Q and F as views into one flat vector, so that the acceleration sees one parameter vector. */
function flatParams(md: PreparedData, K: number, buffer = new Float64Array((md.N + md.totalAlleles) * K)) {
  const params: AdmixtureParams = { K, Q: buffer.subarray(0, md.N * K), F: buffer.subarray(md.N * K) };
  return { buffer, params };
}

/**
 * Q and F in buffers of their own: the fit's views share one, and a result posted between threads
 * lists each buffer to transfer once.
 */
function own(p: AdmixtureParams): AdmixtureParams {
  return { K: p.K, Q: p.Q.slice(), F: p.F.slice() };
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j]! * b[j]!;
  return s;
}

/** Solves the m × m system A x = b (row-major, overwritten) by elimination with partial pivoting. */
export function solveSmall(A: Float64Array, b: Float64Array, m: number): Float64Array {
  const x = Float64Array.from(b);
  for (let c = 0; c < m; c++) {
    let p = c;
    for (let r = c + 1; r < m; r++) if (Math.abs(A[r * m + c]!) > Math.abs(A[p * m + c]!)) p = r;
    if (p !== c) {
      for (let j = 0; j < m; j++) [A[c * m + j], A[p * m + j]] = [A[p * m + j]!, A[c * m + j]!];
      [x[c], x[p]] = [x[p]!, x[c]!];
    }
    const pivot = A[c * m + c]!;
    for (let r = c + 1; r < m; r++) {
      const f = A[r * m + c]! / pivot;
      for (let j = c; j < m; j++) A[r * m + j]! -= f * A[c * m + j]!;
      x[r]! -= f * x[c]!;
    }
  }
  for (let c = m - 1; c >= 0; c--) {
    let s = x[c]!;
    for (let j = c + 1; j < m; j++) s -= A[c * m + j]! * x[j]!;
    x[c] = s / A[c * m + c]!;
  }
  return x;
}

/**
 * Maximum likelihood of Q and F by the map's steps (EM, or Newton block relaxation) with Anderson
 * acceleration (type II, Walker & Ni 2011; restarted on failure as in DAAREM, Henderson & Varadhan
 * 2019). With G the map and f_n = G(x_n) − x_n, the last m steps' differences ΔX (of x) and ΔF (of f)
 * give γ = argmin ‖f_n − ΔF γ‖² (damped by a tiny ridge) and the proposal
 * x′ = G(x_n) − (ΔX + ΔF) γ, projected into the simplex. One step from x′ yields both
 * ln L(x′) and G(x′); x′ is accepted when ln L(x′) ≥ ln L(x_n). Otherwise the history is dropped
 * and the plain step G(x_n) (never less likely than x_n) is taken. So every accepted step is at
 * least as likely as the one before, at one step per cycle (two after a rejection), where SQUAREM
 * spends three. Where it is the default: resolvedAcceleration (admixture-step.ts).
 * Stopping: a proposal barely above x_n ends the rule |Δ ln L| < tolerance while a plain step from
 * there would still gain more (a fit stalled 25 ln L below the optimum so, on 10,000 simulated SNPs);
 * so the fit ends only when the plain step from the accepted point, G(x), gains less than the
 * tolerance too (ln L(G(x)) by `map.logLik` where the map has it, else by a step from G(x)).
 */
export function* andersonFitSteps(
  md: PreparedData,
  work: AdmixtureWork,
  init: AdmixtureParams,
  o: AdmixtureFitOptions,
  map: AdmixtureMap,
): Generator<AdmixtureStepInfo, AdmixtureFitResult> {
  const { step } = map;
  const K = init.K;
  const m = ANDERSON_ORDER;
  let x = flatParams(md, K);
  x.buffer.set(init.Q);
  x.buffer.set(init.F, md.N * K);
  let gx = flatParams(md, K);
  let proposal = flatParams(md, K);
  let gProposal = flatParams(md, K);
  let scratch: AdmixtureParams | undefined;
  /** ln L(G(x)): the plain step's point, for the stopping rule. */
  const plainLogLik = (p: AdmixtureParams) =>
    map.logLik ? map.logLik(p) : step(p, (scratch ??= flatParams(md, K).params));
  const D = x.buffer.length;
  const dX = Array.from({ length: m }, () => new Float64Array(D));
  const dF = Array.from({ length: m }, () => new Float64Array(D));
  const residual = new Float64Array(D);
  // dF[p]·dF[q] for the stored slots, a row computed when its slot is written (dot(a, b) and
  // dot(b, a) are the same bits).
  const gram = new Float64Array(m * m);
  const previousX = new Float64Array(D);
  const previousF = new Float64Array(D);
  let hasPrevious = false;
  let stored = 0;
  let next = 0;
  let llx = step(x.params, gx.params);
  let emSteps = 1;
  let iterations = 0;
  let previous = -Infinity;
  for (;;) {
    const change = llx - previous;
    if (iterations > 0 && Math.abs(change) < o.tolerance) {
      const plain = plainLogLik(gx.params);
      if (!map.logLik) emSteps++;
      if (!(plain - llx >= o.tolerance))
        return { params: own(x.params), logLik: llx, iterations, emSteps, converged: true };
    }
    if (iterations >= o.maxIterations)
      return { params: own(x.params), logLik: llx, iterations, emSteps, converged: false };
    iterations++;
    previous = llx;
    yield { iteration: iterations, logLik: llx, change };
    const xb = x.buffer;
    const gb = gx.buffer;
    for (let j = 0; j < D; j++) residual[j] = gb[j]! - xb[j]!;
    if (hasPrevious) {
      const ux = dX[next]!;
      const uf = dF[next]!;
      for (let j = 0; j < D; j++) {
        ux[j] = xb[j]! - previousX[j]!;
        uf[j] = residual[j]! - previousF[j]!;
      }
      const slot = next;
      next = (next + 1) % m;
      stored = Math.min(stored + 1, m);
      for (let p = 0; p < stored; p++) gram[slot * m + p] = gram[p * m + slot] = dot(dF[slot]!, dF[p]!);
    }
    previousX.set(xb);
    previousF.set(residual);
    hasPrevious = true;
    const pb = proposal.buffer;
    pb.set(gb);
    if (stored > 0) {
      const A = new Float64Array(stored * stored);
      const b = new Float64Array(stored);
      let trace = 0;
      for (let p = 0; p < stored; p++) {
        for (let q = 0; q <= p; q++) A[p * stored + q] = A[q * stored + p] = gram[p * m + q]!;
        b[p] = dot(dF[p]!, residual);
        trace += A[p * stored + p]!;
      }
      for (let p = 0; p < stored; p++) A[p * stored + p]! += (RIDGE * trace) / stored;
      const gamma = solveSmall(A, b, stored);
      if (gamma.every(Number.isFinite)) {
        for (let p = 0; p < stored; p++) {
          const g = gamma[p]!;
          const ux = dX[p]!;
          const uf = dF[p]!;
          for (let j = 0; j < D; j++) pb[j]! -= g * (ux[j]! + uf[j]!);
        }
        projectToSimplex(md, proposal.params, work.fixed);
      }
    }
    const llProposal = step(proposal.params, gProposal.params);
    emSteps++;
    if (Number.isFinite(llProposal) && llProposal >= llx) {
      [x, proposal] = [proposal, x];
      [gx, gProposal] = [gProposal, gx];
      llx = llProposal;
    } else {
      // Restart from the plain EM step.
      stored = 0;
      next = 0;
      hasPrevious = false;
      [x, gx] = [gx, x];
      llx = step(x.params, gx.params);
      emSteps++;
    }
  }
}
