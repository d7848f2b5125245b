import gammainc from '@stdlib/math-base-special-gammainc';
import chisquareQuantile from '@stdlib/stats-base-dists-chisquare-quantile';
import { MISSING } from '../data/genotype-data.ts';
import { locusRow, type PreparedData } from '../model/prepared/prepared-data.ts';
import type { MixtureModel } from '../model/mixture/mixture-model.ts';
import { mutualInformationWithCluster } from './mutual-information.ts';
import { detExp, detLog } from '../util/det-math.ts';

// Two-step selection of section 8.2.1 with Stratify's reading of Figure 8.1: docs/algorithms.md §10.

/** One marker in the ranking. */
export interface RankedMarker {
  readonly locus: number;
  /** I(X_i; C) under the model (nats). */
  readonly mi: number;
  /** 2·n_i·I(X_i; C), n_i = allele copies observed at the locus. */
  readonly statistic: number;
  readonly df: number;
  /** p-value of the statistic against χ²(df). */
  readonly p: number;
  readonly relevant: boolean;
  readonly selected: boolean;
  /** For a relevant marker not selected: the last panel marker when it was judged redundant. */
  readonly redundantGiven?: number;
}

export interface Selection {
  /** Markers by decreasing I(X_i; C) (ties by locus index). */
  readonly ranking: readonly RankedMarker[];
  /** Selected loci in ranking order. */
  readonly panel: readonly number[];
}

/** Observed alleles (with a nonzero count) and observed copies per locus. */
function observed(data: PreparedData): { alleles: Int32Array; copies: Float64Array } {
  const { N, P, genotypeOffsets, genotypeAlleles } = data;
  const scratch = new Int32Array(N);
  const alleles = new Int32Array(data.L);
  const copies = new Float64Array(data.L);
  for (let i = 0; i < data.L; i++) {
    const seen = new Uint8Array(data.alleles[i]!);
    const g0 = genotypeOffsets[i]!;
    const present = new Uint8Array(genotypeOffsets[i + 1]! - g0);
    const genotypeOf = locusRow(data, i, scratch);
    for (let d = 0; d < N; d++) {
      const g = genotypeOf[d]!;
      present[g] = 1;
      for (let p = 0; p < P; p++) if (genotypeAlleles[(g0 + g) * P + p]! !== MISSING) copies[i]!++;
    }
    for (let g = 0; g < present.length; g++) {
      if (!present[g]) continue;
      for (let p = 0; p < P; p++) {
        const a = genotypeAlleles[(g0 + g) * P + p]!;
        if (a !== MISSING) seen[a] = 1;
      }
    }
    alleles[i] = seen.reduce((s, x) => s + x, 0);
  }
  return { alleles, copies };
}

/**
 * Two-step marker selection (Figure 8.1, with the reading settled in docs/marker-selection.md).
 *
 * Step 1 (relevance): keep X_i when 2·n_i·I(X_i; C) ≥ χ²_{1−p_rel} with (r_i − 1)(r_C − 1)
 * degrees of freedom, r_i the observed alleles, n_i the observed allele copies.
 *
 * Step 2 (redundancy): visit the relevant markers by decreasing I(X_i; C) (ties: lower index)
 * and add X_i to the panel unless it is redundant given the panel so far: it must lower the
 * uncertainty about C that remains once the panel is known,
 *   Δ_i = H(C | X_panel) − H(C | X_panel, X_i),
 * estimated over the individuals with the model's posteriors, by a significant amount,
 * 2·m_i·Δ_i ≥ χ²_{1−p_red} with (r_i − 1)(r_C − 1) degrees of freedom (m_i individuals typed at
 * X_i). Smaller p_red judges more markers redundant (as the text says); p_red = 0 keeps one.
 */
