import { alleleOffsets, locusPloidy, type GenotypeData } from '../data/genotype-data.ts';

/**
 * The model-fit check of Garcia-Erill & Albrechtsen (2020, Mol Ecol Resour 20:936, "evalAdmix"):
 * the correlation, over markers, of two individuals' residuals (observed allele counts minus those
 * the fitted Q and F predict). Near zero everywhere when the admixture model fits; positive within
 * a population when K is too low (or for drift since admixture, a ghost source, relatives);
 * negative between populations that share a source they are not given.
 *
 * The published estimator (evalAdmix, `-nIts 5`), for a pair i < j:
 *   r_i = residuals of i with the fitted F; r'_j = residuals of j with F⁽⁻ⁱ⁾, the frequencies
 *   re-estimated without individual i by `iterations` EM steps from F (Q fixed) — the frequency
 *   correction: F was estimated from i's own genotypes, which biases the correlation downwards;
 *   cor_ij = Pearson correlation of (r_i − r̄_i) and (r'_j − r̄'_j) over the markers both have,
 *   each centred by its mean over its own observed markers.
 * Residual columns: one per biallelic marker (allele 0; its other allele's residual is the negative
 * and would change nothing), one per allele of a multi-allelic marker; ploidy m: r = n_a − m·p_a.
 *
 * Computing F⁽⁻ⁱ⁾ for every i costs N² × markers × K per EM step. Here F⁽⁻ⁱ⁾ − F⁽⁰⁾ (F⁽⁰⁾: the same
 * EM steps on everybody) is linearised: its first step, M₋ᵢ(F) − M(F), is exact and local to the
 * markers i has; later steps apply the EM map's Jacobian at F (per marker, K × K per allele).
 * The residual algebra is then expanded so that the only N² × markers work is one dot product per
 * pair, with missing and partly called genotypes as sparse corrections. One second-order term,
 * Σ (r'_j-centred)·(change of j's prediction), is left out of the denominator (relative size
 * ~1/(N·√markers)). The test compares with a brute-force evalAdmix on small data.
 */

/** evalAdmix's default number of EM steps of the frequency correction (-nIts). */
export const FIT_CHECK_ITERATIONS = 5;
/** Beyond this many individuals the N × N matrix itself (float32) is refused. */
export const FIT_CHECK_MAX_INDIVIDUALS = 12_000;
/** Pair × column work allowed before markers are thinned (evenly along the file). */
export const FIT_CHECK_MAX_WORK = 2e10;
/** Memory for the two residual matrices (float32) before markers are thinned. */
export const FIT_CHECK_MAX_RESIDUAL_BYTES = 512 * 2 ** 20;

export interface FitCheckOptions {
  /** EM steps of the frequency correction; 0: plain residual correlations (biased). */
  readonly iterations?: number;
  /** Called with the fraction of pair work done. */
  readonly onProgress?: (fraction: number) => void;
  /** Override the work bound (tests). */
  readonly maxWork?: number;
}

export interface ResidualCorrelations {
  readonly N: number;
  /** shape (N, N), symmetric; the diagonal is NaN; NaN where a pair shares no marker. */
  readonly matrix: Float32Array;
  /** Markers used (polymorphic; thinned evenly when the data exceed the work bound), of how many. */
  readonly loci: number;
  readonly lociTotal: number;
  readonly columns: number;
  readonly iterations: number;
}

/** What the fit check would cost, and the loci it would use (every s-th polymorphic one). */
export function fitCheckPlan(
  data: GenotypeData,
  maxWork = FIT_CHECK_MAX_WORK,
): { loci: number[]; columns: number; stride: number } {
  const N = data.individuals.length;
  if (N > FIT_CHECK_MAX_INDIVIDUALS)
    throw new RangeError(
      `the fit check of ${N.toLocaleString('en')} individuals needs a ${N.toLocaleString('en')} × ${N.toLocaleString('en')} matrix (${((N * N * 4) / 2 ** 30).toFixed(1)} GiB); it takes at most ${FIT_CHECK_MAX_INDIVIDUALS.toLocaleString('en')} individuals`,
    );
  const poly: number[] = [];
  let columns = 0;
  for (let l = 0; l < data.loci.length; l++) {
    const A = data.loci[l]!.alleles.length;
    if (A < 2) continue;
    poly.push(l);
    columns += A === 2 ? 1 : A;
  }
  const pairWork = (N * (N - 1)) / 2;
  const byWork = pairWork > 0 ? maxWork / pairWork : Infinity;
  const byBytes = FIT_CHECK_MAX_RESIDUAL_BYTES / (8 * Math.max(1, N));
  const allowed = Math.max(1, Math.min(byWork, byBytes));
  const stride = Math.max(1, Math.ceil(columns / allowed));
  const loci = stride === 1 ? poly : poly.filter((_, n) => n % stride === 0);
  let used = 0;
  for (const l of loci) used += data.loci[l]!.alleles.length === 2 ? 1 : data.loci[l]!.alleles.length;
  return { loci, columns: used, stride };
}

