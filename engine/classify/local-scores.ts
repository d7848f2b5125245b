import type { Score } from '../util/choices.ts';
import type { CategoricalData } from './categorical.ts';
import { acllBetaCached } from './acll.ts';
import { BIT_SET_STATES, searchKernel, type SearchKernel, type SubsetChoice } from './search-kernel.ts';

/**
 * Decomposable structure scores: log-likelihood, BIC/MDL, K2 (Bayesian Dirichlet, α = 1), the
 * approximate conditional log-likelihood with its closed-form parameters (âCLL, seed 000
 * equation 28; the class term is common to every structure and left out), and ACL with its three
 * parameter settings (seed 004).
 */
export type { Score };

/** Laplacian smoothing constant e of the ACL parameters. */
export const ACL_SMOOTHING = 1;
/** Pseudo-count of âCLL's parameters. */
const ACLL_PSEUDO = 0.5;
/** âCLL's logarithms are tabled by (own, total) counts up to this many rows ((N + 1)² values). */
const ACLL_TABLED_ROWS = 1024;
/** Count tables up to this many cells are dense; larger ones (many-state features) are hashed. */
const DENSE_CELLS = 1 << 16;

/**
 * φ_i(Π ∪ {C}), the local score of feature i with feature parents Π (the class is always a parent),
 * from the labelled rows where i is observed; a missing parent is one more state. A structure
 * search scores millions of (feature, parents) pairs, so the scorer keeps, once per dataset, each
 * feature's column (missing as its extra state) and the rows that count for it, and per call only
 * touches the table cells its rows fill: n log n, ln Γ and the âCLL/ACL logarithms of whole counts
 * come from tables, and a call costs a pass over the rows plus the occupied cells.
 */
export class LocalScorer {
  private readonly K: number;
  /** Feature-major columns: cols[i·N + row] = state, a missing value as states[i]. */
  private readonly cols: Int16Array;
  /** Per feature, the labelled rows where it is observed. */
  private readonly rowsOf: Int32Array[];
  /** (n+1) ln(n+1) − n ln n. */
  private readonly xlogxStep: Float64Array;
  /** ln(n + 1) = ln Γ(n + 2) − ln Γ(n + 1). */
  private readonly logNext: Float64Array;
  private readonly logR = new Map<number, Float64Array>();
  private readonly table: Int32Array;
  private readonly configCount: Int32Array;
  private readonly touched: Int32Array;
  private readonly touchedConfigs: Int32Array;
  private readonly hashed = new Map<number, number>();
  private readonly hashedConfigs = new Map<number, number>();
  /** Configurations' places in `table` when the conditional scores' tables are not dense. */
  private readonly slot = new Map<number, number>();
  /** Scratch of one configuration, per state: totals over classes, weights, θ. */
  private readonly stateTotals: Float64Array;
  private readonly weights: Float64Array;
  private readonly thetas: Float64Array;
  /** ln n for whole n up to N + (most states + 1)·e. */
  private readonly lnInt: Float64Array;
  /**
   * ACL's weight of the other classes' counts, per feature and class: n_c / n_¬c over the rows
   * that count for the feature (0 where no other class has any).
   */
  private readonly restWeights: Float64Array;
  /**
   * âCLL's constants, and ln max(½, α·own + β·(m − own)) tabled for whole counts own, m ≤ N
   * (at [own · (N + 1) + m]) where N ≤ ACLL_TABLED_ROWS.
   */
  private readonly acll?: { alpha: number; beta: number; logWeight?: Float64Array };
  /**
   * The WebAssembly kernels, where they run: ACL's written-out case (dense tables, at most two
   * parents; the same bits) and whole searches (ACL counting rows; every score on bit sets).
   */
  private readonly kernel?: SearchKernel;
  /** The dataset's arrays, held here so the hot loops read one object shape (datasets differ in theirs). */
  private readonly N: number;
  private readonly labels: Int32Array;
  private readonly states: Int32Array;

  /** How a whole search counts in WebAssembly: bit sets where they run (the default), or rows. */
  private readonly searchBy: 'bits' | 'rows';

