import { alleleOffsets, locusPloidy, type GenotypeData } from '../data/genotype-data.ts';
import { emSteps, leaveOneOutShift, locusEm, shiftScratch, type LocusCounts, type LocusEm } from './fit-check-em.ts';
import { residualRows } from './pair-dots.ts';

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
  /** false: the JavaScript dot products even where WebAssembly runs (tests). */
  readonly wasm?: boolean;
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

/** Residual columns of a locus with A alleles: one for two alleles, one per allele otherwise. */
const columnsOf = (A: number): number => (A === 2 ? 1 : A);

/** What the fit check would cost, and the loci it would use (every s-th polymorphic one). */
export function fitCheckPlan(data: GenotypeData, maxWork = FIT_CHECK_MAX_WORK): { loci: number[]; columns: number } {
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
    columns += columnsOf(A);
  }
  const pairWork = (N * (N - 1)) / 2;
  const byWork = pairWork > 0 ? maxWork / pairWork : Infinity;
  const byBytes = FIT_CHECK_MAX_RESIDUAL_BYTES / (8 * Math.max(1, N));
  const allowed = Math.max(1, Math.min(byWork, byBytes));
  const stride = Math.max(1, Math.ceil(columns / allowed));
  const loci = stride === 1 ? poly : poly.filter((_, n) => n % stride === 0);
  let used = 0;
  for (const l of loci) used += columnsOf(data.loci[l]!.alleles.length);
  return { loci, columns: used };
}

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
  const lociUsed = plan.loci;
  const U = lociUsed.length;
  const ploidyOf = Int32Array.from(lociUsed, (l) => locusPloidy(data, l));
  const colStart = new Int32Array(U + 1);
  lociUsed.forEach((l, u) => (colStart[u + 1] = colStart[u]! + columnsOf(data.loci[l]!.alleles.length)));
  const progress = options.onProgress;

  // Residuals: d with F (i's side), d0 with F⁽⁰⁾ (j's side), 0 where missing; centred below.
  const rows = residualRows(N, C, options.wasm ?? true);
  const W = rows.stride;
  const { d, d0 } = rows;
  const terms: LocusEm[] = [];
  const copies = new Uint8Array(N * U);
  const sum = new Float64Array(N);
  const sum0 = new Float64Array(N);
  const observedCols = new Int32Array(N);
  const maxA = lociUsed.reduce((m, l) => Math.max(m, data.loci[l]!.alleles.length), 2);
  const counts = new Uint8Array(N * maxA);
  const called = new Uint8Array(N);
  const f0 = new Float64Array(maxA * K);
  lociUsed.forEach((l, u) => {
    const A = data.loci[l]!.alleles.length;
    const Pl = ploidyOf[u]!;
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
      called[i] = m;
      copies[i * U + u] = m;
    }
    const lc: LocusCounts = { A, counts, copies: called };
    const fl = F.subarray(offsets[l]! * K, (offsets[l]! + A) * K);
    terms.push(locusEm(lc, Q, fl, N, K));
    const f0l = f0.subarray(0, A * K);
    f0l.set(fl);
    emSteps(lc, Q, f0l, N, K, iterations);
    const cols = colStart[u + 1]! - colStart[u]!;
    const c0 = colStart[u]!;
    for (let i = 0; i < N; i++) {
      const m = called[i]!;
      if (m === 0) continue;
      observedCols[i]! += cols;
      for (let a = 0; a < cols; a++) {
        let p = 0;
        let p0 = 0;
        for (let k = 0; k < K; k++) {
          p += Q[i * K + k]! * fl[a * K + k]!;
          p0 += Q[i * K + k]! * f0l[a * K + k]!;
        }
        const r = counts[i * A + a]! - m * p;
        const r0 = counts[i * A + a]! - m * p0;
        d[i * W + c0 + a] = r;
        d0[i * W + c0 + a] = r0;
        sum[i]! += r;
        sum0[i]! += r0;
      }
    }
  });

  // Centre; per-individual totals (of the stored float32 values); partly called and missing loci.
  const total = new Float64Array(N);
  const total2 = new Float64Array(N);
  const total0 = new Float64Array(N);
  const total02 = new Float64Array(N);
  const partial: number[][] = Array.from({ length: N }, () => []);
  const missing: number[][] = Array.from({ length: N }, () => []);
  for (let i = 0; i < N; i++) {
    const n = observedCols[i]!;
    const mean = n > 0 ? sum[i]! / n : 0;
    const mean0 = n > 0 ? sum0[i]! / n : 0;
    for (let u = 0; u < U; u++) {
      const m = copies[i * U + u]!;
      if (m < ploidyOf[u]!) partial[i]!.push(u);
      if (m === 0) {
        missing[i]!.push(u);
        continue;
      }
      for (let x = i * W + colStart[u]!; x < i * W + colStart[u + 1]!; x++) {
        d[x] = d[x]! - mean;
        d0[x] = d0[x]! - mean0;
        total[i]! += d[x]!;
        total2[i]! += d[x]! * d[x]!;
        total0[i]! += d0[x]!;
        total02[i]! += d0[x]! * d0[x]!;
      }
    }
  }

  // Σ_s d_i d0_j for every pair i < j, into the upper triangle (the N² × columns work).
  const matrix = new Float32Array(N * N);
  const pairs = (N * (N - 1)) / 2;
  const DOTS_SHARE = 0.85;
  rows.dots(matrix, (done) => progress?.((DOTS_SHARE * done) / Math.max(1, pairs)));

  // Multi-allelic loci are corrected a locus at a time (sums over its columns), two-allele loci a column.
  const multi = maxA > 2;
  /** Per (j, locus): Σ d0_j and Σ d0_j² over the locus's columns (multi-allelic data). */
  const loc0 = multi ? new Float64Array(N * U) : undefined;
  const loc02 = multi ? new Float64Array(N * U) : undefined;
  if (loc0 && loc02)
    for (let j = 0; j < N; j++)
      for (let u = 0; u < U; u++)
        for (let x = j * W + colStart[u]!; x < j * W + colStart[u + 1]!; x++) {
          loc0[j * U + u]! += d0[x]!;
          loc02[j * U + u]! += d0[x]! * d0[x]!;
        }
  // Per locus, for the current i: Σ d_i, Σ d_i², columns, Σ d_i δ̃_k, Σ δ̃_k, Σ δ̃_k δ̃_k' (δ̃⁽ⁱ⁾ =
  // F⁽⁻ⁱ⁾ − F⁽⁰⁾ summed over the locus's columns; a two-allele locus has one, so its Σ δ̃ is δ̃).
  const locD = new Float64Array(U);
  const locD2 = new Float64Array(U);
  const locN = new Int32Array(U);
  const locDd = new Float64Array(U * K);
  const locDl = new Float64Array(U * K);
  const locDD = multi ? new Float64Array(U * K * K) : undefined;
  const shift = new Float64Array(maxA * K);
  const ni = new Float64Array(maxA);
  const scratch = shiftScratch(maxA, K);
  const c = new Float64Array(K);
  const a = new Float64Array(K);
  const B = new Float64Array(K * K);
  let pairsDone = 0;
  let reported = 0;
  for (let i = 0; i < N; i++) {
    const qi = Q.subarray(i * K, (i + 1) * K);
    // δ̃⁽ⁱ⁾ = F⁽⁻ⁱ⁾ − F⁽⁰⁾ (zero where i is missing) and the sums over columns the pairs need:
    // c_k = Σ_s d_is P_s δ̃_sk, a_k = Σ_s P_s δ̃_sk, B = Σ_s P_s² δ̃_s δ̃_sᵀ (P_s the locus's ploidy).
    c.fill(0);
    a.fill(0);
    B.fill(0);
    locDd.fill(0);
    locDl.fill(0);
    locDD?.fill(0);
    for (let u = 0; u < U; u++) {
      locD[u] = 0;
      locD2[u] = 0;
      locN[u] = 0;
      if (copies[i * U + u] === 0) continue;
      const l = lociUsed[u]!;
      const A = data.loci[l]!.alleles.length;
      const Pl = ploidyOf[u]!;
      const cols = colStart[u + 1]! - colStart[u]!;
      locN[u] = cols;
      for (let x = i * W + colStart[u]!; x < i * W + colStart[u + 1]!; x++) {
        locD[u]! += d[x]!;
        locD2[u]! += d[x]! * d[x]!;
      }
      if (iterations === 0) continue;
      ni.fill(0, 0, A);
      const base = (l * N + i) * P;
      for (let cc = 0; cc < Pl; cc++) {
        const x = calls[base + cc]!;
        if (x >= 0) ni[x]!++;
      }
      const fl = F.subarray(offsets[l]! * K, (offsets[l]! + A) * K);
      leaveOneOutShift(terms[u]!, fl, qi, ni, K, iterations, shift, scratch);
      for (let al = 0; al < cols; al++) {
        const s = colStart[u]! + al;
        const dis = d[i * W + s]!;
        for (let k = 0; k < K; k++) {
          const v = shift[al * K + k]!;
          locDd[u * K + k]! += dis * v;
          locDl[u * K + k]! += v;
          c[k]! += dis * Pl * v;
          a[k]! += Pl * v;
          for (let k2 = 0; k2 < K; k2++) {
            const vv = v * shift[al * K + k2]!;
            B[k * K + k2]! += Pl * Pl * vv;
            if (locDD) locDD[(u * K + k) * K + k2]! += vv;
          }
        }
      }
    }

    for (let j = i + 1; j < N; j++) {
      const rowJ = j * W;
      // Sums over the markers both have (S): i's side and j's as if S were all of theirs …
      let sdI = total[i]!;
      let sdI2 = total2[i]!;
      let nS = observedCols[i]!;
      let sd0 = total0[j]!;
      let sd02 = total02[j]!;
      // … and the change of j's prediction, e_js = m_js q_j·δ̃_s, as if j had every copy …
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
      // … corrected where j has fewer copies (or none) and i has the locus …
      for (const u of partial[j]!) {
        if (locN[u] === 0) continue;
        const Pl = ploidyOf[u]!;
        const m = copies[j * U + u]!;
        if (iterations > 0) {
          let qdd = 0;
          let qdl = 0;
          let qq = 0;
          for (let k = 0; k < K; k++) {
            const q = Q[j * K + k]!;
            qdd += q * locDd[u * K + k]!;
            qdl += q * locDl[u * K + k]!;
            if (locDD) {
              let row = 0;
              for (let k2 = 0; k2 < K; k2++) row += locDD[(u * K + k) * K + k2]! * Q[j * K + k2]!;
              qq += q * row;
            }
          }
          // One column: Σ_x (q·δ̃_x)² is (q·δ̃)².
          if (!locDD) qq = qdl * qdl;
          sde += (m - Pl) * qdd;
          se += (m - Pl) * qdl;
          se2 += (m * m - Pl * Pl) * qq;
        }
        if (m === 0) {
          sdI -= locD[u]!;
          sdI2 -= locD2[u]!;
          nS -= locN[u]!;
        }
      }
      // … and where i has none.
      for (const u of missing[i]!) {
        if (loc0 && loc02) {
          sd0 -= loc0[j * U + u]!;
          sd02 -= loc02[j * U + u]!;
        } else {
          const v = d0[rowJ + colStart[u]!]!;
          sd0 -= v;
          sd02 -= v * v;
        }
      }
      // r'_j − r̄'_j = d0_j − (e_j − ē_j), ē_j = Σ_{j's markers} e_j / (j's columns).
      const nj = observedCols[j]!;
      const eBar = nj > 0 ? se / nj : 0;
      const num = matrix[i * N + j]! - sde + eBar * sdI;
      const den2 = sd02 + 2 * eBar * sd0 + se2 - 2 * eBar * se + nS * eBar * eBar;
      const den = Math.sqrt(sdI2 * den2);
      const r = nS > 0 && den > 0 ? num / den : NaN;
      matrix[i * N + j] = r;
      matrix[j * N + i] = r;
    }
    matrix[i * N + i] = NaN;
    pairsDone += N - 1 - i;
    if (progress && pairsDone - reported >= pairs / 100) {
      reported = pairsDone;
      progress(DOTS_SHARE + ((1 - DOTS_SHARE) * pairsDone) / pairs);
    }
  }
  progress?.(1);
  return { N, matrix, loci: U, lociTotal: data.loci.length, columns: C, iterations };
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
