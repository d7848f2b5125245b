import type { MixtureData } from '../mixture/mixture-data.ts';

/**
 * The admixture model (the likelihood of STRUCTURE's admixture model without priors, as
 * ADMIXTURE maximises it; docs/algorithms.md §14): copy c of individual i at locus l has ancestry
 * z ~ Cat(q_i) and allele a ~ Cat(f_{z,l}). With d_ila = Σ_k q_ik f_kla,
 *
 *   ln L = Σ over observed copies of ln d_ila      (no constants; missing copies skipped)
 *
 * Parameters: Q, shape (N, K), rows on the simplex; F, shape (Σ_l r_l, K) in the mixture
 * model's layout (row offsets[l] + a, column k), each (l, k) column block on the simplex.
 */
export interface AdmixtureParams {
  readonly K: number;
  readonly Q: Float64Array;
  readonly F: Float64Array;
}

/** Smallest value a parameter keeps after an extrapolation (keeps ln d finite). */
export const PARAMETER_FLOOR = 1e-9;

/** Scratch and constants for EM passes over one dataset (sized to the data, reused across passes). */
export interface AdmixtureWork {
  /** Observed copies per individual (the q update's denominator). */
  readonly copies: Float64Array;
  /**
   * Genotype of individual i at locus l as an index among locus l's distinct genotypes, shape
   * (N, L) individual-major: mixtureData's genotypeOf transposed, so a pass reads each
   * individual's loci in order and keeps its q row and accumulators in registers.
   */
  readonly codes: Uint8Array | Uint16Array | Int32Array;
  /**
   * Per (individual, locus), shape (N, L) individual-major: 1 when the entry is held out (cross-
   * validation); absent: every entry is used.
   */
  readonly heldOut?: Uint8Array;
  /** Rows of Q that stay fixed (supervised mode), or absent. */
  readonly fixed?: Uint8Array;
}

/** The work description of a dataset, optionally with held-out entries and fixed rows of Q. */
export function admixtureWork(md: MixtureData, heldOut?: Uint8Array, fixed?: Uint8Array): AdmixtureWork {
  const { N, L, P } = md;
  const copies = new Float64Array(N);
  const source = md.genotypeOf;
  const codes =
    source instanceof Uint8Array
      ? new Uint8Array(N * L)
      : source instanceof Uint16Array
        ? new Uint16Array(N * L)
        : new Int32Array(N * L);
  for (let l = 0; l < L; l++) {
    const gOff = md.genotypeOffsets[l]!;
    for (let i = 0; i < N; i++) {
      const g = source[l * N + i]!;
      codes[i * L + l] = g;
      if (heldOut && heldOut[i * L + l]) continue;
      const row = (gOff + g) * P;
      for (let p = 0; p < P; p++) if (md.genotypeAlleles[row + p]! >= 0) copies[i]!++;
    }
  }
  return { copies, codes, ...(heldOut ? { heldOut } : {}), ...(fixed ? { fixed } : {}) };
}

/**
 * One EM step (Tang et al. 2005): with w_ilak = q_ik f_kla / d_ila, the posterior of ancestry k
 * for an observed copy of allele a, q_ik ← Σ_{l,copies} w / (copies of i) and
 * f_kla ← Σ_{i,copies of a} w / Σ_{a'} (same). Writes the update into `out` and returns ln L of
 * `cur` (computed in the same pass). One pass over the distinct genotypes of each locus; equal
 * copies of a genotype (homozygotes) are handled once with their count.
 */
