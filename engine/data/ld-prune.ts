// Linkage pruning as PLINK's --indep-pairwise does it (PLINK 1.9 and 2: the same windows, r² and
// greedy order), and thinning to one locus per stretch of bases. docs/algorithms.md §19.
import { locusPloidy, MISSING, type GenotypeData } from './genotype-data.ts';
import { blockAlleleCounts } from './allele-counts.ts';
import { locusCalls } from './packed-calls.ts';
import { chromosomeRuns } from './chromosomes.ts';
import { exceedsSums, pairCounter, planeWords, popcount } from './ld-pair-counts.ts';

/** --indep-pairwise WINDOW[kb] STEP R2. */
export interface PairwisePruning {
  /** The window: a number of loci, or of kilobases with `kb`. */
  readonly window: number;
  readonly kb?: boolean;
  /** Loci the window moves by (1 with a window in kilobases, as in PLINK 2). */
  readonly step: number;
  /** Pairs whose squared correlation exceeds this lose one locus. */
  readonly r2: number;
}

/** Loci kept and removed (indices into data.loci, ascending). */
export interface PruneResult {
  readonly kept: number[];
  readonly removed: number[];
}

/** PLINK's tolerance when it compares the two loci's major-allele frequencies (2⁻⁴⁴). */
const TIE = 2 ** -44;

/** What is wrong with a pruning's settings, or undefined. */
export function pairwisePruningProblem(o: PairwisePruning): string | undefined {
  if (o.kb) {
    if (!(o.window > 0 && Number.isFinite(o.window)))
      return `the window takes a positive number of kb, got ${o.window}`;
    if (o.step !== 1) return `a window in kb moves one locus at a time (step 1, as in PLINK 2), got step ${o.step}`;
  } else {
    if (!Number.isInteger(o.window) || o.window < 2)
      return `the window takes a whole number of loci, 2 or more, got ${o.window}`;
    if (!Number.isInteger(o.step) || o.step < 1 || o.step > o.window)
      return `the step takes a whole number from 1 to the window (${o.window}), got ${o.step}`;
  }
  if (!(o.r2 >= 0 && o.r2 <= 1)) return `the r² threshold takes a number from 0 to 1, got ${o.r2}`;
  return undefined;
}

/**
 * One locus as PLINK's r² reads it: each individual's count of the locus's most common allele
 * (PLINK collapses other alleles into "the rest"), missing where a copy is. Diploid loci are held
 * as bit planes of 32 individuals a word — called, homozygous, homozygous for the major allele —
 * so a pair's sums are popcounts; other ploidies as counts.
 */
interface HardCalls {
  /** The major allele's frequency among called copies (PLINK's tie-break: the rarer minor allele loses). */
  readonly majorFrequency: number;
  /** No variation among the called individuals (PLINK prunes these first). */
  readonly constant: boolean;
  planes?: Uint32Array;
  readonly counts?: Int8Array;
}

/**
 * Per .bed byte (four genotypes), the four individuals' bits of three planes: called (bits 0–3),
 * homozygous for allele 0 (bits 4–7), homozygous for allele 1 (bits 8–11).
 */
const BYTE_PLANES = (() => {
  const table = new Uint16Array(256);
  for (let b = 0; b < 256; b++)
    for (let j = 0; j < 4; j++) {
      const code = (b >> (2 * j)) & 3;
      if (code !== 1) table[b]! |= 1 << j;
      if (code === 0) table[b]! |= 1 << (4 + j);
      if (code === 3) table[b]! |= 1 << (8 + j);
    }
  return table;
})();

/**
 * hardCalls of a locus read from a PLINK .bed's two-bit codes (packed-calls.ts; BYTE_PLANES): 00
 * homozygous for allele 0, 01 missing, 10 heterozygous, 11 homozygous for allele 1; the padding
 * of the last byte is masked off. `planes` (zeroed here) receives the planes.
 */