export function selectMarkers(data: PreparedData, model: MixtureModel, pRel: number, pRed: number): Selection {
  if (!(pRel >= 0 && pRel <= 1) || !(pRed >= 0 && pRed <= 1))
    throw new RangeError(`selectMarkers: p_rel and p_red must lie in [0, 1], got ${pRel} and ${pRed}`);
  const K = model.K;
  const { N, P } = data;
  const mi = mutualInformationWithCluster(data, model);
  const { alleles, copies } = observed(data);
  const rows = Array.from({ length: data.L }, (_, i) => {
    const df = Math.max(1, (alleles[i]! - 1) * (K - 1));
    const statistic = 2 * copies[i]! * mi[i]!;
    const informative = alleles[i]! > 1 && K > 1;
    // Upper tail of χ²(df) as the regularised upper incomplete gamma Q(df/2, x/2): accurate far
    // below the 1e-16 that 1 − CDF can resolve.
    const p = informative ? gammainc(statistic / 2, df / 2, true, true) : 1;
    return {
      locus: i,
      mi: mi[i]!,
      statistic,
      df,
      p,
      relevant: informative && statistic >= chisquareQuantile(1 - pRel, df),
    };
  });
  rows.sort((a, b) => b.mi - a.mi || a.locus - b.locus);
  // Log-posterior of each individual given the panel so far: starts at ln θ_C.
  const logPost = new Float64Array(N * K);
  for (let d = 0; d < N; d++) for (let c = 0; c < K; c++) logPost[d * K + c] = detLog(model.weights[c]!);
  const entropy = new Float64Array(N);
  for (let d = 0; d < N; d++) entropy[d] = rowEntropy(logPost, d * K, K);
  const panel: number[] = [];
  const redundantGiven = new Map<number, number>();
  const candidate = new Float64Array(N * K);
  const scratch = new Int32Array(N);
  for (const row of rows) {
    if (!row.relevant) continue;
    const i = row.locus;
    const codes = locusRow(data, i, scratch);
    const off = data.offsets[i]!;
    let gain = 0;
    let typed = 0;
    for (let d = 0; d < N; d++) {
      let any = false;
      for (let c = 0; c < K; c++) candidate[d * K + c] = logPost[d * K + c]!;
      // The genotype's copies (sorted, missing first).
      const copiesAt = (data.genotypeOffsets[i]! + codes[d]!) * P;
      for (let p = 0; p < P; p++) {
        const a = data.genotypeAlleles[copiesAt + p]!;
        if (a === MISSING) continue;
        any = true;
        for (let c = 0; c < K; c++) candidate[d * K + c]! += detLog(model.theta[(off + a) * K + c]!);
      }
      if (!any) continue;
      typed++;
      gain += entropy[d]! - rowEntropy(candidate, d * K, K);
    }
    const delta = typed > 0 ? gain / typed : 0;
    const df = Math.max(1, (alleles[i]! - 1) * (K - 1));
    if (panel.length === 0 || 2 * typed * delta >= chisquareQuantile(1 - pRed, df)) {
      panel.push(i);
      logPost.set(candidate);
      for (let d = 0; d < N; d++) entropy[d] = rowEntropy(logPost, d * K, K);
    } else redundantGiven.set(i, panel[panel.length - 1]!);
  }
  const selected = new Set(panel);
  return {
    ranking: rows.map((r) => ({
      ...r,
      selected: selected.has(r.locus),
      ...(redundantGiven.has(r.locus) ? { redundantGiven: redundantGiven.get(r.locus)! } : {}),
    })),
    panel,
  };
}

/** Entropy (nats) of the distribution given by the log-weights row[o .. o + K). */
function rowEntropy(logs: Float64Array, o: number, K: number): number {
  let max = -Infinity;
  for (let c = 0; c < K; c++) max = Math.max(max, logs[o + c]!);
  let z = 0;
  for (let c = 0; c < K; c++) z += detExp(logs[o + c]! - max);
  let h = 0;
  for (let c = 0; c < K; c++) {
    const p = detExp(logs[o + c]! - max) / z;
    if (p > 0) h -= p * detLog(p);
  }
  return h;
}

/** Panel size for every (p_rel, p_red) pair of a grid (Figure 8.4). */
export function panelSweep(
  data: PreparedData,
  model: MixtureModel,
  pRels: readonly number[],
  pReds: readonly number[],
): { pRel: number; pRed: number; size: number }[] {
  const out: { pRel: number; pRed: number; size: number }[] = [];
  for (const pRel of pRels)
    for (const pRed of pReds) out.push({ pRel, pRed, size: selectMarkers(data, model, pRel, pRed).panel.length });
  return out;
}

/** The grid of section 8.5.2. */
export const PANEL_GRID = {
  pRel: [0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
  pRed: [0, 0.01, 0.05, 0.1],
} as const;