  /**
   * `wasm: false` keeps every score in JavaScript (for comparing the two; the default takes
   * WebAssembly where it runs); `search: 'rows'` keeps whole searches off the bit sets (tests:
   * ACL's then count rows, the other scores search subset by subset).
   */
  constructor(
    d: CategoricalData,
    private readonly kind: Score,
    options: { readonly wasm?: boolean; readonly search?: 'bits' | 'rows' } = {},
  ) {
    this.searchBy = options.search ?? 'bits';
    const { N, n, labels, values, states } = d;
    this.N = N;
    this.labels = labels;
    this.states = states;
    this.K = d.classes.length;
    this.cols = new Int16Array(n * N);
    this.rowsOf = [];
    const classSizes = new Float64Array(n * this.K);
    this.restWeights = new Float64Array(n * this.K);
    for (let i = 0; i < n; i++) {
      const rows: number[] = [];
      for (let row = 0; row < N; row++) {
        const v = values[row * n + i]!;
        this.cols[i * N + row] = v < 0 ? states[i]! : v;
        if (labels[row]! >= 0 && v >= 0) {
          rows.push(row);
          classSizes[i * this.K + labels[row]!]!++;
        }
      }
      this.rowsOf.push(Int32Array.from(rows));
      for (let c = 0; c < this.K; c++) {
        const own = classSizes[i * this.K + c]!;
        const rest = rows.length - own;
        this.restWeights[i * this.K + c] = rest > 0 ? own / rest : 0;
      }
    }
    const xlogx = (c: number) => (c > 0 ? c * Math.log(c) : 0);
    this.xlogxStep = Float64Array.from({ length: N + 1 }, (_, c) => xlogx(c + 1) - xlogx(c));
    this.logNext = Float64Array.from({ length: N + 1 }, (_, c) => Math.log(c + 1));
    let widest = 0;
    for (let i = 0; i < n; i++) widest = Math.max(widest, states[i]!);
    // Dense tables, or (conditional scores of large configurations) one K × r table per row at most.
    this.table = new Int32Array(Math.max(DENSE_CELLS, N * this.K * widest));
    this.stateTotals = new Float64Array(widest);
    this.weights = new Float64Array(widest);
    this.thetas = new Float64Array(widest);
    this.lnInt = Float64Array.from({ length: N + (widest + 2) * ACL_SMOOTHING + 1 }, (_, v) => Math.log(v));
    this.configCount = new Int32Array(DENSE_CELLS);
    this.touched = new Int32Array(Math.max(1, N));
    this.touchedConfigs = new Int32Array(Math.max(1, N));
    if (kind === 'acll') {
      const beta = acllBetaCached(this.K);
      const alpha = 1 + beta;
      const logWeight =
        N <= ACLL_TABLED_ROWS
          ? Float64Array.from({ length: (N + 1) * (N + 1) }, (_, k) => {
              const own = Math.floor(k / (N + 1));
              return Math.log(Math.max(ACLL_PSEUDO, alpha * own + beta * ((k % (N + 1)) - own)));
            })
          : undefined;
      this.acll = { alpha, beta, ...(logWeight ? { logWeight } : {}) };
    }
    // ACL's kernel scores single sets too; the others' only searches, on bit sets.
    if (options.wasm !== false && (kind === 'acl' || widest + 1 <= BIT_SET_STATES)) {
      const wasm = searchKernel({
        N,
        K: this.K,
        cols: this.cols,
        rowsOf: this.rowsOf,
        labels,
        states,
        lnInt: this.lnInt,
        restWeights: this.restWeights,
        widest,
        denseCells: DENSE_CELLS,
        ...(this.acll ? { acll: this.acll } : {}),
      });
      if (wasm) this.kernel = wasm;
    }
  }

  /** φ_i(parents ∪ {C}). */
  score(i: number, parents: readonly number[]): number {
    const k = this.kind;
    if (k === 'acll' || k === 'acl' || k === 'acl-mid' || k === 'acl-max') return this.conditionalScore(i, parents);
    return this.jointScore(i, parents);
  }