/** Per-locus state: the EM map at the fitted F (for the linearised correction). */
interface LocusTerms {
  readonly A: number;
  /** G[a·K + k] = Σ_i n_ia q_ik / p_ia. */
  readonly G: Float64Array;
  /** H[(a·K + k)·K + k'] = Σ_i n_ia q_ik q_ik' / p_ia². */
  readonly H: Float64Array;
  /** D[k] = Σ_a f_ak G_ak; M = f·G / D (the EM map at F). */
  readonly D: Float64Array;
  readonly M: Float64Array;
}

const P_FLOOR = 1e-12;

/**
 * The residual correlation matrix of a fit: Q shape (N, K), F shape (Σ alleles, K) as the models
 * store them (rows per locus and allele).
 */
export function residualCorrelations(
  data: GenotypeData,
  Q: Float64Array,
  F: Float64Array,
  K: number,
  options: FitCheckOptions = {},
): ResidualCorrelations {
  const iterations = options.iterations ?? FIT_CHECK_ITERATIONS;
  if (!Number.isInteger(iterations) || iterations < 0 || iterations > 100)
    throw new RangeError(`fit-check EM steps: a whole number from 0 to 100, got ${iterations}`);
  const N = data.individuals.length;
  if (Q.length !== N * K) throw new RangeError(`Q has ${Q.length} entries, not N × K = ${N * K}`);
  const offsets = alleleOffsets(data);
  if (F.length !== offsets[data.loci.length]! * K)
    throw new RangeError(`F has ${F.length} entries, not (alleles × K) = ${offsets[data.loci.length]! * K}`);
  const plan = fitCheckPlan(data, options.maxWork);
  const C = plan.columns;
  const P = data.ploidy;
  const calls = data.calls;

  // Column layout and per-locus state.
  const lociUsed = plan.loci;
  const colStart = new Int32Array(lociUsed.length + 1);
  lociUsed.forEach((l, u) => {
    const A = data.loci[l]!.alleles.length;
    colStart[u + 1] = colStart[u]! + (A === 2 ? 1 : A);
  });
  const terms: LocusTerms[] = [];
  /** d: i's centred residuals with F; d0: j's with F⁽⁰⁾ (both 0 where missing). */
  const d = new Float32Array(N * C);
  const d0 = new Float32Array(N * C);
  const copies = new Uint8Array(N * lociUsed.length);
  const sum = new Float64Array(N);
  const sum0 = new Float64Array(N);
  const observedCols = new Int32Array(N);

  const maxA = lociUsed.reduce((m, l) => Math.max(m, data.loci[l]!.alleles.length), 2);
  const counts = new Uint8Array(N * maxA);
  const f0 = new Float64Array(maxA * K);
  const g = new Float64Array(maxA * K);
  const pr = new Float64Array(maxA);

  lociUsed.forEach((l, u) => {
    const A = data.loci[l]!.alleles.length;
    const Pl = locusPloidy(data, l);
    counts.fill(0, 0, N * A);
    for (let i = 0; i < N; i++) {
      const base = (l * N + i) * P;
      let m = 0;
      for (let c = 0; c < Pl; c++) {
        const a = calls[base + c]!;
        if (a >= 0) {
          counts[i * A + a]!++;
          m++;
        }
      }
      copies[i * lociUsed.length + u] = m;
    }
    const fl = F.subarray(offsets[l]! * K, (offsets[l]! + A) * K);
    // EM map terms at F (Jacobian pieces), then F⁽⁰⁾ by `iterations` full EM steps.
    const G = new Float64Array(A * K);
    const H = new Float64Array(A * K * K);
    emSums(counts, copies, u, lociUsed.length, Q, fl, N, A, K, G, H);
    const D = new Float64Array(K);
    const M = new Float64Array(A * K);
    emMap(fl, G, A, K, D, M);
    terms.push({ A, G, H, D, M });
    f0.set(fl);
    for (let t = 0; t < iterations; t++) {
      emSums(counts, copies, u, lociUsed.length, Q, f0, N, A, K, g, undefined);
      const Dt = new Float64Array(K);
      emMap(f0.subarray(0, A * K), g, A, K, Dt, f0);
    }
    // Raw residuals (centred below, once every locus is in).
    const cols = A === 2 ? 1 : A;
    const c0 = colStart[u]!;
    for (let i = 0; i < N; i++) {
      const m = copies[i * lociUsed.length + u]!;
      if (m === 0) continue;
      observedCols[i]! += cols;
      for (let a = 0; a < cols; a++) {
        let p = 0;
        let p0 = 0;
        for (let k = 0; k < K; k++) {
          p += Q[i * K + k]! * fl[a * K + k]!;
          p0 += Q[i * K + k]! * f0[a * K + k]!;
        }
        const r = counts[i * A + a]! - m * p;
        const r0 = counts[i * A + a]! - m * p0;
        d[i * C + c0 + a] = r;
        d0[i * C + c0 + a] = r0;
        sum[i]! += r;
        sum0[i]! += r0;
      }
    }
  });

  // Centre; per-individual totals; lists of partly called and missing loci.
  const mean0 = new Float64Array(N);
  const total = new Float64Array(N);
  const total2 = new Float64Array(N);
  const total0 = new Float64Array(N);
  const total02 = new Float64Array(N);
  const partial: number[][] = Array.from({ length: N }, () => []);
  const missing: number[][] = Array.from({ length: N }, () => []);
  for (let i = 0; i < N; i++) {
    const n = observedCols[i]!;
    const mean = n > 0 ? sum[i]! / n : 0;
    mean0[i] = n > 0 ? sum0[i]! / n : 0;
    for (let u = 0; u < lociUsed.length; u++) {
      const m = copies[i * lociUsed.length + u]!;
      if (m < locusPloidy(data, lociUsed[u]!)) partial[i]!.push(u);
      if (m === 0) {
        missing[i]!.push(u);
        continue;
      }
      for (let s = colStart[u]!; s < colStart[u + 1]!; s++) {
        const x = d[i * C + s]! - mean;
        const x0 = d0[i * C + s]! - mean0[i]!;
        d[i * C + s] = x;
        d0[i * C + s] = x0;
        total[i]! += d[i * C + s]!;
        total2[i]! += d[i * C + s]! ** 2;
        total0[i]! += d0[i * C + s]!;
        total02[i]! += d0[i * C + s]! ** 2;
      }
    }
  }

  const matrix = new Float32Array(N * N).fill(NaN);
  const delta = new Float64Array(C * K); // δ̃ of the current i, per column
  const step = new Float64Array(maxA * K);
  const next = new Float64Array(maxA * K);
  const nMinus = new Float64Array(maxA * K);
  const dMinus = new Float64Array(K);
  const dScratch = new Float64Array(K);
  const mMinus = new Float64Array(maxA * K);
  const gMinus = new Float64Array(maxA * K);
  const hMinus = new Float64Array(maxA * K * K);
  const c = new Float64Array(K);
  const a = new Float64Array(K);
  const B = new Float64Array(K * K);
  const pairs = (N * (N - 1)) / 2;
  let pairsDone = 0;
  let reported = 0;

  for (let i = 0; i < N; i++) {
    // δ̃⁽ⁱ⁾: F⁽⁻ⁱ⁾ − F⁽⁰⁾ after `iterations` steps, linearised; zero where i is missing.
    delta.fill(0);
    c.fill(0);
    a.fill(0);
    B.fill(0);
    if (iterations > 0)
      lociUsed.forEach((l, u) => {
        const m = copies[i * lociUsed.length + u]!;
        if (m === 0) return;
        const t = terms[u]!;
        const A = t.A;
        const fl = F.subarray(offsets[l]! * K, (offsets[l]! + A) * K);
        const base = (l * N + i) * P;
        const Pl = locusPloidy(data, l);
        // i's allele counts here.
        pr.fill(0, 0, A);
        for (let cc = 0; cc < Pl; cc++) {
          const x = calls[base + cc]!;
          if (x >= 0) pr[x]!++;
        }
        // The EM map without i at F: its sums less i's terms (G₋ᵢ, H₋ᵢ, D₋ᵢ, M₋ᵢ).
        gMinus.set(t.G);
        hMinus.set(t.H);
        for (let al = 0; al < A; al++) {
          const n = pr[al]!;
          if (n === 0) continue;
          let p = 0;
          for (let k = 0; k < K; k++) p += Q[i * K + k]! * fl[al * K + k]!;
          p = Math.max(p, P_FLOOR);
          const w = n / p;
          for (let k = 0; k < K; k++) {
            const qk = Q[i * K + k]!;
            gMinus[al * K + k]! -= w * qk;
            for (let k2 = 0; k2 < K; k2++) hMinus[(al * K + k) * K + k2]! -= (w / p) * qk * Q[i * K + k2]!;
          }
        }
        emMap(fl, gMinus, A, K, dMinus, mMinus);
        // First step exact: M₋ᵢ(F) − M(F); then ε ← first + J₋ᵢ·ε.
        for (let x = 0; x < A * K; x++) step[x] = dMinus[x % K]! > 0 ? mMinus[x]! - t.M[x]! : 0;
        next.set(step.subarray(0, A * K));
        const without = { A, G: gMinus, H: hMinus, D: dMinus, M: mMinus };
        for (let it = 1; it < iterations; it++) jacobianStep(without, fl, next, step, A, K, nMinus, dScratch);
        const cols = A === 2 ? 1 : A;
        const s0 = colStart[u]!;
        for (let al = 0; al < cols; al++) {
          const s = s0 + al;
          const dis = d[i * C + s]!;
          for (let k = 0; k < K; k++) {
            const v = next[al * K + k]!;
            delta[s * K + k] = v;
            c[k]! += dis * Pl * v;
            a[k]! += Pl * v;
            for (let k2 = 0; k2 < K; k2++) B[k * K + k2]! += Pl * Pl * v * next[al * K + k2]!;
          }
        }
      });

    const rowI = i * C;
    for (let j = i + 1; j < N; j++) {
      const rowJ = j * C;
      // Σ_S d_i d0_j: the one N² × columns term (zeros stand for missing).
      let g0 = 0;
      let g1 = 0;
      let g2 = 0;
      let g3 = 0;
      let s = 0;
      for (; s + 3 < C; s += 4) {
        g0 += d[rowI + s]! * d0[rowJ + s]!;
        g1 += d[rowI + s + 1]! * d0[rowJ + s + 1]!;
        g2 += d[rowI + s + 2]! * d0[rowJ + s + 2]!;
        g3 += d[rowI + s + 3]! * d0[rowJ + s + 3]!;
      }
      for (; s < C; s++) g0 += d[rowI + s]! * d0[rowJ + s]!;
      const dot = g0 + g1 + g2 + g3;

      let sdI = total[i]!;
      let sdI2 = total2[i]!;
      let nS = observedCols[i]!;
      let sd0 = total0[j]!;
      let sd02 = total02[j]!;
      // The change of j's prediction, e_js = m_js q_j·δ̃_s, summed as if j had every copy …
      let sde = 0;
      let se = 0;
      let se2 = 0;
      for (let k = 0; k < K; k++) {
        const q = Q[j * K + k]!;
        sde += q * c[k]!;
        se += q * a[k]!;
        let row = 0;
        for (let k2 = 0; k2 < K; k2++) row += B[k * K + k2]! * Q[j * K + k2]!;
        se2 += q * row;
      }
      // … then corrected where j has fewer copies (or none).
      for (const u of partial[j]!) {
        const l = lociUsed[u]!;
        const Pl = locusPloidy(data, l);
        const m = copies[j * lociUsed.length + u]!;
        const iObserved = copies[i * lociUsed.length + u]! > 0;
        for (let x = colStart[u]!; x < colStart[u + 1]!; x++) {
          const dis = d[rowI + x]!;
          if (iterations > 0 && iObserved) {
            let qd = 0;
            for (let k = 0; k < K; k++) qd += Q[j * K + k]! * delta[x * K + k]!;
            sde += dis * (m - Pl) * qd;
            se += (m - Pl) * qd;
            se2 += (m * m - Pl * Pl) * qd * qd;
          }
          if (m === 0) {
            sdI -= dis;
            sdI2 -= dis * dis;
            if (iObserved) nS--;
          }
        }
      }
      for (const u of missing[i]!)
        for (let x = colStart[u]!; x < colStart[u + 1]!; x++) {
          const v = d0[rowJ + x]!;
          sd0 -= v;
          sd02 -= v * v;
        }
      const nj = observedCols[j]!;
      const eBar = nj > 0 ? se / nj : 0;
      const num = dot - sde + eBar * sdI;
      const den2 = sd02 + 2 * eBar * sd0 + se2 - 2 * eBar * se + nS * eBar * eBar;
      const den = Math.sqrt(sdI2 * den2);
      const r = nS > 0 && den > 0 ? num / den : NaN;
      matrix[i * N + j] = r;
      matrix[j * N + i] = r;
    }
    pairsDone += N - 1 - i;
    if (options.onProgress && pairsDone - reported >= pairs / 100) {
      reported = pairsDone;
      options.onProgress(pairsDone / pairs);
    }
  }
  options.onProgress?.(1);
  return {
    N,
    matrix,
    loci: lociUsed.length,
    lociTotal: data.loci.length,
    columns: C,
    iterations,
  };
}

