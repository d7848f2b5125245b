import { alleleOffsets, locusPloidy, type GenotypeData } from '../data/genotype-data.ts';
import type { Rng } from '../util/rng.ts';

/**
 * Naive Bayes over alleles (Rannala & Mountain 1997; GeneClass2's Bayesian method): every copy of
 * an individual's genotype comes from its population's allele frequencies at that locus
 * (Hardy–Weinberg and linkage equilibrium within populations), missing copies are skipped, any
 * ploidy. The frequencies of population c at locus l have a Dirichlet prior of weight w spread
 * evenly over the r_l alleles (w = 1: Rannala & Mountain's 1/r per allele); with n_cla labelled
 * copies of allele a, the posterior is Dirichlet(α_cla), α_cla = n_cla + w / r_l, A_cl = Σ_a α_cla,
 * and the genotype's probability is the posterior predictive (Rannala & Mountain's eq. 4):
 *
 *   p(copies x_1..x_m | c) = Π_j (α_{c,l,x_j} + #{i < j : x_i = x_j}) / (A_cl + j − 1)
 *
 * (a diploid homozygote aa: α_a(α_a + 1) / (A(A + 1)); heterozygote ab: α_a α_b / (A(A + 1)),
 * ordered). The score of population c for individual x is the sum of its logs over loci; the
 * multinomial coefficient is the same for every population and is left out. Populations have equal
 * prior probability, as in GeneClass2: a population's sample size says nothing about where an
 * unknown individual comes from.
 *
 * Layout: K populations, T = Σ_l r_l allele rows (row offsets[l] + a), P the ploidy:
 *   logNum shape (P, T, K): ln(α_cla + j), j = 0..P−1 (the j-th repeat of an allele)
 *   logDen shape (P, L, K): ln(A_cl + j)
 * (population-minor, so that scoring every population for one copy reads consecutive values).
 */
export interface AlleleModel {
  readonly K: number;
  readonly P: number;
  readonly offsets: Int32Array;
  readonly alpha: Float64Array;
  readonly logNum: Float64Array;
  readonly logDen: Float64Array;
}

/** Labelled allele counts: counts shape (T, K); n_cla as above. */
export interface AlleleCounts {
  readonly K: number;
  readonly offsets: Int32Array;
  readonly counts: Float64Array;
}

/** Allele counts of the labelled individuals among `rows` (labels[i] < 0: unlabelled, skipped). */
export function alleleCounts(data: GenotypeData, labels: Int32Array, K: number, rows: ArrayLike<number>): AlleleCounts {
  const offsets = alleleOffsets(data);
  const counts = new Float64Array(K * offsets[data.loci.length]!);
  const N = data.individuals.length;
  const P = data.ploidy;
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r]!;
    const y = labels[i]!;
    if (y < 0) continue;
    for (let l = 0; l < data.loci.length; l++)
      for (let p = 0; p < P; p++) {
        const a = data.calls[(l * N + i) * P + p]!;
        if (a >= 0) counts[(offsets[l]! + a) * K + y]!++;
      }
  }
  return { K, offsets, counts };
}

/**
 * The Dirichlet prior of the frequencies: a weight w per locus spread evenly over its r alleles
 * (w / r each; 1 is Rannala & Mountain's 1/r per allele), or 'laplace' (1 per allele, w = r).
 */
export type AllelePrior = number | 'laplace';

/** The prior weight of a locus with r alleles. */
export function priorWeight(prior: AllelePrior, r: number): number {
  return prior === 'laplace' ? r : prior;
}

/** The posterior Dirichlet parameters α (shape (T, K)) and the model's log tables. */
export function alleleModel(c: AlleleCounts, prior: AllelePrior, P: number): AlleleModel {
  const { K, offsets, counts } = c;
  const L = offsets.length - 1;
  const T = offsets[L]!;
  const alpha = new Float64Array(K * T);
  const logNum = new Float64Array(P * T * K);
  const logDen = new Float64Array(P * L * K);
  for (let l = 0; l < L; l++) {
    const lo = offsets[l]!;
    const r = offsets[l + 1]! - lo;
    const pseudo = priorWeight(prior, r) / r;
    for (let y = 0; y < K; y++) {
      let A = 0;
      for (let a = 0; a < r; a++) {
        const x = counts[(lo + a) * K + y]! + pseudo;
        alpha[(lo + a) * K + y] = x;
        A += x;
        for (let j = 0; j < P; j++) logNum[(j * T + lo + a) * K + y] = Math.log(x + j);
      }
      for (let j = 0; j < P; j++) logDen[(j * L + l) * K + y] = Math.log(A + j);
    }
  }
  return { K, P, offsets, alpha, logNum, logDen };
}