export function emStep(md: MixtureData, work: AdmixtureWork, cur: AdmixtureParams, out: AdmixtureParams): number {
  const { N, L, P } = md;
  const K = cur.K;
  const { Q, F } = cur;
  const Qn = out.Q;
  const Fn = out.F;
  Fn.fill(0);
  const heldOut = work.heldOut;
  const codes = work.codes;
  const genotypeAlleles = md.genotypeAlleles;
  const offsets = md.offsets;
  const genotypeOffsets = md.genotypeOffsets;
  const q = new Float64Array(K);
  const acc = new Float64Array(K);
  const t = new Float64Array(K);
  // ln L as a sum of logs of running products (each d ≤ 1 and ≥ the parameter floor squared),
  // one Math.log per few hundred copies instead of one per copy.
  let ll = 0;
  let product = 1;
  for (let i = 0; i < N; i++) {
    const qi = i * K;
    for (let k = 0; k < K; k++) {
      q[k] = Q[qi + k]!;
      acc[k] = 0;
    }
    const ci = i * L;
    for (let l = 0; l < L; l++) {
      if (heldOut !== undefined && heldOut[ci + l] === 1) continue;
      const row = (genotypeOffsets[l]! + codes[ci + l]!) * P;
      const off = offsets[l]!;
      for (let p = 0; p < P; p++) {
        const a = genotypeAlleles[row + p]!;
        if (a < 0) continue;
        let count = 1;
        while (p + 1 < P && genotypeAlleles[row + p + 1] === a) {
          count++;
          p++;
        }
        const fr = (off + a) * K;
        let d = 0;
        for (let k = 0; k < K; k++) {
          const x = q[k]! * F[fr + k]!;
          t[k] = x;
          d += x;
        }
        product *= count === 1 ? d : d ** count;
        if (product < 1e-250) {
          ll += Math.log(product);
          product = 1;
        }
        const s = count / d;
        for (let k = 0; k < K; k++) {
          const w = t[k]! * s;
          acc[k]! += w;
          Fn[fr + k]! += w;
        }
      }
    }
    const n = work.copies[i]!;
    const keep = n === 0 || (work.fixed !== undefined && work.fixed[i] === 1);
    for (let k = 0; k < K; k++) Qn[qi + k] = keep ? q[k]! : acc[k]! / n;
  }
  ll += Math.log(product);
  for (let l = 0; l < L; l++) {
    const off = md.offsets[l]!;
    const r = md.alleles[l]!;
    for (let k = 0; k < K; k++) {
      let s = 0;
      for (let a = 0; a < r; a++) s += Fn[(off + a) * K + k]!;
      if (s > 0) for (let a = 0; a < r; a++) Fn[(off + a) * K + k]! /= s;
      else for (let a = 0; a < r; a++) Fn[(off + a) * K + k] = F[(off + a) * K + k]!;
    }
  }
  return ll;
}

/** ln L of the parameters (one pass without an update). */
export function admixtureLogLik(md: MixtureData, work: AdmixtureWork, params: AdmixtureParams): number {
  const { N, L, P } = md;
  const K = params.K;
  const { Q, F } = params;
  let ll = 0;
  for (let l = 0; l < L; l++) {
    const off = md.offsets[l]!;
    const gOff = md.genotypeOffsets[l]!;
    for (let i = 0; i < N; i++) {
      if (work.heldOut && work.heldOut[i * L + l]) continue;
      const row = (gOff + md.genotypeOf[l * N + i]!) * P;
      for (let p = 0; p < P; p++) {
        const a = md.genotypeAlleles[row + p]!;
        if (a < 0) continue;
        const fr = (off + a) * K;
        let d = 0;
        for (let k = 0; k < K; k++) d += Q[i * K + k]! * F[fr + k]!;
        ll += Math.log(d);
      }
    }
  }
  return ll;
}

/** Keeps every parameter at least PARAMETER_FLOOR and every simplex block summing to one. */
export function projectToSimplex(md: MixtureData, params: AdmixtureParams, fixed?: Uint8Array): void {
  const { K, Q, F } = params;
  for (let i = 0; i < md.N; i++) {
    if (fixed && fixed[i]) continue;
    let s = 0;
    for (let k = 0; k < K; k++) {
      const v = Math.min(1, Math.max(PARAMETER_FLOOR, Q[i * K + k]!));
      Q[i * K + k] = v;
      s += v;
    }
    for (let k = 0; k < K; k++) Q[i * K + k]! /= s;
  }
  for (let l = 0; l < md.L; l++) {
    const off = md.offsets[l]!;
    const r = md.alleles[l]!;
    for (let k = 0; k < K; k++) {
      let s = 0;
      for (let a = 0; a < r; a++) {
        const v = Math.min(1, Math.max(PARAMETER_FLOOR, F[(off + a) * K + k]!));
        F[(off + a) * K + k] = v;
        s += v;
      }
      for (let a = 0; a < r; a++) F[(off + a) * K + k]! /= s;
    }
  }
}

export function cloneParams(p: AdmixtureParams): AdmixtureParams {
  return { K: p.K, Q: Float64Array.from(p.Q), F: Float64Array.from(p.F) };
}

export function emptyParams(md: MixtureData, K: number): AdmixtureParams {
  return { K, Q: new Float64Array(md.N * K), F: new Float64Array(md.totalAlleles * K) };
}
