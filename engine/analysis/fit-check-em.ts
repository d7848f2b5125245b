/**
 * The admixture EM for F with Q fixed, one locus at a time — what evalAdmix's frequency correction
 * runs — and its leave-one-out shift, linearised (fit-check.ts explains the use).
 *
 * At a locus with A alleles, individual i has n_ia copies of allele a (m_i copies called) and
 * predicted frequency p_ia = Σ_k q_ik f_ak. The EM map is
 *   M(f)_ak = f_ak G_ak / D_k,  G_ak = Σ_i n_ia q_ik / p_ia,  D_k = Σ_a f_ak G_ak,
 * (for two alleles, evalAdmix's sumAG / (sumAG + sumBG)) and its Jacobian
 *   dM_ak = (dN_ak − M_ak Σ_b dN_bk) / D_k,  dN_ak = δ_ak G_ak − f_ak Σ_k' H^a_kk' δ_ak',
 *   H^a_kk' = Σ_i n_ia q_ik q_ik' / p_ia².
 * Without individual i, G, H and D lose i's terms.
 */

/** Below this a predicted frequency is taken as this (an observed allele the fit gives 0). */
export const P_FLOOR = 1e-12;

/** The EM map's sums at one locus's F (A × K): what the linearised shift needs. */
export interface LocusEm {
  readonly A: number;
  /** G[a·K + k]. */
  readonly G: Float64Array;
  /** H[(a·K + k)·K + k']. */
  readonly H: Float64Array;
  /** D[k]. */
  readonly D: Float64Array;
  /** The EM map at F, M[a·K + k]. */
  readonly M: Float64Array;
}

/**
 * Allele counts of one locus: counts[i·A + a] copies of allele a, copies[i] called copies (0:
 * missing), for N individuals.
 */
export interface LocusCounts {
  readonly A: number;
  readonly counts: Uint8Array;
  readonly copies: Uint8Array;
}

/** G (and H when given) at frequencies f (A × K). */
export function emSums(
  c: LocusCounts,
  Q: Float64Array,
  f: Float64Array,
  N: number,
  K: number,
  G: Float64Array,
  H?: Float64Array,
): void {
  const A = c.A;
  G.fill(0, 0, A * K);
  H?.fill(0, 0, A * K * K);
  for (let i = 0; i < N; i++) {
    if (c.copies[i] === 0) continue;
    for (let a = 0; a < A; a++) {
      const n = c.counts[i * A + a]!;
      if (n === 0) continue;
      let p = 0;
      for (let k = 0; k < K; k++) p += Q[i * K + k]! * f[a * K + k]!;
      p = Math.max(p, P_FLOOR);
      const w = n / p;
      for (let k = 0; k < K; k++) G[a * K + k]! += w * Q[i * K + k]!;
      if (H) {
        const w2 = w / p;
        for (let k = 0; k < K; k++) {
          const qk = w2 * Q[i * K + k]!;
          for (let k2 = 0; k2 < K; k2++) H[(a * K + k) * K + k2]! += qk * Q[i * K + k2]!;
        }
      }
    }
  }
}

/** The EM map: D[k] = Σ_a f_ak G_ak, out = f·G / D (f where D = 0). out may be f. */
export function emMap(
  f: Float64Array,
  G: Float64Array,
  A: number,
  K: number,
  D: Float64Array,
  out: Float64Array,
): void {
  D.fill(0, 0, K);
  for (let a = 0; a < A; a++) for (let k = 0; k < K; k++) D[k]! += f[a * K + k]! * G[a * K + k]!;
  for (let a = 0; a < A; a++)
    for (let k = 0; k < K; k++) {
      const x = a * K + k;
      out[x] = D[k]! > 0 ? (f[x]! * G[x]!) / D[k]! : f[x]!;
    }
}

/** The EM map's sums at f, for the shifts of every individual. */
export function locusEm(c: LocusCounts, Q: Float64Array, f: Float64Array, N: number, K: number): LocusEm {
  const A = c.A;
  const G = new Float64Array(A * K);
  const H = new Float64Array(A * K * K);
  emSums(c, Q, f, N, K, G, H);
  const D = new Float64Array(K);
  const M = new Float64Array(A * K);
  emMap(f, G, A, K, D, M);
  return { A, G, H, D, M };
}