/** ln p(x_i | c) for every population (out, length K): the posterior predictive of i's copies. */
export function alleleLogLik(data: GenotypeData, m: AlleleModel, i: number, out: Float64Array): void {
  const N = data.individuals.length;
  const P = data.ploidy;
  const K = m.K;
  const L = data.loci.length;
  const T = m.offsets[L]!;
  out.fill(0);
  for (let l = 0; l < L; l++) {
    const base = (l * N + i) * P;
    const lo = m.offsets[l]!;
    let seen = 0;
    for (let p = 0; p < P; p++) {
      const a = data.calls[base + p]!;
      if (a < 0) continue;
      let repeat = 0;
      for (let q = 0; q < p; q++) if (data.calls[base + q] === a) repeat++;
      const o = (repeat * T + lo + a) * K;
      const d = (seen * L + l) * K;
      for (let y = 0; y < K; y++) out[y]! += m.logNum[o + y]! - m.logDen[d + y]!;
      seen++;
    }
  }
}

/** Softmax of scores in place (equal priors): the posterior p(c | x). */
export function softmaxInPlace(v: Float64Array, o = 0, n = v.length - o): void {
  let mx = -Infinity;
  for (let k = 0; k < n; k++) mx = Math.max(mx, v[o + k]!);
  let s = 0;
  for (let k = 0; k < n; k++) s += v[o + k] = Math.exp(v[o + k]! - mx);
  for (let k = 0; k < n; k++) v[o + k]! /= s;
}

/** Posteriors of the individuals `rows`: shape (rows.length, K). */
export function allelePosteriors(data: GenotypeData, m: AlleleModel, rows: ArrayLike<number>): Float64Array {
  const out = new Float64Array(rows.length * m.K);
  const tmp = new Float64Array(m.K);
  for (let r = 0; r < rows.length; r++) {
    alleleLogLik(data, m, rows[r]!, tmp);
    softmaxInPlace(tmp);
    out.set(tmp, r * m.K);
  }
  return out;
}

/**
 * Leave-one-out posteriors of labelled individuals ("self-assignment"): each individual is scored
 * against its own population with its own copies removed from that population's counts (the other
 * populations are as trained). Exact, without a refit per individual: only the own population's
 * frequencies at the individual's alleles change. Shape (rows.length, K).
 */
export function leaveOneOutPosteriors(
  data: GenotypeData,
  labels: Int32Array,
  counts: AlleleCounts,
  prior: AllelePrior,
  rows: ArrayLike<number>,
): Float64Array {
  const full = alleleModel(counts, prior, data.ploidy);
  const { K, offsets } = counts;
  const L = data.loci.length;
  const N = data.individuals.length;
  const P = data.ploidy;
  const out = new Float64Array(rows.length * K);
  const tmp = new Float64Array(K);
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r]!;
    const y = labels[i]!;
    alleleLogLik(data, full, i, tmp);
    if (y >= 0) {
      // The own population's predictive with i's copies taken out of its counts.
      let s = 0;
      for (let l = 0; l < L; l++) {
        const lo = offsets[l]!;
        const base = (l * N + i) * P;
        let m = 0;
        for (let p = 0; p < P; p++) if (data.calls[base + p]! >= 0) m++;
        if (m === 0) continue;
        let A = 0;
        for (let a = lo; a < offsets[l + 1]!; a++) A += full.alpha[a * K + y]!;
        A -= m;
        let seen = 0;
        for (let p = 0; p < P; p++) {
          const a = data.calls[base + p]!;
          if (a < 0) continue;
          let own = 0;
          let repeat = 0;
          for (let q = 0; q < P; q++) if (data.calls[base + q] === a) own++;
          for (let q = 0; q < p; q++) if (data.calls[base + q] === a) repeat++;
          s += Math.log(full.alpha[(lo + a) * K + y]! - own + repeat) - Math.log(A + seen);
          seen++;
        }
      }
      tmp[y] = s;
    }
    softmaxInPlace(tmp);
    out.set(tmp, r * K);
  }
  return out;
}

/** The priors 'auto' chooses from (weights per locus; 1 is Rannala & Mountain's). */
export const ALLELE_PRIOR_GRID: readonly AllelePrior[] = [0.1, 0.5, 1, 2, 5, 'laplace'];

/**
 * Chooses the prior by leave-one-out: the one whose self-assignment gives the highest
 * Σ ln p(own population | x) over the labelled `rows` (exact, no refits; ties to the earlier).
 */
export function chooseAllelePrior(
  data: GenotypeData,
  labels: Int32Array,
  counts: AlleleCounts,
  rows: number[],
): AllelePrior {
  let best = ALLELE_PRIOR_GRID[0]!;
  let bestScore = -Infinity;
  const K = counts.K;
  const labelled = rows.filter((i) => labels[i]! >= 0);
  for (const w of ALLELE_PRIOR_GRID) {
    const post = leaveOneOutPosteriors(data, labels, counts, w, labelled);
    let s = 0;
    labelled.forEach((i, r) => (s += Math.log(Math.max(1e-300, post[r * K + labels[i]!]!))));
    if (s > bestScore) {
      bestScore = s;
      best = w;
    }
  }
  return best;
}

