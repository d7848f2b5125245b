import { createRng, gammaDraw, type Rng } from '../../engine/util/rng.ts';
import type { GenotypeData, Individual, Locus } from '../../engine/data/genotype-data.ts';

/** Builds a dataset from a (locus, individual, copy) allele function; -1 = missing. */
export function makeData(
  N: number,
  L: number,
  P: number,
  alleleCounts: number[],
  allele: (l: number, i: number, p: number) => number,
  pops?: string[],
): GenotypeData {
  const calls = new Int16Array(N * L * P);
  for (let l = 0; l < L; l++)
    for (let i = 0; i < N; i++) for (let p = 0; p < P; p++) calls[(l * N + i) * P + p] = allele(l, i, p);
  const individuals: Individual[] = Array.from({ length: N }, (_, i) => ({
    id: `i${i}`,
    ...(pops ? { population: pops[i]! } : {}),
  }));
  const loci: Locus[] = alleleCounts.map((r, l) => ({
    name: `L${l}`,
    alleles: Array.from({ length: r }, (_, a) => String(a)),
  }));
  return { ploidy: P, individuals, loci, calls, phased: false };
}

/**
 * The toy example of section 8.3 (O'Rourke et al. 2005): three ancestral 50-bit strings with
 * pairwise Hamming distances 2, 3 and 5 (5 differentiating positions), each the ancestor of 19
 * clones mutated at rate 0.05 per position; 60 haploid individuals in 3 populations.
 */
/**
 * Random frequencies for every (locus, allele) row of `offsets` and K clusters (rows of F, K
 * columns), each cluster's at a locus uniform draws plus 0.05, normalised.
 */
export function randomFrequencies(rng: Rng, offsets: Int32Array, K: number): Float64Array {
  const L = offsets.length - 1;
  const F = new Float64Array(offsets[L]! * K);
  for (let l = 0; l < L; l++)
    for (let k = 0; k < K; k++) {
      const draws = Array.from({ length: offsets[l + 1]! - offsets[l]! }, () => rng.uniform() + 0.05);
      const s = draws.reduce((a, b) => a + b, 0);
      draws.forEach((d, a) => (F[(offsets[l]! + a) * K + k] = d / s));
    }
  return F;
}

export function toyExample(seed: number): { data: GenotypeData; labels: number[]; informative: number[] } {
  const rng = createRng(seed);
  const L = 50;
  const positions = shuffle(
    Array.from({ length: L }, (_, i) => i),
    rng,
  ).slice(0, 5);
  const a: number[] = Array.from({ length: L }, () => (rng.uniform() < 0.5 ? 1 : 0));
  const b = [...a];
  const c = [...a];
  for (const p of positions.slice(0, 2)) b[p] = 1 - b[p]!;
  for (const p of positions.slice(2)) c[p] = 1 - c[p]!;
  const seqs: number[][] = [];
  const labels: number[] = [];
  [a, b, c].forEach((anc, pop) => {
    seqs.push([...anc]);
    labels.push(pop);
    for (let k = 0; k < 19; k++) {
      seqs.push(anc.map((x) => (rng.uniform() < 0.05 ? 1 - x : x)));
      labels.push(pop);
    }
  });
  const data = makeData(60, L, 1, Array(L).fill(2), (l, i) => seqs[i]![l]!, labels.map(String));
  return { data, labels, informative: positions.sort((x, y) => x - y) };
}

export function shuffle<T>(xs: T[], rng: Rng): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rng.uniform() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

/** Draws a category from probabilities. */
export function draw(p: ArrayLike<number>, rng: Rng): number {
  let u = rng.uniform();
  for (let k = 0; k < p.length; k++) {
    u -= p[k]!;
    if (u < 0) return k;
  }
  return p.length - 1;
}

/** A flat-Dirichlet probability vector. */
export function dirichlet(r: number, rng: Rng, concentration = 1): number[] {
  // For concentration 1 the exponential trick is exact; other values are approximated by powers.
  const x = Array.from({ length: r }, () => Math.pow(rng.exponential() + 1e-12, 1 / concentration));
  const s = x.reduce((a, b) => a + b, 0);
  return x.map((v) => v / s);
}

/**
 * Data sampled from a selective naive Bayes model: K clusters, n variables with r states, the
 * first `relevant` of which depend on the cluster; the rest share one distribution.
 */