/**
 * EM sums of one locus at frequencies f (A × K): G[a,k] = Σ_i n_ia q_ik / p_ia and, when asked,
 * H[a,k,k'] = Σ_i n_ia q_ik q_ik' / p_ia².
 */
function emSums(
  counts: Uint8Array,
  copies: Uint8Array,
  u: number,
  stride: number,
  Q: Float64Array,
  f: Float64Array,
  N: number,
  A: number,
  K: number,
  G: Float64Array,
  H: Float64Array | undefined,
): void {
  G.fill(0, 0, A * K);
  H?.fill(0);
  for (let i = 0; i < N; i++) {
    if (copies[i * stride + u] === 0) continue;
    for (let a = 0; a < A; a++) {
      const n = counts[i * A + a]!;
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

/** The EM map of one locus: D[k] = Σ_a f_ak G_ak, out = f·G / D (f where D = 0). */
function emMap(f: Float64Array, G: Float64Array, A: number, K: number, D: Float64Array, out: Float64Array): void {
  D.fill(0);
  for (let a = 0; a < A; a++) for (let k = 0; k < K; k++) D[k]! += f[a * K + k]! * G[a * K + k]!;
  for (let a = 0; a < A; a++)
    for (let k = 0; k < K; k++) {
      const x = a * K + k;
      out[x] = D[k]! > 0 ? (f[x]! * G[x]!) / D[k]! : f[x]!;
    }
}

/** next ← first + J·next, J the EM map's Jacobian at f (terms t). Scratch: dN (A × K), dD (K). */
function jacobianStep(
  t: LocusTerms,
  f: Float64Array,
  next: Float64Array,
  first: Float64Array,
  A: number,
  K: number,
  dN: Float64Array,
  dD: Float64Array,
): void {
  dD.fill(0);
  for (let a = 0; a < A; a++)
    for (let k = 0; k < K; k++) {
      const x = a * K + k;
      let hd = 0;
      for (let k2 = 0; k2 < K; k2++) hd += t.H[x * K + k2]! * next[a * K + k2]!;
      const v = next[x]! * t.G[x]! - f[x]! * hd;
      dN[x] = v;
      dD[k]! += v;
    }
  for (let a = 0; a < A; a++)
    for (let k = 0; k < K; k++) {
      const x = a * K + k;
      next[x] = first[x]! + (t.D[k]! > 0 ? (dN[x]! - t.M[x]! * dD[k]!) / t.D[k]! : 0);
    }
}

/** Per-population means of a residual correlation matrix: groups (N,) index populations 0..G-1 or -1. */
export function populationMeanCorrelations(
  matrix: Float32Array,
  N: number,
  groups: Int32Array,
  G: number,
): { means: Float64Array; pairs: Int32Array } {
  const sums = new Float64Array(G * G);
  const pairs = new Int32Array(G * G);
  for (let i = 0; i < N; i++) {
    const gi = groups[i]!;
    if (gi < 0) continue;
    for (let j = 0; j < N; j++) {
      const gj = groups[j]!;
      const v = matrix[i * N + j]!;
      if (j === i || gj < 0 || Number.isNaN(v)) continue;
      sums[gi * G + gj]! += v;
      pairs[gi * G + gj]!++;
    }
  }
  const means = new Float64Array(G * G);
  for (let x = 0; x < G * G; x++) means[x] = pairs[x]! > 0 ? sums[x]! / pairs[x]! : NaN;
  return { means, pairs };
}