/**
 * Exclusion test (Paetkau et al. 2004, with Rannala & Mountain's frequencies): for individual i
 * and population c, the probability that a genotype drawn from c's posterior predictive at the loci
 * where i is fully typed is as unlikely as i's or less, estimated from `draws` simulated
 * multilocus genotypes ((1 + #{simulated ≤ observed}) / (1 + draws)). Drawing from the predictive
 * (a Pólya urn: each copy from α, earlier copies of the genotype added) rather than from point
 * estimates keeps the test calibrated when samples are small and unseen alleles likely. Small
 * values (below 0.01, say) mean that i is unlikely to come from c; small for every population: from
 * none of the sampled ones. Genotype probabilities include the multinomial coefficient. Loci where i
 * has a missing copy are left out. Shape (rows.length, K).
 */
export function exclusionProbabilities(
  data: GenotypeData,
  m: AlleleModel,
  rows: ArrayLike<number>,
  draws: number,
  rng: Rng,
): Float64Array {
  const { K, offsets, alpha, logNum, logDen } = m;
  const L = data.loci.length;
  const N = data.individuals.length;
  const P = data.ploidy;
  const T = offsets[L]!;
  const logFactorial = Float64Array.from({ length: P + 1 }, (_, n) => {
    let s = 0;
    for (let j = 2; j <= n; j++) s += Math.log(j);
    return s;
  });
  const logInt = Float64Array.from({ length: P + 1 }, (_, n) => (n > 0 ? Math.log(n) : 0));
  const drawn = new Int32Array(P);
  /** ln probability of the sorted copies drawn[0..copies) at locus l under class y. */
  const genotypeLogProb = (y: number, l: number, copies: number): number => {
    const lo = offsets[l]!;
    let v = logFactorial[copies]!;
    let run = 0;
    for (let p = 0; p < copies; p++) {
      run = p > 0 && drawn[p] === drawn[p - 1] ? run + 1 : 1;
      v += logNum[((run - 1) * T + lo + drawn[p]!) * K + y]! - logDen[(p * L + l) * K + y]! - logInt[run]!;
    }
    return v;
  };
  const sortDrawn = (copies: number) => {
    for (let p = 1; p < copies; p++)
      for (let q = p; q > 0 && drawn[q - 1]! > drawn[q]!; q--) [drawn[q - 1], drawn[q]] = [drawn[q]!, drawn[q - 1]!];
  };
  const maxR = Math.max(1, ...Array.from({ length: L }, (_, l) => offsets[l + 1]! - offsets[l]!));
  const out = new Float64Array(rows.length * K);
  // Per class: `draws` simulated genotypes at every locus (ln probability per draw and locus); an
  // individual's simulated totals are the sums over its fully typed loci.
  const sim = new Float64Array(draws * L);
  const cdf = new Float64Array(maxR);
  for (let y = 0; y < K; y++) {
    for (let l = 0; l < L; l++) {
      const lo = offsets[l]!;
      const r = offsets[l + 1]! - lo;
      const copies = locusPloidy(data, l);
      let A = 0;
      for (let a = 0; a < r; a++) cdf[a] = A += alpha[(lo + a) * K + y]!;
      for (let s = 0; s < draws; s++) {
        for (let p = 0; p < copies; p++) {
          const u = rng.uniform() * (A + p);
          if (u >= A) {
            drawn[p] = drawn[Math.min(p - 1, Math.floor(u - A))]!; // the urn: one of the earlier copies
            continue;
          }
          let lo2 = 0;
          let hi = r - 1;
          while (lo2 < hi) {
            const mid = (lo2 + hi) >> 1;
            if (cdf[mid]! < u) lo2 = mid + 1;
            else hi = mid;
          }
          drawn[p] = lo2;
        }
        sortDrawn(copies);
        sim[s * L + l] = genotypeLogProb(y, l, copies);
      }
    }
    const totals = new Float64Array(draws);
    for (let s = 0; s < draws; s++) {
      let t = 0;
      for (let l = 0; l < L; l++) t += sim[s * L + l]!;
      totals[s] = t;
    }
    for (let r = 0; r < rows.length; r++) {
      const i = rows[r]!;
      let observed = 0;
      const left: number[] = [];
      for (let l = 0; l < L; l++) {
        const copies = locusPloidy(data, l);
        let complete = true;
        for (let p = 0; p < copies; p++) {
          const a = data.calls[(l * N + i) * P + p]!;
          if (a < 0) complete = false;
          drawn[p] = a;
        }
        if (complete) {
          sortDrawn(copies);
          observed += genotypeLogProb(y, l, copies);
        } else left.push(l);
      }
      let below = 0;
      for (let s = 0; s < draws; s++) {
        let t = totals[s]!;
        for (const l of left) t -= sim[s * L + l]!;
        if (t <= observed + 1e-9 * Math.abs(observed)) below++;
      }
      out[r * K + y] = (1 + below) / (1 + draws);
    }
  }
  return out;
}
