import type { StepInfo } from '../mixture/fit.ts';
import type { TanData } from './tan-data.ts';
import { cloneTan, emptyCounts, tanChange, tanCounts, tanEStep, tanMaStep, type TanModel } from './tan-model.ts';

export interface TanFitOptions {
  readonly alpha: number;
  readonly alphaCluster: number;
  readonly epsilon: number;
  readonly maxIterations: number;
  /** Iterations during which a collapsing MA step (no variable depends on C) is replaced by an EM step. */
  readonly warmup: number;
  /** 'em': every variable keeps all weight on {C} (multi-start EM on the same variables). */
  readonly onlyC: boolean;
}

/** Per marker, what the data say about its parents: a linkage map. */
export interface ParentWeights {
  /** Locus index of the marker. */
  readonly locus: number;
  /** Posterior probability that the marker depends on the cluster (Σ of W over sets containing C). */
  readonly cluster: number;
  /** Candidate parent loci and the posterior probability of depending on each (W_l + W_{C,l}). */
  readonly parents: readonly { readonly locus: number; readonly weight: number }[];
}

export interface TanFitResult {
  readonly model: TanModel;
  readonly logLik: number;
  readonly posterior: Float64Array;
  readonly iterations: number;
  readonly converged: boolean;
  readonly parentWeights: readonly ParentWeights[];
}

/** The linkage map of a TAN model, per marker in locus order. */
export function parentWeights(td: TanData, model: TanModel): ParentWeights[] {
  const out: ParentWeights[] = new Array(td.n);
  model.vars.forEach((t, i) => {
    const cand = td.candidates[i]!;
    const w = t.weight;
    let cluster = w[1]!;
    for (let j = 0; j < cand.length; j++) cluster += w[2 + cand.length + j]!;
    const parents = Array.from(cand, (l, j) => ({ locus: td.loci[l]!, weight: w[2 + j]! + w[2 + cand.length + j]! }));
    out[i] = { locus: td.loci[i]!, cluster, parents };
  });
  return out.sort((a, b) => a.locus - b.locus);
}

/** EMA-TAN (or EM on the same variables) from `init`, yielding after every iteration. */
export function* tanFitSteps(td: TanData, init: TanModel, o: TanFitOptions): Generator<StepInfo, TanFitResult> {
  const K = init.K;
  let cur = cloneTan(init);
  let next = cloneTan(init);
  const posterior = new Float64Array(td.N * K);
  const counts = emptyCounts(td, K);
  let iterations = 0;
  let converged = false;
  let logLik = -Infinity;
  for (;;) {
    logLik = tanEStep(td, cur, posterior);
    if (iterations >= o.maxIterations) break;
    tanCounts(td, posterior, K, counts);
    tanMaStep(td, counts, K, o.alpha, o.alphaCluster, next, o.onlyC);
    if (!o.onlyC && iterations < o.warmup) {
      let most = 0;
      for (const t of next.vars) {
        const cand = t.byCL.length;
        let c = t.weight[1]!;
        for (let j = 0; j < cand; j++) c += t.weight[2 + cand + j]!;
        most = Math.max(most, c);
      }
      if (most < 0.5) tanMaStep(td, counts, K, o.alpha, o.alphaCluster, next, true);
    }
    const change = tanChange(cur, next);
    iterations++;
    yield { iteration: iterations, logLik, change };
    if (change < o.epsilon) {
      converged = true;
      break;
    }
    [cur, next] = [next, cur];
  }
  return { model: cur, logLik, posterior, iterations, converged, parentWeights: parentWeights(td, cur) };
}
