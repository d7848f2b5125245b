import type { Score } from '../util/choices.ts';
import { logGamma } from '../util/log-math.ts';
import type { CategoricalData } from './categorical.ts';
import { acllBetaCached } from './acll.ts';
import { sahamiOrder, tanParents, type Parents } from './network-structure.ts';

/**
 * Decomposable structure scores: log-likelihood, BIC/MDL, K2 (Bayesian Dirichlet, α = 1), the
 * approximate conditional log-likelihood with its closed-form parameters (âCLL, seed 000
 * equation 28; the class term is common to every structure and left out), and ACL with its three
 * parameter settings (seed 004).
 */
export type { Score };

/**
 * φ_i(Π ∪ {C}): the local score of feature i with feature parents Π (the class is always a
 * parent), from the labelled rows where i is observed; a missing parent is one more state.
 * Counts are kept sparse, per occurring (class, parent configuration).
 */
export function localScore(d: CategoricalData, i: number, parents: readonly number[], score: Score): number {
  if (score === 'acll') return acllLocalScore(d, i, parents);
  if (score === 'acl' || score === 'acl-mid' || score === 'acl-max') return aclLocalScore(d, i, parents, score);
  const r = d.states[i]!;
  let configs = d.classes.length;
  for (const p of parents) configs *= d.states[p]! + 1;
  const rows = configs * r <= DENSE_CELLS ? denseCounts(d, i, parents, configs * r) : sparseCounts(d, i, parents);
  let s = 0;
  for (const t of rows.tables) {
    for (let o = 0; o < t.length; o += r) {
      let nj = 0;
      for (let x = 0; x < r; x++) nj += t[o + x]!;
      if (nj === 0) continue;
      if (score === 'k2') {
        s += logGamma(r) - logGamma(r + nj);
        for (let x = 0; x < r; x++) if (t[o + x]! > 0) s += logGamma(1 + t[o + x]!);
      } else for (let x = 0; x < r; x++) if (t[o + x]! > 0) s += t[o + x]! * Math.log(t[o + x]! / nj);
    }
  }
  if (score === 'bic') s -= 0.5 * Math.log(Math.max(1, rows.n)) * configs * (r - 1);
  return s;
}

/** Count tables up to this many cells are dense (one reused array); larger ones sparse. */
const DENSE_CELLS = 1 << 16;
const denseScratch = new Float64Array(DENSE_CELLS);

/** The (class, parent configuration) code of a row; a missing parent is one more state. */
function configCode(d: CategoricalData, row: number, parents: readonly number[]): number {
  let q = d.labels[row]!;
  for (const p of parents) {
    const v = d.values[row * d.n + p]!;
    q = q * (d.states[p]! + 1) + (v < 0 ? d.states[p]! : v);
  }
  return q;
}

/** Counts N(x_i, c, Π) as one dense array of `cells` = K · Q_Π · r_i entries. */
function denseCounts(
  d: CategoricalData,
  i: number,
  parents: readonly number[],
  cells: number,
): { tables: Float64Array[]; n: number } {
  const r = d.states[i]!;
  const t = denseScratch.subarray(0, cells);
  t.fill(0);
  let n = 0;
  for (let row = 0; row < d.N; row++) {
    const x = d.values[row * d.n + i]!;
    if (d.labels[row]! < 0 || x < 0) continue;
    t[configCode(d, row, parents) * r + x]!++;
    n++;
  }
  return { tables: [t], n };
}

/** Counts N(x_i, c, Π) kept per occurring (class, configuration): features with many states. */
function sparseCounts(
  d: CategoricalData,
  i: number,
  parents: readonly number[],
): { tables: Float64Array[]; n: number } {
  const r = d.states[i]!;
  const rows = new Map<number, Float64Array>();
  let n = 0;
  for (let row = 0; row < d.N; row++) {
    const x = d.values[row * d.n + i]!;
    if (d.labels[row]! < 0 || x < 0) continue;
    const q = configCode(d, row, parents);
    let t = rows.get(q);
    if (!t) rows.set(q, (t = new Float64Array(r)));
    t[x]!++;
    n++;
  }
  return { tables: [...rows.values()], n };
}