  /**
   * BCkG's search for feature i in one WebAssembly call where it runs (k ≤ 2; ACL with every
   * pair's table dense, or any score on bit sets): the subset of at most k candidates, visited in
   * lexicographic order of their positions, of the highest score (the first of equals within
   * 1e-12), as scoring each subset with {@link score} would choose it (skipping what
   * {@link bound} skips). ACL counting rows gives score's bits; on bit sets (features of at most
   * BIT_SET_STATES states with missing) the same scores to rounding. Undefined otherwise: the
   * caller searches subset by subset.
   */
  searchSubsets(i: number, candidates: readonly number[], k: number): SubsetChoice | undefined {
    const kernel = this.kernel;
    if (!kernel || k > 2) return undefined;
    if (kernel.searchBits && this.searchBy === 'bits') return kernel.searchBits(this.kind, i, candidates, k);
    if (this.kind !== 'acl') return undefined;
    let widest = 1;
    for (const j of candidates) widest = Math.max(widest, this.states[j]! + 1);
    if (widest * widest * this.K * this.states[i]! > DENSE_CELLS) return undefined;
    return kernel.search(i, candidates, k);
  }

  /** Configurations of (class, parents): K · Π (states_p + 1). */
  private configs(parents: readonly number[]): number {
    let q = this.K;
    for (let m = 0; m < parents.length; m++) q *= this.states[parents[m]!]! + 1;
    return q;
  }

  /**
   * LL, BIC, K2: counts N(x_i, c, Π) by (class, parents) configuration, the score kept as the rows
   * come in. LL = Σ_cells n ln n − Σ_configs m ln m; K2 = Σ_cells ln Γ(1 + n) + Σ_configs (ln Γ(r) −
   * ln Γ(r + m)). A count going from n to n + 1 changes them by a tabled difference: (n+1) ln(n+1) −
   * n ln n or ln(n + 1) for a cell, and the same or −ln(r + m) for its configuration.
   */
  private jointScore(i: number, parents: readonly number[]): number {
    const { cols, table, configCount, touched, labels, states } = this;
    const N = this.N;
    const r = states[i]!;
    const rows = this.rowsOf[i]!;
    const configs = this.configs(parents);
    if (configs * r > DENSE_CELLS) return this.hashedJointScore(i, parents, configs);
    const k2 = this.kind === 'k2';
    const cellStep = k2 ? this.logNext : this.xlogxStep;
    const configStep = k2 ? this.logStep(r) : this.xlogxStep;
    const P = parents.length;
    const p0 = P > 0 ? parents[0]! * N : 0;
    const p1 = P > 1 ? parents[1]! * N : 0;
    const s0 = P > 0 ? states[parents[0]!]! + 1 : 0;
    const s1 = P > 1 ? states[parents[1]!]! + 1 : 0;
    const xi = i * N;
    let s = 0;
    for (let t = 0; t < rows.length; t++) {
      const row = rows[t]!;
      let q = labels[row]!;
      if (P > 0) q = q * s0 + cols[p0 + row]!;
      if (P > 1) q = q * s1 + cols[p1 + row]!;
      for (let m = 2; m < P; m++) q = q * (states[parents[m]!]! + 1) + cols[parents[m]! * N + row]!;
      const cell = q * r + cols[xi + row]!;
      touched[t] = cell;
      s += cellStep[table[cell]!]! - configStep[configCount[q]!]!;
      table[cell]!++;
      configCount[q]!++;
    }
    for (let t = 0; t < rows.length; t++) {
      const cell = touched[t]!;
      table[cell] = 0;
      configCount[(cell / r) | 0] = 0;
    }
    if (this.kind === 'bic') s -= this.penalty(i, configs);
    return s;
  }

  /** BIC's penalty of feature i with `configs` (class, parents) configurations: ½ ln n · configs · (r − 1). */
  penalty(i: number, configs: number): number {
    return 0.5 * Math.log(Math.max(1, this.rowsOf[i]!.length)) * configs * (this.states[i]! - 1);
  }

  /**
   * An upper bound of φ_i(parents ∪ {C}) and of every superset's, or +∞: for BIC, −penalty (the
   * log-likelihood is at most 0 and the penalty grows with each parent); for LL, 0 (reached once
   * every configuration holds one state). A search may skip a subset, and all it would extend,
   * whose bound is not above the best score found.
   */
  bound(i: number, parents: readonly number[]): number {
    if (this.kind === 'bic') return -this.penalty(i, this.configs(parents));
    return this.kind === 'll' ? 0 : Infinity;
  }

