import { SEARCH_SCORES_WASM } from './generated/search-scores-wasm.ts';
import { compileBase64 } from '../util/wasm-module.ts';
import type { Score } from '../util/choices.ts';

/** The arrays of a LocalScorer the kernel reads. */
export interface ScorerArrays {
  readonly N: number;
  readonly K: number;
  /** Feature-major columns, a missing value as the feature's states. */
  readonly cols: Int16Array;
  /** Per feature, its labelled rows where it is observed. */
  readonly rowsOf: readonly Int32Array[];
  readonly labels: Int32Array;
  /** States per feature (a missing value is one more). */
  readonly states: Int32Array;
  readonly lnInt: Float64Array;
  readonly restWeights: Float64Array;
  /** The most states of a feature. */
  readonly widest: number;
  /** Cells of the dense table at most. */
  readonly denseCells: number;
  /** âCLL's constants and its table of ln max(½, α·own + β·(m − own)) at [own · (N + 1) + m], where the scorer has them. */
  readonly acll?: { readonly alpha: number; readonly beta: number; readonly logWeight?: Float64Array };
}

type KernelCall = (...args: number[]) => number;

/** Every score, by the bit-set search's numbers for them (search-scores.ts: ACL, LL, BIC, K2, ACLL, ACL_MID, ACL_MAX). */
const KERNEL_SCORE = { acl: 0, ll: 1, bic: 2, k2: 3, acll: 4, 'acl-mid': 5, 'acl-max': 6 } as const satisfies Record<
  Score,
  number
>;

/**
 * The bit-set search runs where every feature has at most this many states counting a missing
 * value (SNP genotypes: three and missing): a pair's cost there is its cells' popcounts, below a
 * pass over the rows; with more states the cells outnumber the rows.
 */
export const BIT_SET_STATES = 4;

/** The best subset of at most k candidates for a feature (positions in the candidates' list) and its score. */
export interface SubsetChoice {
  readonly positions: number[];
  readonly score: number;
}

/**
 * The structure searches' WebAssembly kernels over one scorer's arrays: ACL's local score, BCkG's
 * whole search for one feature (k ≤ 2) with ACL counting rows (`search`), and on row sets as bit
 * sets (`searchBits`, for any score, where every feature has at most BIT_SET_STATES states
 * counting a missing value).
 */
export interface SearchKernel {
  readonly score: (i: number, parents: readonly number[]) => number;
  readonly search: (i: number, candidates: readonly number[], k: number) => SubsetChoice;
  readonly searchBits?: (score: Score, i: number, candidates: readonly number[], k: number) => SubsetChoice;
}

let compiled: WebAssembly.Module | null | undefined;

/**
 * The {@link SearchKernel} of a scorer's arrays (scripts/kernels/assembly/search-scores.ts), over a
 * memory holding them. Undefined where WebAssembly is missing.
 */