export function selectiveNaiveBayesData(
  seed: number,
  opts: { N: number; n: number; relevant: number; r: number; K: number; P?: number; separation?: number },
): { data: GenotypeData; labels: number[] } {
  const rng = createRng(seed);
  const P = opts.P ?? 1;
  const cond = Array.from({ length: opts.n }, (_, i) => {
    if (i < opts.relevant) {
      // Redraw until every pair of clusters differs by at least `separation` in total variation,
      // as the text chose its models "not too close" (7.5.2).
      for (;;) {
        const ps = Array.from({ length: opts.K }, () => dirichlet(opts.r, rng, 0.5));
        const tv = (a: number[], b: number[]) => a.reduce((s, x, k) => s + Math.abs(x - b[k]!), 0) / 2;
        let ok = true;
        for (let a = 0; a < opts.K; a++)
          for (let b = a + 1; b < opts.K; b++) if (tv(ps[a]!, ps[b]!) < (opts.separation ?? 0)) ok = false;
        if (ok) return ps;
      }
    }
    const shared = dirichlet(opts.r, rng);
    return Array.from({ length: opts.K }, () => shared);
  });
  const labels = Array.from({ length: opts.N }, () => Math.floor(rng.uniform() * opts.K));
  const values: number[] = [];
  for (let l = 0; l < opts.n; l++)
    for (let i = 0; i < opts.N; i++) for (let p = 0; p < P; p++) values.push(draw(cond[l]![labels[i]!]!, rng));
  const data = makeData(opts.N, opts.n, P, Array(opts.n).fill(opts.r), (l, i, p) => values[(l * opts.N + i) * P + p]!);
  return { data, labels };
}

/**
 * Phased diploid SNPs in haplotype blocks: `blocks` blocks of `size` SNPs; the first SNP of a
 * block has population-specific frequencies (Balding–Nichols, F_ST ≈ fst), each later SNP of the
 * block copies the previous SNP on the same haplotype, flipped with probability `flip`.
 * Markers carry chromosome and position so genome order follows the blocks.
 */
export function haplotypeBlocks(
  seed: number,
  o: { pops: number; perPop: number; blocks: number; size: number; flip: number; fst: number },
): { data: GenotypeData; labels: number[] } {
  const rng = createRng(seed);
  const N = o.pops * o.perPop;
  const L = o.blocks * o.size;
  const labels = Array.from({ length: N }, (_, d) => Math.floor(d / o.perPop));
  const calls = new Int16Array(L * N * 2);
  for (let b = 0; b < o.blocks; b++) {
    const p = 0.2 + 0.6 * rng.uniform();
    const a = (p * (1 - o.fst)) / o.fst;
    const bb = ((1 - p) * (1 - o.fst)) / o.fst;
    const freq = Array.from({ length: o.pops }, () => {
      const x = gammaDraw(a, rng);
      return x / (x + gammaDraw(bb, rng));
    });
    for (let d = 0; d < N; d++)
      for (let h = 0; h < 2; h++) {
        let allele = rng.uniform() < freq[labels[d]!]! ? 1 : 0;
        for (let s = 0; s < o.size; s++) {
          if (s > 0 && rng.uniform() < o.flip) allele = 1 - allele;
          calls[((b * o.size + s) * N + d) * 2 + h] = allele;
        }
      }
  }
  const loci = Array.from({ length: L }, (_, l) => ({
    name: `b${Math.floor(l / o.size)}s${l % o.size}`,
    chrom: '1',
    pos: 1000 * l + 1,
    alleles: ['A', 'G'],
  }));
  const individuals = labels.map((p, d) => ({ id: `i${d}`, population: `P${p}` }));
  return { data: { ploidy: 2, individuals, loci, calls, phased: true }, labels };
}

/**
 * Phased diploid SNPs in haplotype blocks with population-specific haplotype frequencies (the
 * usual picture of linkage disequilibrium): each block has `founders` random founder haplotypes
 * and between `minSize` and `maxSize` SNPs; founder frequencies are Dirichlet(1) in the ancestral
 * population and Dirichlet(anc · (1 − F)/F) in each population (the multi-allelic
 * Balding–Nichols model, F = `fst`); each copy of a block is a founder drawn from the individual's
 * population with each SNP miscopied with probability `error`. Unlike {@link haplotypeBlocks},
 * the class information of a block is spread over all its SNPs and over their combinations.
 */