  /** ln(r + m) for m = 0..N: K2's change of a configuration's term as its count grows (negated). */
  private logStep(r: number): Float64Array {
    let t = this.logR.get(r);
    if (!t) this.logR.set(r, (t = Float64Array.from({ length: this.N + 1 }, (_, m) => Math.log(r + m))));
    return t;
  }

  /**
   * {@link jointScore} for tables too large to hold densely (features with many states): the same
   * tabled steps, counts in maps.
   */
  private hashedJointScore(i: number, parents: readonly number[], configs: number): number {
    const { cols, labels, states, hashed, hashedConfigs } = this;
    const N = this.N;
    const r = states[i]!;
    const rows = this.rowsOf[i]!;
    const k2 = this.kind === 'k2';
    const cellStep = k2 ? this.logNext : this.xlogxStep;
    const configStep = k2 ? this.logStep(r) : this.xlogxStep;
    hashed.clear();
    hashedConfigs.clear();
    let s = 0;
    for (const row of rows) {
      let q = labels[row]!;
      for (const p of parents) q = q * (states[p]! + 1) + cols[p * N + row]!;
      const cell = q * r + cols[i * N + row]!;
      const n = hashed.get(cell) ?? 0;
      const m = hashedConfigs.get(q) ?? 0;
      s += cellStep[n]! - configStep[m]!;
      hashed.set(cell, n + 1);
      hashedConfigs.set(q, m + 1);
    }
    if (this.kind === 'bic') s -= this.penalty(i, configs);
    return s;
  }

  /**
   * âCLL and ACL: per parent configuration (without the class) its (class, state) table. âCLL:
   * Σ_{q,c,x} w ln(w⁺ / Σ_x w⁺), w = αN_qcx + βΣ_{c'≠c}N_qc'x, w⁺ = max(½, w). ACL (one class against
   * the rest, Burge & Lane 2005, seed 004): ln PACL_c = Σ_{q,x} (N_cqx − N̄_cqx) ln θ^c_qx with the
   * extra-class counts weighted to the class's size, N̄_cqx = (n_c / n_¬c) Σ_{c'≠c} N_c'qx, and
   * θ ∝ N + e (acl), max(N − N̄, 0) + e (acl-max) or N − N̄ − min_x'(N − N̄) + e (acl-mid).
   */
  private conditionalScore(i: number, parents: readonly number[]): number {
    const { cols, touchedConfigs, labels, states, table, slot } = this;
    const N = this.N;
    const K = this.K;
    const r = states[i]!;
    const rows = this.rowsOf[i]!;
    const width = K * r;
    let configs = 1;
    for (const p of parents) configs *= states[p]! + 1;
    const dense = configs * width <= DENSE_CELLS;
    if (dense && parents.length <= 2 && this.kernel && this.kind === 'acl') return this.kernel.score(i, parents);
    if (!dense) slot.clear();
    let nConfigs = 0;
    const xi = i * N;
    const np = parents.length;
    if (dense && np <= 2) {
      // Dense tables of at most two parents (most searches' sets): the fill alone in its loop,
      // the configuration keyed without the general loop over parents.
      const at0 = np > 0 ? parents[0]! * N : 0;
      const at1 = np > 1 ? parents[1]! * N : 0;
      const radix1 = np > 1 ? states[parents[1]!]! + 1 : 1;
      const counted = this.configCount;
      for (let t = 0; t < rows.length; t++) {
        const row = rows[t]!;
        const q = np === 0 ? 0 : np === 1 ? cols[at0 + row]! : cols[at0 + row]! * radix1 + cols[at1 + row]!;
        if (counted[q] === 0) {
          counted[q] = 1;
          touchedConfigs[nConfigs++] = q;
        }
        table[q * width + labels[row]! * r + cols[xi + row]!]!++;
      }
    } else
      for (let t = 0; t < rows.length; t++) {
        const row = rows[t]!;
        let q = 0;
        for (let m = 0; m < np; m++) q = q * (states[parents[m]!]! + 1) + cols[parents[m]! * N + row]!;
        let base: number;
        if (dense) {
          base = q * width;
          if (this.configCount[q] === 0) {
            this.configCount[q] = 1;
            touchedConfigs[nConfigs++] = q;
          }
        } else {
          let at = slot.get(q);
          if (at === undefined) {
            slot.set(q, (at = nConfigs));
            touchedConfigs[nConfigs++] = q;
          }
          base = at * width;
        }
        table[base + labels[row]! * r + cols[xi + row]!]!++;
      }
    let s = 0;
    const restWeights = this.restWeights;
    const wAt = i * K;
    const M = this.stateTotals;
    const acl = this.kind === 'acl';
    const lnInt = this.lnInt;
    for (let t = 0; t < nConfigs; t++) {
      const q = touchedConfigs[t]!;
      const base = dense ? q * width : t * width;
      if (dense) this.configCount[q] = 0;
      // M_x = Σ_c N_cx: the other classes' count of state x is M_x − N_cx.
      for (let x = 0; x < r; x++) {
        let m = 0;
        for (let c = 0; c < K; c++) m += table[base + c * r + x]!;
        M[x] = m;
      }
      if (acl) {
        // ACL with ML parameters, written out here (the hot case): θ_x = (N_cx + e)/(N_c + r·e),
        // both whole numbers (e = 1), logarithms from the table; the same sums in the same order
        // as aclConfig (a configuration's terms summed, then added).
        let sc = 0;
        for (let c = 0; c < K; c++) {
          const weight = restWeights[wAt + c]!;
          const at = base + c * r;
          let own = 0;
          for (let x = 0; x < r; x++) own += table[at + x]!;
          const logSum = lnInt[own + r * ACL_SMOOTHING]!;
          for (let x = 0; x < r; x++) {
            const n = table[at + x]!;
            const diff = n - weight * (M[x]! - n);
            if (diff !== 0) sc += diff * (lnInt[n + ACL_SMOOTHING]! - logSum);
          }
        }
        s += sc;
      } else
        s +=
          this.kind === 'acll'
            ? this.acllConfig(table, base, r, M)
            : this.aclConfig(table, base, r, M, restWeights.subarray(wAt, wAt + K));
      for (let x = base; x < base + width; x++) table[x] = 0;
    }
    return s;
  }