function packedHardCalls(bytes: Uint8Array, offset: number, N: number, planes: Uint32Array): HardCalls {
  const W = planeWords(N);
  planes.fill(0);
  // Allele 1's homozygotes go to the third plane, allele 0's to the second, for now.
  const end = offset + Math.ceil(N / 4);
  for (let k = offset, w = 0; k < end; w++) {
    let c = 0;
    let h0 = 0;
    let h1 = 0;
    const stop = Math.min(k + 8, end);
    for (let shift = 0; k < stop; k++, shift += 4) {
      const v = BYTE_PLANES[bytes[k]!]!;
      c |= (v & 15) << shift;
      h0 |= ((v >>> 4) & 15) << shift;
      h1 |= (v >>> 8) << shift;
    }
    planes[w] = c;
    planes[W + w] = h0;
    planes[2 * W + w] = h1;
  }
  if (N % 32 !== 0) {
    const last = N >>> 5;
    const mask = (1 << (N & 31)) - 1;
    for (let p = 0; p < 3; p++) planes[p * W + last]! &= mask;
  }
  let called = 0;
  let n0 = 0;
  let n1 = 0;
  for (let k = 0; k < W; k++) {
    called += popcount(planes[k]!);
    n0 += popcount(planes[W + k]!);
    n1 += popcount(planes[2 * W + k]!);
  }
  // The third plane becomes the major allele's homozygotes, the second either homozygote.
  if (n1 > n0) for (let k = 0; k < W; k++) planes[W + k]! |= planes[2 * W + k]!;
  else
    for (let k = 0; k < W; k++) {
      const a0 = planes[W + k]!;
      planes[W + k] = a0 | planes[2 * W + k]!;
      planes[2 * W + k] = a0;
    }
  const h = diploidSummary(called, n0, n1);
  h.planes = planes;
  return h;
}

/**
 * A diploid two-allele locus's frequency and constancy from its called individuals and the
 * homozygotes of each allele; the major allele is allele 0 unless allele 1 has more copies (the
 * first on a tie, as allele counts do).
 */
function diploidSummary(called: number, n0: number, n1: number): HardCalls {
  const het = called - n0 - n1;
  const plus = n1 > n0 ? n1 : n0;
  const minus = n1 > n0 ? n0 : n1;
  return {
    majorFrequency: called > 0 ? (2 * plus + het) / (2 * called) : Number.NaN,
    constant: diploidConstant(called, plus, minus),
    planes: undefined,
  };
}

/** Whether a diploid locus's called genotypes are all alike: every one heterozygous, or homozygous for one allele. */
function diploidConstant(called: number, plus: number, minus: number): boolean {
  return (plus === 0 && minus === 0) || plus === called || minus === called;
}

/**
 * A locus's hard calls; diploid loci's planes go to `planes` when given (the caller copies them
 * on: the pair counter's slot), else to an array of their own.
 */
function hardCalls(data: GenotypeData, l: number, planes?: Uint32Array): HardCalls {
  const N = data.individuals.length;
  if (data.packed) {
    const { bytes, bytesPerLocus } = data.packed;
    return packedHardCalls(bytes, l * bytesPerLocus, N, planes ?? new Uint32Array(3 * planeWords(N)));
  }
  const P = data.ploidy;
  const Pl = locusPloidy(data, l);
  const calls = locusCalls(data, l);
  const alleleCounts = blockAlleleCounts(calls, data.loci[l]!.alleles.length, P);
  let major = 0;
  let total = 0;
  for (let a = 0; a < alleleCounts.length; a++) {
    total += alleleCounts[a]!;
    if (alleleCounts[a]! > alleleCounts[major]!) major = a;
  }
  const majorFrequency = total > 0 ? alleleCounts[major]! / total : Number.NaN;
  if (Pl === 2) {
    const W = planeWords(N);
    if (planes) planes.fill(0);
    else planes = new Uint32Array(3 * W);
    let called = 0;
    let plus = 0;
    let minus = 0;
    for (let i = 0; i < N; i++) {
      const a = calls[i * P]!;
      const b = calls[i * P + 1]!;
      if (a === MISSING || b === MISSING) continue;
      const bit = 1 << (i & 31);
      const w = i >>> 5;
      planes[w]! |= bit;
      called++;
      const g = (a === major ? 1 : 0) + (b === major ? 1 : 0);
      if (g === 1) continue;
      planes[W + w]! |= bit;
      if (g === 2) {
        planes[2 * W + w]! |= bit;
        plus++;
      } else minus++;
    }
    return { majorFrequency, constant: diploidConstant(called, plus, minus), planes };
  }
  const counts = new Int8Array(N);
  let first = -1;
  let constant = true;
  for (let i = 0; i < N; i++) {
    let g = 0;
    for (let p = 0; p < Pl; p++) {
      const a = calls[i * P + p]!;
      if (a === MISSING) {
        g = -1;
        break;
      }
      if (a === major) g++;
    }
    counts[i] = g;
    if (g < 0) continue;
    if (first < 0) first = g;
    else if (g !== first) constant = false;
  }
  return { majorFrequency, constant, counts };
}