export function haplotypeFrequencyBlocks(
  seed: number,
  o: {
    pops: number;
    perPop: number;
    blocks: number;
    minSize: number;
    maxSize: number;
    founders: number;
    fst: number;
    error: number;
  },
): { data: GenotypeData; labels: number[] } {
  const rng = createRng(seed);
  const N = o.pops * o.perPop;
  const labels = Array.from({ length: N }, (_, d) => Math.floor(d / o.perPop));
  const sizes = Array.from(
    { length: o.blocks },
    () => o.minSize + Math.floor(rng.uniform() * (o.maxSize - o.minSize + 1)),
  );
  const L = sizes.reduce((a, b) => a + b, 0);
  const calls = new Int16Array(L * N * 2);
  const concentration = (1 - o.fst) / o.fst;
  let first = 0;
  for (const size of sizes) {
    const founders = Array.from({ length: o.founders }, () =>
      Array.from({ length: size }, () => (rng.uniform() < 0.5 ? 1 : 0)),
    );
    const ancestral = dirichlet(o.founders, rng);
    const freq = Array.from({ length: o.pops }, () => {
      const x = ancestral.map((p) => gammaDraw(p * concentration, rng) + 1e-300);
      const t = x.reduce((a, b) => a + b, 0);
      return x.map((v) => v / t);
    });
    for (let d = 0; d < N; d++)
      for (let h = 0; h < 2; h++) {
        const founder = founders[draw(freq[labels[d]!]!, rng)]!;
        for (let s = 0; s < size; s++)
          calls[((first + s) * N + d) * 2 + h] = rng.uniform() < o.error ? 1 - founder[s]! : founder[s]!;
      }
    first += size;
  }
  const loci = Array.from({ length: L }, (_, l) => ({
    name: `m${l}`,
    chrom: '1',
    pos: 1000 * l + 1,
    alleles: ['A', 'G'],
  }));
  const individuals = labels.map((p, d) => ({ id: `i${d}`, population: `P${p}` }));
  return { data: { ploidy: 2, individuals, loci, calls, phased: true }, labels };
}

/** The accuracy suite's linked-SNP case (snp-blocks-3): 3 populations × 40, 40 blocks of 2–6 SNPs, F_ST 0.05. */
export const SNP_BLOCKS_3 = {
  pops: 3,
  perPop: 40,
  blocks: 40,
  minSize: 2,
  maxSize: 6,
  founders: 4,
  fst: 0.05,
  error: 0.01,
} as const;

/**
 * Admixed individuals in the style of Pritchard et al. (2000): K ancestral populations whose
 * allele frequencies follow the Balding–Nichols model around ancestral frequencies p_l
 * (f_kl ~ Beta(p_l (1 − F)/F, (1 − p_l)(1 − F)/F); p_l ~ Uniform(0.05, 0.95) for SNPs, or a
 * Dirichlet(1) over `alleles` alleles for multi-allelic loci), ancestry q_i ~ Dirichlet(α), and
 * each copy's ancestry drawn from q_i. Returns the data with the true Q (N × K) and F
 * (frequency of allele a at locus l in population k, in the engine's (Σ r_l, K) layout).
 */
export function admixedData(
  seed: number,
  o: {
    N: number;
    L: number;
    K: number;
    alpha: number;
    fst: number;
    alleles?: number;
    ploidy?: number;
    /** The first `references` individuals are unadmixed, individual i entirely from population i mod K. */
    references?: number;
    /** The last `noiseLoci` loci have the ancestral frequencies in every population (uninformative). */
    noiseLoci?: number;
  },
): { data: GenotypeData; Q: Float64Array; F: Float64Array } {
  const rng = createRng(seed);
  const r = o.alleles ?? 2;
  const P = o.ploidy ?? 2;
  const { N, L, K } = o;
  const F = new Float64Array(L * r * K);
  const scale = (1 - o.fst) / o.fst;
  for (let l = 0; l < L; l++) {
    const p = r === 2 ? [0.05 + 0.9 * rng.uniform()] : dirichlet(r, rng);
    if (r === 2) p.push(1 - p[0]!);
    for (let k = 0; k < K; k++) {
      const draws = p.map((x) => gammaDraw(Math.max(1e-3, x * scale), rng) + 1e-300);
      const s = draws.reduce((a, b) => a + b, 0);
      const noise = l >= L - (o.noiseLoci ?? 0);
      draws.forEach((x, a) => (F[(l * r + a) * K + k] = noise ? p[a]! : x / s));
    }
  }
  const Q = new Float64Array(N * K);
  for (let i = 0; i < N; i++) {
    if (i < (o.references ?? 0)) {
      Q[i * K + (i % K)] = 1;
      continue;
    }
    const g = Array.from({ length: K }, () => gammaDraw(o.alpha, rng) + 1e-300);
    const s = g.reduce((a, b) => a + b, 0);
    g.forEach((x, k) => (Q[i * K + k] = x / s));
  }
  const pick = (weights: (j: number) => number, n: number) => {
    let u = rng.uniform();
    for (let j = 0; j < n - 1; j++) {
      u -= weights(j);
      if (u < 0) return j;
    }
    return n - 1;
  };
  const calls = new Int8Array(N * L * P);
  for (let l = 0; l < L; l++) {
    for (let i = 0; i < N; i++) {
      for (let c = 0; c < P; c++) {
        const z = pick((k) => Q[i * K + k]!, K);
        calls[(l * N + i) * P + c] = pick((a) => F[(l * r + a) * K + z]!, r);
      }
    }
  }
  const individuals: Individual[] = Array.from({ length: N }, (_, i) => ({ id: `i${i}` }));
  const loci: Locus[] = Array.from({ length: L }, (_, l) => ({
    name: `L${l}`,
    alleles: Array.from({ length: r }, (_, a) => String(a)),
  }));
  return { data: { ploidy: P, individuals, loci, calls, phased: false }, Q, F };
}