  /** One parent configuration's âCLL terms (its K × r table at base; M its state totals). */
  private acllConfig(t: Int32Array, base: number, r: number, M: Float64Array): number {
    const K = this.K;
    const { alpha, beta, logWeight } = this.acll!;
    const w = this.weights;
    const stride = this.N + 1;
    let s = 0;
    for (let c = 0; c < K; c++) {
      let sum = 0;
      for (let x = 0; x < r; x++) {
        const own = t[base + c * r + x]!;
        const v = alpha * own + beta * (M[x]! - own);
        w[x] = v;
        sum += Math.max(ACLL_PSEUDO, v);
      }
      const logSum = Math.log(sum);
      for (let x = 0; x < r; x++) {
        const v = w[x]!;
        if (v === 0) continue;
        // The same logarithm, tabled by the two whole counts it depends on where N is small.
        const logV = logWeight ? logWeight[t[base + c * r + x]! * stride + M[x]!]! : Math.log(Math.max(ACLL_PSEUDO, v));
        s += v * (logV - logSum);
      }
    }
    return s;
  }

  /**
   * One parent configuration's ACL-Mid or ACL-Max terms, summed over classes (one against the
   * rest): weights w_x = N_cx − N̄_cx and unnormalised θ_x as the variant says (ACL with ML
   * parameters is written out in conditionalScore).
   */
  private aclConfig(t: Int32Array, base: number, r: number, M: Float64Array, restWeights: Float64Array): number {
    const K = this.K;
    const kind = this.kind;
    const w = this.weights;
    const theta = this.thetas;
    let s = 0;
    for (let c = 0; c < K; c++) {
      const weight = restWeights[c]!;
      const at = base + c * r;
      let minDiff = Infinity;
      for (let x = 0; x < r; x++) {
        const own = t[at + x]!;
        const diff = own - weight * (M[x]! - own);
        w[x] = diff;
        if (diff < minDiff) minDiff = diff;
      }
      let sum = 0;
      for (let x = 0; x < r; x++) {
        const th = kind === 'acl-max' ? Math.max(w[x]!, 0) + ACL_SMOOTHING : w[x]! - minDiff + ACL_SMOOTHING;
        theta[x] = th;
        sum += th;
      }
      const logSum = Math.log(sum);
      for (let x = 0; x < r; x++) if (w[x] !== 0) s += w[x]! * (Math.log(theta[x]!) - logSum);
    }
    return s;
  }
}