/**
 * Whether r² of the pair exceeds `r2`, over the individuals called at both, in PLINK's integer
 * form: (n·Σxy − ΣxΣy)² > r2 · (n·Σx² − (Σx)²)(n·Σy² − (Σy)²) with x, y the centred counts (the
 * same integers whatever the centring). A pair with no individual in common never exceeds.
 */
function exceeds(a: HardCalls, b: HardCalls, r2: number, N: number): boolean {
  const ga = a.counts ?? countsOf(a, N);
  const gb = b.counts ?? countsOf(b, N);
  let n = 0;
  let sa = 0;
  let sb = 0;
  let qa = 0;
  let qb = 0;
  let dot = 0;
  for (let i = 0; i < N; i++) {
    const x = ga[i]!;
    const y = gb[i]!;
    if (x < 0 || y < 0) continue;
    n++;
    sa += x;
    sb += y;
    qa += x * x;
    qb += y * y;
    dot += x * y;
  }
  return exceedsSums(n, sa, sb, qa, qb, dot, r2);
}

/** A diploid locus's counts (0, 1, 2; −1 missing) from its planes, to pair it with another ploidy. */
function countsOf(h: HardCalls, N: number): Int8Array {
  const p = h.planes!;
  const W = p.length / 3;
  const out = new Int8Array(N);
  for (let i = 0; i < N; i++) {
    const w = i >>> 5;
    const bit = 1 << (i & 31);
    out[i] = !(p[w]! & bit) ? -1 : !(p[W + w]! & bit) ? 1 : p[2 * W + w]! & bit ? 2 : 0;
  }
  return out;
}

/**
 * PLINK's --indep-pairwise, chromosome by chromosome (chromosomes.ts: loci of one chromosome in
 * file order). Constant loci go first. In each window, every locus still in (in order) is paired
 * with the later ones it has not been paired with yet, until a pair's r² exceeds the threshold:
 * of the two, the one whose major allele is more common (the smaller minor-allele frequency) is
 * removed — the later one on a tie within 2⁻⁴⁴ — and the scan moves to the next locus; sweeps of
 * the window repeat until one removes nothing. The window then moves on by `step` loci (or, in kb,
 * to the first start that takes in the next locus), keeping what it has not removed.
 * Windows in kb need positions that do not decrease within a chromosome.
 */