/** âCLL of feature i: Σ_{q,c,k} (αN_{qck} + βΣ_{c'≠c}N_{qc'k}) ln(N⁺_{qck} / Σ_k N⁺_{qck}). */
function acllLocalScore(d: CategoricalData, i: number, parents: readonly number[], pseudo = 0.5): number {
  const K = d.classes.length;
  const beta = acllBetaCached(K);
  const alpha = 1 + beta;
  const r = d.states[i]!;
  let s = 0;
  for (const t of classTables(d, i, parents).values()) {
    for (let c = 0; c < K; c++) {
      const w = new Float64Array(r);
      const plus = new Float64Array(r);
      let sum = 0;
      for (let x = 0; x < r; x++) {
        let others = 0;
        for (let c2 = 0; c2 < K; c2++) if (c2 !== c) others += t[c2 * r + x]!;
        w[x] = alpha * t[c * r + x]! + beta * others;
        plus[x] = Math.max(pseudo, w[x]!);
        sum += plus[x]!;
      }
      for (let x = 0; x < r; x++) if (w[x] !== 0) s += w[x]! * Math.log(plus[x]! / sum);
    }
  }
  return s;
}

/** Counts per parent configuration (without the class), each a (class, state) table K · r. */
function classTables(d: CategoricalData, i: number, parents: readonly number[]): Map<number, Float64Array> {
  const K = d.classes.length;
  const r = d.states[i]!;
  const rows = new Map<number, Float64Array>();
  for (let row = 0; row < d.N; row++) {
    const y = d.labels[row]!;
    const x = d.values[row * d.n + i]!;
    if (y < 0 || x < 0) continue;
    let q = 0;
    for (const p of parents) {
      const v = d.values[row * d.n + p]!;
      q = q * (d.states[p]! + 1) + (v < 0 ? d.states[p]! : v);
    }
    let t = rows.get(q);
    if (!t) rows.set(q, (t = new Float64Array(K * r)));
    t[y * r + x]!++;
  }
  return rows;
}

/** Laplacian smoothing constant e of the ACL parameters. */
export const ACL_SMOOTHING = 1;

/**
 * ACL (approximate conditional likelihood; Burge & Lane 2005, seed 004) of feature i, one versus
 * the rest: class c's network is rewarded for its own data and penalised for the other classes'
 * data, ln PACL_c = Σ_{q,k} (N_cqk − N̄_cqk) ln θ^c_qk, summed over classes. The extra-class counts
 * are weighted to the class's size, N̄_cqk = (n_c / n_¬c) Σ_{c'≠c} N_c'qk: with two classes of equal
 * size (the paper's experiments) exactly the paper's score; without the weight, six other classes
 * would outweigh a class six to one and ACL-Max would set almost every parameter to e. Parameters
 * (e = {@link ACL_SMOOTHING}, each row normalised):
 *   acl      ML: θ_k ∝ N_cqk + e (ACL-ML);
 *   acl-max  θ_k ∝ N_cqk − N̄_cqk + e where N_cqk > N̄_cqk, e elsewhere (ACL-Max, the paper's eq. 7);
 *   acl-mid  θ_k ∝ N_cqk − N̄_cqk − min_k'(N_cqk' − N̄_cqk') + e (ACL-Mid, eq. 8: only the state most
 *            over-represented in the extra-class data falls to e, the others keep their order).
 */
function aclLocalScore(
  d: CategoricalData,
  i: number,
  parents: readonly number[],
  score: 'acl' | 'acl-mid' | 'acl-max',
): number {
  const K = d.classes.length;
  const r = d.states[i]!;
  const classSize = new Float64Array(K);
  let labelled = 0;
  for (let row = 0; row < d.N; row++)
    if (d.labels[row]! >= 0 && d.values[row * d.n + i]! >= 0) {
      classSize[d.labels[row]!]!++;
      labelled++;
    }
  const own = new Float64Array(r);
  const extra = new Float64Array(r);
  const theta = new Float64Array(r);
  let s = 0;
  for (const t of classTables(d, i, parents).values()) {
    for (let c = 0; c < K; c++) {
      const rest = labelled - classSize[c]!;
      const weight = rest > 0 ? classSize[c]! / rest : 0;
      let minDiff = Infinity;
      for (let x = 0; x < r; x++) {
        own[x] = t[c * r + x]!;
        let others = 0;
        for (let c2 = 0; c2 < K; c2++) if (c2 !== c) others += t[c2 * r + x]!;
        extra[x] = weight * others;
        minDiff = Math.min(minDiff, own[x]! - extra[x]!);
      }
      let sum = 0;
      for (let x = 0; x < r; x++) {
        const diff = own[x]! - extra[x]!;
        theta[x] =
          score === 'acl'
            ? own[x]! + ACL_SMOOTHING
            : score === 'acl-max'
              ? Math.max(diff, 0) + ACL_SMOOTHING
              : diff - minDiff + ACL_SMOOTHING;
        sum += theta[x]!;
      }
      for (let x = 0; x < r; x++) {
        const w = own[x]! - extra[x]!;
        if (w !== 0) s += w * Math.log(theta[x]! / sum);
      }
    }
  }
  return s;
}

