import { CLUSTER_DEFAULTS as D, type TanOrder } from '../../util/choices.ts';
import { MISSING, type GenotypeData } from '../../data/genotype-data.ts';
import { createRng } from '../../util/rng.ts';
import { genotypeStates } from '../../data/genotype-states.ts';
import { genomeOrder } from '../../data/genome-order.ts';

/** How the markers are ordered for the TAN class (the ancestral order π). */
export type { TanOrder };

export interface TanDataOptions {
  /** Candidate parents: the `window` markers preceding X_i in π on the same chromosome (default 3). */
  readonly window: number;
  readonly order: TanOrder;
  /** Seed of the 'random' order. */
  readonly orderSeed: number;
}

export const DEFAULT_TAN_DATA: TanDataOptions = { window: D.tanWindow, order: D.tanOrder, orderSeed: 1 };

/**
 * The variables EMA-TAN works on. Phased or haploid data: one variable per locus and P rows per
 * individual (a copy's allele depends on the same copy's allele at the parent marker). Unphased
 * data with ploidy > 1: genotype-level variables, one row per individual, whose states are the
 * distinct unordered genotypes seen at the locus (a genotype with a missing copy is missing).
 *   values: shape (n, N, R), values[(i * N + d) * R + h] = state of variable i in row h of
 *           individual d, or MISSING; variables are indexed in π order (locus = loci[i])
 */
export interface TanData {
  readonly N: number;
  readonly R: number;
  readonly n: number;
  readonly level: 'copy' | 'genotype';
  /** Variable i is locus loci[i]. */
  readonly loci: Int32Array;
  readonly states: Int32Array;
  readonly values: Int16Array;
  /** Candidate parent variables of each variable (earlier in π, same chromosome, at most `window`). */
  readonly candidates: readonly Int32Array[];
  /** Observed state frequencies of each variable (used for a missing parent value). */
  readonly marginal: readonly Float64Array[];
  /**
   * Per variable, when its candidates' joint states are few (≤ MAX_CONFIGS): the index of the
   * candidates' joint state in every row (shape (N, R); -1 where a candidate is missing), so the
   * hot loops look up one precomputed table entry per row. null: evaluate row by row.
   */
  readonly parentConfig: readonly (Int32Array | null)[];
  /** Number of joint candidate states per variable (1 without candidates). */
  readonly configs: Int32Array;
}

/** Largest number of joint candidate states for which tables are precomputed. */
export const MAX_CONFIGS = 4096;

/** Builds the TAN variables of a dataset. */
export function tanData(data: GenotypeData, o: TanDataOptions = DEFAULT_TAN_DATA): TanData {
  const N = data.individuals.length;
  const P = data.ploidy;
  const L = data.loci.length;
  const level = data.phased || P === 1 ? 'copy' : 'genotype';
  const R = level === 'copy' ? P : 1;
  let order: number[];
  if (o.order === 'genome') order = genomeOrder(data.loci);
  else if (o.order === 'file') order = data.loci.map((_, l) => l);
  else {
    const rng = createRng(o.orderSeed);
    order = data.loci.map((_, l) => l);
    for (let k = L - 1; k > 0; k--) {
      const j = Math.floor(rng.uniform() * (k + 1));
      [order[k], order[j]] = [order[j]!, order[k]!];
    }
  }
  const values = new Int16Array(L * N * R);
  const states = new Int32Array(L);
  const marginal: Float64Array[] = [];
  order.forEach((locus, i) => {
    if (level === 'copy') {
      states[i] = Math.max(1, data.loci[locus]!.alleles.length);
      for (let d = 0; d < N; d++)
        for (let h = 0; h < P; h++) values[(i * N + d) * R + h] = data.calls[(locus * N + d) * P + h]!;
    } else {
      const g = genotypeStates(data, locus);
      values.set(g.values, i * N);
      states[i] = g.count;
    }
    const m = new Float64Array(states[i]!);
    let total = 0;
    for (let k = i * N * R; k < (i + 1) * N * R; k++) {
      const v = values[k]!;
      if (v !== MISSING) {
        m[v]!++;
        total++;
      }
    }
    for (let s = 0; s < m.length; s++) m[s] = total > 0 ? m[s]! / total : 1 / m.length;
    marginal.push(m);
  });
  const candidates = order.map((locus, i) => {
    const chrom = data.loci[locus]!.chrom ?? '';
    const c: number[] = [];
    for (let j = i - 1; j >= 0 && c.length < o.window; j--) {
      if (o.order === 'genome' && (data.loci[order[j]!]!.chrom ?? '') !== chrom) break;
      c.push(j);
    }
    return Int32Array.from(c);
  });
  const configs = new Int32Array(L);
  const parentConfig = candidates.map((cand, i) => {
    let count = 1;
    for (const l of cand) count *= states[l]!;
    configs[i] = count;
    if (count > MAX_CONFIGS) return null;
    const out = new Int32Array(N * R);
    for (let row = 0; row < N * R; row++) {
      let cfg = 0;
      for (const l of cand) {
        const v = values[l * N * R + row]!;
        if (v === MISSING) {
          cfg = -1;
          break;
        }
        cfg = cfg * states[l]! + v;
      }
      out[row] = cfg;
    }
    return out;
  });
  return {
    N,
    R,
    n: L,
    level,
    loci: Int32Array.from(order),
    states,
    values,
    candidates,
    marginal,
    parentConfig,
    configs,
  };
}