export function indepPairwise(data: GenotypeData, o: PairwisePruning, useWasm = true): PruneResult {
  const problem = pairwisePruningProblem(o);
  if (problem) throw new RangeError(`--indep-pairwise: ${problem}`);
  const N = data.individuals.length;
  const removed = new Uint8Array(data.loci.length);
  const size = o.kb ? o.window * 1000 : o.window;
  const counter = pairCounter(N, useWasm);
  // Where the counter keeps copies and no locus of another ploidy needs a diploid locus's planes
  // (countsOf), one array serves every locus.
  const shared =
    counter.copies && data.loci.every((_, l) => locusPloidy(data, l) === 2)
      ? new Uint32Array(3 * planeWords(N))
      : undefined;
  for (const run of chromosomeRuns(data)) {
    const n = run.loci.length;
    const pos = (t: number) => data.loci[run.loci[t]!]!.pos!;
    if (o.kb)
      for (let t = 0; t < n; t++) {
        const p = data.loci[run.loci[t]!]!.pos;
        if (p === undefined)
          throw new RangeError(`--indep-pairwise in kb: locus ${data.loci[run.loci[t]!]!.name} has no position`);
        if (t > 0 && p < pos(t - 1))
          throw new RangeError(
            `--indep-pairwise in kb: positions decrease on chromosome ${run.chrom} at locus ${data.loci[run.loci[t]!]!.name} (${p} after ${pos(t - 1)}); sort the file by position`,
          );
      }
    // Per locus of the chromosome: its slot in the counter (−1: none) and major-allele frequency;
    // its hard calls only where a pair may need them in JavaScript (loci of other ploidies).
    const slotOf = new Int32Array(n).fill(-1);
    const frequencyOf = new Float64Array(n);
    const held: (HardCalls | undefined)[] = shared ? [] : new Array<HardCalls | undefined>(n);
    const gone = new Uint8Array(n);
    const unchecked = new Int32Array(n);
    let window: number[] = [];
    const release = (t: number) => {
      if (slotOf[t]! >= 0) counter.free(slotOf[t]!);
      slotOf[t] = -1;
      if (!shared) held[t] = undefined;
    };
    const load = (from: number, to: number) => {
      for (let t = from; t < to; t++) {
        const l = run.loci[t]!;
        let summary: HardCalls;
        if (data.packed && counter.putPacked) {
          // Straight from the .bed's bytes into the counter's memory.
          slotOf[t] = counter.putPacked(data.packed, l);
          const c = counter.packedCounts!;
          summary = diploidSummary(c[0]!, c[1]!, c[2]!);
        } else {
          summary = hardCalls(data, l, shared);
          if (summary.planes && !summary.constant) slotOf[t] = counter.put(summary.planes);
          if (!shared) held[t] = summary;
        }
        unchecked[t] = t + 1;
        frequencyOf[t] = summary.majorFrequency;
        if (summary.constant) {
          gone[t] = 1;
          release(t);
        } else window.push(t);
      }
    };
    /** Whether the pair's r² exceeds the threshold (the kernel where both have slots). */
    const linked = (a: number, b: number): boolean =>
      slotOf[a]! >= 0 && slotOf[b]! >= 0
        ? counter.linked(slotOf[a]!, slotOf[b]!, o.r2)
        : exceeds(held[a]!, held[b]!, o.r2, N);
    let start = 0;
    let end = o.kb ? firstBeyond(0, 1, n, pos, size) : Math.min(n, size);
    load(0, end);
    for (;;) {
      let removedBefore: number;
      let removedNow = 0;
      do {
        removedBefore = removedNow;
        for (let f = 0; f < window.length; f++) {
          const first = window[f]!;
          if (gone[first] || unchecked[first]! >= end) continue;
          // The first locus still in from the first one not yet paired with `first` (the window
          // holds its loci in order, each after `first`'s position).
          let s = firstAtLeast(window, unchecked[first]!);
          while (s < window.length && gone[window[s]!]) s++;
          if (s === window.length) continue;
          for (;;) {
            const second = window[s]!;
            if (linked(first, second)) {
              removedNow++;
              if (frequencyOf[first]! > frequencyOf[second]! * (1 + TIE)) gone[first] = 1;
              else {
                gone[second] = 1;
                let next = s + 1;
                while (next < window.length && gone[window[next]!]) next++;
                unchecked[first] = next < window.length ? window[next]! : end;
              }
              break;
            }
            s++;
            while (s < window.length && gone[window[s]!]) s++;
            if (s === window.length) {
              unchecked[first] = end;
              break;
            }
          }
        }
      } while (removedNow > removedBefore);
      if (end === n) break;
      const before = end;
      if (o.kb) {
        // The next start takes in the locus beyond the window; the end then reaches as far as it allows.
        do start++;
        while (pos(start) < pos(end) - size);
        end = firstBeyond(start, end + 1, n, pos, size);
      } else {
        start += o.step;
        end = Math.min(start + size, n);
      }
      window = window.filter((t) => {
        const keep = !gone[t] && t >= start;
        if (!keep) release(t);
        return keep;
      });
      load(before, end);
    }
    for (const t of window) release(t);
    run.loci.forEach((l, t) => (removed[l] = gone[t]!));
  }
  return pruneResult(removed);
}

/** The first index of the ascending `sorted` whose value is at least `value` (its length if none). */
function firstAtLeast(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The loci kept and removed, from a flag per locus (1: removed). */
function pruneResult(removed: Uint8Array): PruneResult {
  const kept: number[] = [];
  const out: number[] = [];
  removed.forEach((r, l) => (r ? out : kept).push(l));
  return { kept, removed: out };
}

/** The first index from `from` whose position is beyond pos(start) + size (or n). */
function firstBeyond(start: number, from: number, n: number, pos: (t: number) => number, size: number): number {
  let t = from;
  while (t < n && pos(t) <= pos(start) + size) t++;
  return t;
}

/**
 * PLINK's --bp-space D (Stacks' one SNP per tag, with D a tag's length): per chromosome, in file
 * order, keeps a locus only when it lies at least D bases after the last one kept. Loci without a
 * position are kept.
 */
export function thinByDistance(data: GenotypeData, bases: number): PruneResult {
  if (!Number.isInteger(bases) || bases < 1)
    throw new RangeError(`--thin-bp takes a whole number of bases, 1 or more, got ${bases}`);
  const removed = new Uint8Array(data.loci.length);
  for (const run of chromosomeRuns(data)) {
    let last = -Infinity;
    for (const l of run.loci) {
      const p = data.loci[l]!.pos;
      if (p === undefined) continue;
      if (p - last < bases) removed[l] = 1;
      else last = p;
    }
  }
  return pruneResult(removed);
}