/** `steps` EM steps from f, in place (F⁽⁰⁾: everybody's F after the correction's steps). */
export function emSteps(c: LocusCounts, Q: Float64Array, f: Float64Array, N: number, K: number, steps: number): void {
  const G = new Float64Array(c.A * K);
  const D = new Float64Array(K);
  for (let t = 0; t < steps; t++) {
    emSums(c, Q, f, N, K, G);
    emMap(f, G, c.A, K, D, f);
  }
}

/** Scratch space of {@link leaveOneOutShift} for up to maxA alleles. */
export interface ShiftScratch {
  readonly w: Float64Array;
  readonly w2: Float64Array;
  readonly g: Float64Array;
  readonly m: Float64Array;
  readonly first: Float64Array;
  readonly dN: Float64Array;
  readonly d: Float64Array;
  readonly dD: Float64Array;
}

export function shiftScratch(maxA: number, K: number): ShiftScratch {
  return {
    w: new Float64Array(maxA),
    w2: new Float64Array(maxA),
    g: new Float64Array(maxA * K),
    m: new Float64Array(maxA * K),
    first: new Float64Array(maxA * K),
    dN: new Float64Array(maxA * K),
    d: new Float64Array(K),
    dD: new Float64Array(K),
  };
}

/**
 * F⁽⁻ⁱ⁾ − F⁽⁰⁾ at one locus after `steps` EM steps from f (≥ 1), into out (A × K): the first step
 * exactly, M₋ᵢ(f) − M(f); then ε ← first + J₋ᵢ ε with the Jacobian without i at f. ni: i's allele
 * counts here (A), qi: i's row of Q (K).
 */
export function leaveOneOutShift(
  t: LocusEm,
  f: Float64Array,
  qi: Float64Array,
  ni: Float64Array,
  K: number,
  steps: number,
  out: Float64Array,
  s: ShiftScratch,
): void {
  const A = t.A;
  const { w, w2, g, m, first, dN, d, dD } = s;
  // G₋ᵢ = G less i's terms; D₋ᵢ and M₋ᵢ from it.
  g.set(t.G.subarray(0, A * K));
  for (let a = 0; a < A; a++) {
    const n = ni[a]!;
    w[a] = 0;
    w2[a] = 0;
    if (n === 0) continue;
    let p = 0;
    for (let k = 0; k < K; k++) p += qi[k]! * f[a * K + k]!;
    p = Math.max(p, P_FLOOR);
    w[a] = n / p;
    w2[a] = n / (p * p);
    for (let k = 0; k < K; k++) g[a * K + k]! -= w[a]! * qi[k]!;
  }
  emMap(f, g, A, K, d, m);
  for (let a = 0; a < A; a++)
    for (let k = 0; k < K; k++) {
      const x = a * K + k;
      first[x] = d[k]! > 0 ? m[x]! - t.M[x]! : 0;
      out[x] = first[x]!;
    }
  for (let step = 1; step < steps; step++) {
    dD.fill(0, 0, K);
    for (let a = 0; a < A; a++) {
      // H₋ᵢ^a ε_a = H^a ε_a − w2_a q_i (q_i · ε_a).
      let qe = 0;
      for (let k = 0; k < K; k++) qe += qi[k]! * out[a * K + k]!;
      for (let k = 0; k < K; k++) {
        const x = a * K + k;
        let hd = -w2[a]! * qi[k]! * qe;
        for (let k2 = 0; k2 < K; k2++) hd += t.H[x * K + k2]! * out[a * K + k2]!;
        const v = out[x]! * g[x]! - f[x]! * hd;
        dN[x] = v;
        dD[k]! += v;
      }
    }
    for (let a = 0; a < A; a++)
      for (let k = 0; k < K; k++) {
        const x = a * K + k;
        out[x] = first[x]! + (d[k]! > 0 ? (dN[x]! - m[x]! * dD[k]!) / d[k]! : 0);
      }
  }
}