/** Total score of a structure (the class term is the same for every structure and left out). */
export function structureScore(d: CategoricalData, parents: Parents, score: Score): number {
  let s = 0;
  for (let i = 0; i < d.n; i++) s += localScore(d, i, Array.from(parents[i]!), score);
  return s;
}

/** The optimal TAN for a score: maximum spanning tree of φ_i({X_j}) − φ_i(∅) (symmetrised). */
export function tanForScore(d: CategoricalData, score: Score): Parents {
  const base = Array.from({ length: d.n }, (_, i) => localScore(d, i, [], score));
  return tanParents(d, (i, j) =>
    Math.max(localScore(d, i, [j], score) - base[i]!, localScore(d, j, [i], score) - base[j]!),
  );
}

/** Breadth-first order of a TAN (roots first, children by index). */
export function bfsOrder(parents: Parents): number[] {
  const n = parents.length;
  const children: number[][] = Array.from({ length: n }, () => []);
  const roots: number[] = [];
  parents.forEach((p, i) => (p.length ? children[p[0]!]!.push(i) : roots.push(i)));
  const order: number[] = [];
  const queue = [...roots];
  while (queue.length) {
    const v = queue.shift()!;
    order.push(v);
    queue.push(...children[v]!.sort((a, b) => a - b));
  }
  return order;
}

/**
 * BFS-consistent k-graph classifier (Carvalho et al. 2007, seed 001): the optimal TAN for the
 * score, its breadth-first order, and for every feature the subset of at most k earlier features
 * that maximises φ_i(S ∪ {C}). Its score is never below the TAN's (whose parent is a candidate)
 * nor the naive Bayes' (S = ∅). For LL and BIC (score equivalent) the TAN is optimal; for K2 the
 * symmetrised weights make it a heuristic.
 */
export function bckgParents(d: CategoricalData, k: number, score: Score): Parents {
  const tan = tanForScore(d, score);
  const order = bfsOrder(tan);
  const parents: Int32Array[] = Array.from({ length: d.n }, () => new Int32Array(0));
  order.forEach((i, pos) => {
    const before = order.slice(0, pos);
    let best: number[] = [];
    let bestScore = localScore(d, i, [], score);
    const visit = (start: number, chosen: number[]) => {
      if (chosen.length > 0) {
        const s = localScore(d, i, chosen, score);
        if (s > bestScore + 1e-12) {
          bestScore = s;
          best = [...chosen];
        }
      }
      if (chosen.length === k) return;
      for (let j = start; j < before.length; j++) visit(j + 1, [...chosen, before[j]!]);
    };
    visit(0, []);
    parents[i] = Int32Array.from(best);
  });
  return parents;
}

/**
 * kDB with a structure score: features in Sahami's order (decreasing I(X_i; C)); each takes, one
 * at a time, the earlier feature that raises its local score φ_i(S ∪ {C}) most, until it has k
 * parents or no candidate raises it (Sahami's kDB ranks candidates by I(X_i; X_j | C) instead).
 */
export function kdbParentsByScore(d: CategoricalData, k: number, score: Score): Parents {
  const order = sahamiOrder(d);
  const parents: Int32Array[] = Array.from({ length: d.n }, () => new Int32Array(0));
  order.forEach((i, pos) => {
    const chosen: number[] = [];
    let current = localScore(d, i, chosen, score);
    while (chosen.length < k) {
      let best = -1;
      let bestScore = current;
      for (const j of order.slice(0, pos)) {
        if (chosen.includes(j)) continue;
        const s = localScore(d, i, [...chosen, j], score);
        if (s > bestScore + 1e-12) {
          bestScore = s;
          best = j;
        }
      }
      if (best < 0) break;
      chosen.push(best);
      current = bestScore;
    }
    parents[i] = Int32Array.from(chosen);
  });
  return parents;
}