/**
 * K unequal population sizes from `min` to `max` in a scrambled order (k · 37 mod K spread over
 * the range): the accuracy suite's simulated breeds.
 */
export function unequalSizes(K: number, min: number, max: number): number[] {
  return Array.from({ length: K }, (_, k) => min + Math.round(((k * 37) % K) * ((max - min) / Math.max(1, K - 1))));
}

/**
 * Diploid microsatellite-like populations: per locus r alleles (uniform in [minAlleles,
 * maxAlleles]), ancestral frequencies Dirichlet(1), population frequencies
 * Dirichlet(anc · (1 − F)/F) (F_ST ≈ F, Balding–Nichols), `perPop` individuals per population
 * named p0, p1, …; returns the true frequencies, shape [locus][population][allele].
 * Options for the accuracy suite: `sizes` (individuals of each population, unequal; replaces
 * perPop), `noiseLoci` (the last loci share the ancestral frequencies in every population: no
 * structure) and `missing` (each genotype missing with this probability).
 */
export function multiAllelicPopulations(
  seed: number,
  o: {
    pops: number;
    perPop: number;
    loci: number;
    minAlleles: number;
    maxAlleles: number;
    fst: number;
    sizes?: readonly number[];
    noiseLoci?: number;
    missing?: number;
  },
): { data: GenotypeData; freqs: number[][][]; labels: number[] } {
  const rng = createRng(seed);
  const gammaVector = (shape: number[]) => {
    const x = shape.map((a) => gammaDraw(a, rng) + 1e-300);
    const s = x.reduce((a, b) => a + b, 0);
    return x.map((v) => v / s);
  };
  const alleles = Array.from(
    { length: o.loci },
    () => o.minAlleles + Math.floor(rng.uniform() * (o.maxAlleles - o.minAlleles + 1)),
  );
  const structured = o.loci - (o.noiseLoci ?? 0);
  const freqs = alleles.map((r, l) => {
    const anc = gammaVector(Array(r).fill(1));
    if (l >= structured) return Array.from({ length: o.pops }, () => anc);
    return Array.from({ length: o.pops }, () => gammaVector(anc.map((p) => (p * (1 - o.fst)) / o.fst)));
  });
  const sizes = o.sizes ?? Array<number>(o.pops).fill(o.perPop);
  const labels = sizes.flatMap((n, k) => Array<number>(n).fill(k));
  const N = labels.length;
  const pops = labels.map((k) => `p${k}`);
  const calls: number[] = [];
  for (let l = 0; l < o.loci; l++)
    for (let i = 0; i < N; i++) {
      const gone = o.missing !== undefined && rng.uniform() < o.missing;
      for (let p = 0; p < 2; p++) calls.push(gone ? -1 : draw(freqs[l]![labels[i]!]!, rng));
    }
  const data = makeData(N, o.loci, 2, alleles, (l, i, p) => calls[(l * N + i) * 2 + p]!, pops);
  return { data, freqs, labels };
}

/** Accuracy of assigning every individual of `multiAllelicPopulations` with the true frequencies (the Bayes-optimal classifier). */
export function bayesOptimalAccuracy(data: GenotypeData, freqs: number[][][], perPop: number): number {
  const N = data.individuals.length;
  let correct = 0;
  for (let i = 0; i < N; i++) {
    let best = -1;
    let bestV = -Infinity;
    for (let c = 0; c < freqs[0]!.length; c++) {
      let v = 0;
      for (let l = 0; l < freqs.length; l++)
        for (let p = 0; p < 2; p++) v += Math.log(freqs[l]![c]![data.calls[(l * N + i) * 2 + p]!]!);
      if (v > bestV) [bestV, best] = [v, c];
    }
    if (best === Math.floor(i / perPop)) correct++;
  }
  return correct / N;
}