export function searchKernel(a: ScorerArrays): SearchKernel | undefined {
  if (compiled === undefined) compiled = compileBase64(SEARCH_SCORES_WASM);
  if (!compiled) return undefined;
  const { N, K, cols, rowsOf, labels, states, lnInt, restWeights } = a;
  let bytes = 0;
  const place = (n: number) => {
    const at = bytes;
    bytes += Math.ceil(n / 16) * 16;
    return at;
  };
  const at = {
    cols: place(cols.byteLength),
    labels: place(labels.byteLength),
    lnInt: place(lnInt.byteLength),
    weights: place(restWeights.byteLength),
    rows: rowsOf.map((r) => place(r.byteLength)),
    table: place(4 * a.denseCells),
    counted: place(4 * a.denseCells),
    touched: place(4 * Math.max(1, N)),
    M: place(8 * Math.max(1, a.widest)),
    states: place(4 * states.length),
    cand: place(4 * Math.max(1, states.length)),
    out: place(12),
  };
  const scoring = bytes;
  // A whole search's scratch (each candidate's states or row sets) comes after, allocated by the
  // first search: a scorer that only scores single sets (TAN, kDB) does not hold it.
  const bits = a.widest + 1 <= BIT_SET_STATES ? bitScratch(place, a) : undefined;
  const bitsEnd = bytes;
  const searchAt = {
    codes: place(2 * Math.max(1, states.length * N)),
    cells: place(4 * Math.max(1, N)),
  };
  const rowsEnd = bytes;
  // The module declares a maximum (scripts/kernels/wasm-search-scores.mjs: --maximumMemory 65536 pages).
  const memory = new WebAssembly.Memory({ initial: Math.ceil(scoring / 65536) + 1, maximum: 65536 });
  const buffer = memory.buffer;
  new Int16Array(buffer, at.cols, cols.length).set(cols);
  new Int32Array(buffer, at.labels, labels.length).set(labels);
  new Float64Array(buffer, at.lnInt, lnInt.length).set(lnInt);
  new Float64Array(buffer, at.weights, restWeights.length).set(restWeights);
  rowsOf.forEach((r, i) => new Int32Array(buffer, at.rows[i]!, r.length).set(r));
  new Int32Array(buffer, at.states, states.length).set(states);
  /** Grows the memory to hold `end` bytes; the candidates' and result's views of the (new) buffer. */
  const views = (end: number) => {
    const pages = Math.ceil(end / 65536) + 1 - memory.buffer.byteLength / 65536;
    if (pages > 0) memory.grow(pages);
    return {
      cand: new Int32Array(memory.buffer, at.cand, Math.max(1, states.length)),
      out: new Int32Array(memory.buffer, at.out, 3),
    };
  };
  const exports = new WebAssembly.Instance(compiled, { env: { memory, log: Math.log } }).exports;
  const score = exports['aclScore'] as KernelCall;
  const searchOne = exports['aclSearch'] as KernelCall;
  const scoreOne = (i: number, parents: readonly number[]) => {
    const np = parents.length;
    const p0 = np > 0 ? parents[0]! : 0;
    const p1 = np > 1 ? parents[1]! : 0;
    return score(
      at.cols,
      N,
      at.rows[i]!,
      rowsOf[i]!.length,
      at.labels,
      at.lnInt,
      at.weights,
      at.table,
      at.counted,
      at.touched,
      at.M,
      i,
      np,
      p0,
      p1,
      np > 1 ? states[p1]! + 1 : 1,
      states[i]!,
      K,
    );
  };
  const search = (i: number, candidates: readonly number[], k: number): SubsetChoice => {
    const { cand, out } = views(rowsEnd);
    cand.set(candidates);
    const best = searchOne(
      at.cols,
      N,
      at.rows[i]!,
      rowsOf[i]!.length,
      at.labels,
      at.lnInt,
      at.weights,
      at.table,
      at.counted,
      at.touched,
      at.M,
      i,
      states[i]!,
      K,
      k,
      at.cand,
      candidates.length,
      at.states,
      searchAt.codes,
      searchAt.cells,
      at.out,
    );
    return { positions: Array.from(out.subarray(1, 1 + out[0]!)), score: best };
  };
  const searchBits = exports['searchBits'] as KernelCall;
  let logWeightPlaced = false;
  const searchOnBits =
    bits &&
    ((score: Score, i: number, candidates: readonly number[], k: number): SubsetChoice => {
      const { cand, out } = views(bitsEnd);
      const logWeight = a.acll?.logWeight;
      if (logWeight && !logWeightPlaced) {
        new Float64Array(memory.buffer, bits.logWeight, logWeight.length).set(logWeight);
        logWeightPlaced = true;
      }
      cand.set(candidates);
      const best = searchBits(
        KERNEL_SCORE[score],
        at.cols,
        N,
        at.rows[i]!,
        rowsOf[i]!.length,
        at.labels,
        at.lnInt,
        at.weights,
        at.states,
        i,
        states[i]!,
        K,
        k,
        at.cand,
        candidates.length,
        bits.R,
        bits.S,
        bits.B,
        bits.filled,
        bits.ents,
        bits.gl,
        bits.hl,
        bits.Mx,
        bits.lw,
        a.acll?.alpha ?? 0,
        a.acll?.beta ?? 0,
        bits.logWeight,
        bits.cnt,
        bits.th,
        at.out,
      );
      return { positions: Array.from(out.subarray(1, 1 + out[0]!)), score: best };
    });
  return { score: scoreOne, search, ...(searchOnBits ? { searchBits: searchOnBits } : {}) };
}

/** The bit-set search's scratch (searchBits), for R = the widest feature's states + 1. */
function bitScratch(place: (bytes: number) => number, a: ScorerArrays) {
  const R = a.widest + 1;
  // searchBits's words per row set: two up to 128 rows.
  const W = a.N <= 128 ? 2 : Math.ceil(a.N / 64);
  const n = a.states.length;
  const r = a.widest;
  return {
    R,
    S: place(8 * a.K * r * W),
    B: place(8 * n * R * W),
    filled: place(4 * n * R),
    ents: place(8 * R * a.K * r * W),
    gl: place(16 * a.K * (a.N + 1)),
    hl: place(16 * a.K * (a.N + 1)),
    Mx: place(4 * r),
    lw: place(8 * r),
    th: place(8 * r),
    cnt: place(4 * a.K * r),
    logWeight: a.acll?.logWeight ? place(a.acll.logWeight.byteLength) : 0,
  };
}
