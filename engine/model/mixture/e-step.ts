import type { MissingCopies } from '../../util/choices.ts';
import { MISSING } from '../../data/genotype-data.ts';
import { normalizeLogRow } from '../../util/log-math.ts';
import { maxGenotypes, type MixtureData } from './mixture-data.ts';
import type { MixtureModel } from './mixture-model.ts';
import { detLog } from '../../util/det-math.ts';
import { addGenotypeRows, gatherGenotypeRows } from './genotype-rows.ts';

/** Scratch buffers reused across iterations of one start. */
export interface EStepBuffers {
  /** shape (Σ r_i, K): ln θ. */
  readonly logTheta: Float64Array;
  /** shape (N, K): posterior p(c | x_d) after {@link eStep}. */
  readonly posterior: Float64Array;
  /** shape (max_i G_i, K): per-genotype scratch. */
  readonly genotype: Float64Array;
}

export function eStepBuffers(data: MixtureData, K: number): EStepBuffers {
  return {
    logTheta: new Float64Array(data.totalAlleles * K),
    posterior: new Float64Array(data.N * K),
    genotype: new Float64Array(Math.max(1, maxGenotypes(data)) * K),
  };
}

/**
 * E step (equations 7.8 and 8.1): fills `buf.posterior` with p(c | x_d, θ) for every individual
 * and returns the log-likelihood Σ_d ln p(x_d | θ) of the observed copies (missing copies are
 * marginalised out, which drops them from the product). Per locus, ln p(genotype | c) is computed
 * once per distinct genotype and then added to each individual's row.
 */
export function eStep(data: MixtureData, model: MixtureModel, buf: EStepBuffers): number {
  const { N, L, P, offsets, genotypeOf, genotypeOffsets, genotypeAlleles } = data;
  const K = model.K;
  const lt = buf.logTheta;
  const lp = buf.posterior;
  const lg = buf.genotype;
  for (let k = 0; k < lt.length; k++) lt[k] = detLog(model.theta[k]!);
  for (let c = 0; c < K; c++) lp[c] = detLog(model.weights[c]!);
  for (let d = 1; d < N; d++) lp.copyWithin(d * K, 0, K);
  for (let i = 0; i < L; i++) {
    const off = offsets[i]!;
    const g0 = genotypeOffsets[i]!;
    const G = genotypeOffsets[i + 1]! - g0;
    for (let g = 0; g < G; g++) {
      const o = g * K;
      for (let c = 0; c < K; c++) lg[o + c] = 0;
      for (let p = 0; p < P; p++) {
        const a = genotypeAlleles[(g0 + g) * P + p]!;
        if (a === MISSING) continue;
        const t = (off + a) * K;
        for (let c = 0; c < K; c++) lg[o + c]! += lt[t + c]!;
      }
    }
    addGenotypeRows(genotypeOf, i * N, N, K, lp, lg);
  }
  let ll = 0;
  for (let d = 0; d < N; d++) ll += normalizeLogRow(lp, d, K);
  return ll;
}

/** How missing allele copies enter the expected counts. */
export type { MissingCopies };

/** Expected sufficient statistics of one E step. */
export interface ExpectedCounts {
  /** shape (Σ r_i, K): E(N_ijk), expected copies of allele k at locus i in cluster j. */
  readonly alleleCluster: Float64Array;
  /** shape (K,): E(N_C-j), expected individuals in cluster j. */
  readonly cluster: Float64Array;
}

/**
 * Expected counts from posteriors. With 'skip', a missing copy adds nothing; with 'expect', it is
 * filled in expectation: it adds p(c^j | x_d) · θ_ijk to E(N_ijk) (and so Σ_j of that to
 * E(N_i-k)), as the text of section 8.2 implies. Posteriors are first summed per distinct
 * genotype, then spread over the genotype's copies.
 */
export function expectedCounts(
  data: MixtureData,
  model: MixtureModel,
  posterior: Float64Array,
  missing: MissingCopies,
  out?: ExpectedCounts,
  scratch?: Float64Array,
): ExpectedCounts {
  const { N, L, P, offsets, alleles, genotypeOf, genotypeOffsets, genotypeAlleles } = data;
  const K = model.K;
  const cnt = out?.alleleCluster ?? new Float64Array(data.totalAlleles * K);
  const cl = out?.cluster ?? new Float64Array(K);
  const acc = scratch ?? new Float64Array(Math.max(1, maxGenotypes(data)) * K);
  cnt.fill(0);
  cl.fill(0);
  for (let d = 0; d < N; d++) for (let c = 0; c < K; c++) cl[c]! += posterior[d * K + c]!;
  const miss = new Float64Array(K);
  for (let i = 0; i < L; i++) {
    const off = offsets[i]!;
    const g0 = genotypeOffsets[i]!;
    const G = genotypeOffsets[i + 1]! - g0;
    acc.fill(0, 0, G * K);
    gatherGenotypeRows(genotypeOf, i * N, N, K, posterior, acc);
    miss.fill(0);
    for (let g = 0; g < G; g++) {
      const o = g * K;
      for (let p = 0; p < P; p++) {
        const a = genotypeAlleles[(g0 + g) * P + p]!;
        if (a === MISSING) {
          if (missing === 'expect') for (let c = 0; c < K; c++) miss[c]! += acc[o + c]!;
          continue;
        }
        const t = (off + a) * K;
        for (let c = 0; c < K; c++) cnt[t + c]! += acc[o + c]!;
      }
    }
    if (missing === 'expect') {
      for (let a = 0; a < alleles[i]!; a++) {
        const t = (off + a) * K;
        for (let c = 0; c < K; c++) cnt[t + c]! += miss[c]! * model.theta[t + c]!;
      }
    }
  }
  return { alleleCluster: cnt, cluster: cl };
}
