import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import type { PreparedData } from '../model/prepared/prepared-data.ts';
import { standardisedColumns } from './pca-columns.ts';
import { gramProduct } from './gram-product.ts';
import { createRng, type Rng } from '../util/rng.ts';
import { symmetricEigenvalues } from '../util/symmetric-eigenvalues.ts';
import { PCA_DEFAULTS, type PcaOptions } from '../util/choices.ts';

/**
 * Principal components of the genotypes (Patterson, Price & Reich 2006; PLINK 2's `--pca`).
 *
 * Columns: a two-allele locus gives one column, the copies of its second allele; a locus of more
 * alleles gives one column per allele (allele counts, as adegenet's tables). A column with allele
 * frequency p (over the individuals whose genotype is complete) holds (c − P·p) / √(P·p(1 − p)) for
 * an individual with c copies of the allele (P: the ploidy), 0 where the genotype has a missing copy
 * (the mean); columns with p = 0 or 1 are left out. With X (N × M) these columns, the eigenvalues
 * are those of X Xᵀ / M (PLINK 2's genetic relationship matrix) and the vectors are unit columns.
 *
 * X is never formed: each column's values depend only on the genotype, so Xᵀ Q sums the rows of Q
 * per genotype (per combined genotype of a locus group, then per locus, as the E step's expected
 * counts) and X Z adds one table row per individual and group (as the E step): the clustering's
 * row loops with K = the number of vectors. Memory beyond the data is O((N + M) · l).
 *
 * Up to `exactUpTo` individuals the decomposition is exact (X Xᵀ in full, then a symmetric
 * eigendecomposition: its cost grows as N² · M + N³, so only for few individuals); beyond, a randomised block Krylov method (Halko, Martinsson & Tropp 2011;
 * Musco & Musco 2015): from l = pcs + oversampling seeded random vectors, blocks X Xᵀ B are added
 * to an orthonormal basis and Rayleigh–Ritz is taken over the whole basis at every turn, until
 * each of the leading `pcs` Ritz values changes by less than `tolerance` of itself, or
 * `maxIterations`. Components that stand out of the noise converge in a few turns; components
 * inside the bulk of noise eigenvalues (tiny gaps) take longer and are reported as they stand when
 * the iterations run out (`converged` false); the exact method has no such limit.
 */
export interface PcaResult {
  /** Components returned (at most N and M). */
  readonly pcs: number;
  /** Eigenvalues of X Xᵀ / M, largest first. */
  readonly eigenvalues: Float64Array;
  /** Each eigenvalue over the trace of X Xᵀ / M (the fraction of the variance). */
  readonly varianceFraction: Float64Array;
  /** shape (N, pcs): unit eigenvectors, each signed so that its largest entry is positive. */
  readonly vectors: Float64Array;
  /** Columns of X (alleles used) and the loci they come from. */
  readonly columns: number;
  readonly loci: number;
  readonly method: 'exact' | 'randomized';
  /** Subspace iterations taken (0 for exact). */
  readonly iterations: number;
  readonly converged: boolean;
}

/** B −= P (Pᵀ B) for two N × l blocks (row-major; P's columns orthonormal). */
function subtractProjection(P: Float64Array, B: Float64Array, N: number, l: number): void {
  const C = blockProduct(P, B, N, l);
  for (let d = 0; d < N; d++) {
    const row = d * l;
    for (let a = 0; a < l; a++) {
      const p = P[row + a]!;
      if (p === 0) continue;
      for (let b = 0; b < l; b++) B[row + b]! -= p * C[a * l + b]!;
    }
  }
}

/**
 * Makes block B's columns (N × l, row-major) orthonormal and orthogonal to every column of the
 * `previous` blocks: against those blocks by block classical Gram–Schmidt applied twice ("twice is
 * enough", Giraud et al. 2005; row-major products, not a column at a time), then among themselves
 * by modified Gram–Schmidt applied twice. A column that vanishes against its norm before either
 * (the span already holds it) is replaced by a random one and made orthogonal to everything in turn.
 */
function orthonormaliseBlock(B: Float64Array, previous: readonly Float64Array[], N: number, l: number, rng: Rng): void {
  const column = (j: number) => {
    let s = 0;
    for (let d = 0; d < N; d++) s += B[d * l + j]! ** 2;
    return s;
  };
  const before = Float64Array.from({ length: l }, (_, j) => column(j));
  for (let pass = 0; pass < 2; pass++) for (const P of previous) subtractProjection(P, B, N, l);
  const project = (P: Float64Array, columns: number, j: number) => {
    for (let a = 0; a < columns; a++) {
      let dot = 0;
      for (let d = 0; d < N; d++) dot += P[d * l + a]! * B[d * l + j]!;
      for (let d = 0; d < N; d++) B[d * l + j]! -= dot * P[d * l + a]!;
    }
  };
  for (let j = 0; j < l; j++) {
    for (let attempt = 0; ; attempt++) {
      for (let pass = 0; pass < 2; pass++) {
        if (attempt > 0) for (const P of previous) project(P, l, j);
        project(B, j, j);
      }
      const norm = Math.sqrt(column(j));
      if (norm > 1e-10 * Math.sqrt(before[j]!) && norm > 0) {
        for (let d = 0; d < N; d++) B[d * l + j]! /= norm;
        break;
      }
      if (attempt > 5) throw new Error('PCA: could not complete an orthonormal basis');
      for (let d = 0; d < N; d++) B[d * l + j] = rng.normal();
      before[j] = column(j);
    }
  }
}

/** (T + Tᵀ) / 2 for the l × l matrix T (row-major). */
function symmetrised(T: Float64Array, l: number): Float64Array {
  const S = new Float64Array(l * l);
  for (let a = 0; a < l; a++) for (let b = 0; b < l; b++) S[a * l + b] = (T[a * l + b]! + T[b * l + a]!) / 2;
  return S;
}

/** Eigenpairs of the symmetric l × l matrix S (row-major), largest first. */
function symmetricEigen(S: Float64Array, l: number): { values: Float64Array; vectors: Matrix } {
  const m = new Matrix(l, l);
  for (let a = 0; a < l; a++) for (let b = 0; b < l; b++) m.set(a, b, S[a * l + b]!);
  const e = new EigenvalueDecomposition(m, { assumeSymmetric: true });
  const order = e.realEigenvalues.map((v, j) => [v, j] as const).sort((x, y) => y[0] - x[0]);
  const vectors = new Matrix(l, l);
  const V = e.eigenvectorMatrix;
  order.forEach(([, j], k) => {
    for (let a = 0; a < l; a++) vectors.set(a, k, V.get(a, j));
  });
  return { values: Float64Array.from(order.map(([v]) => v)), vectors };
}

/** Aᵀ B (l × l) for two N × l blocks. */
function blockProduct(A: Float64Array, B: Float64Array, N: number, l: number): Float64Array {
  const T = new Float64Array(l * l);
  for (let d = 0; d < N; d++)
    for (let a = 0; a < l; a++) {
      const x = A[d * l + a]!;
      for (let b = 0; b < l; b++) T[a * l + b]! += x * B[d * l + b]!;
    }
  return T;
}

export function pca(md: PreparedData, options: Partial<PcaOptions> = {}): PcaResult {
  const o = { ...PCA_DEFAULTS, ...options };
  const { N } = md;
  const cols = standardisedColumns(md);
  const M = cols.valueStart.length;
  if (M === 0) throw new Error('PCA: no marker varies among the individuals with complete genotypes');
  if (N < 2) throw new Error('PCA needs at least two individuals');
  const pcs = Math.max(1, Math.min(o.pcs, N, M));
  const exact = N <= o.exactUpTo;
  const l = exact ? N : Math.min(N, pcs + o.oversampling);
  const rng = createRng(o.seed);
  const gram = gramProduct(md, cols, l);
  // The basis: orthonormal blocks B_0, B_1, … (N × l) and their images W_i = X Xᵀ B_i. Exact: one
  // block, the identity. Randomised: a block Krylov space (B_{i+1} is W_i made orthogonal to the
  // basis), whose Ritz values converge much faster than a subspace iteration's where eigenvalues
  // crowd (Musco & Musco 2015).
  const basis: Float64Array[] = [];
  const products: Float64Array[][] = [];
  let iterations = 0;
  let converged = true;
  let eig: ReturnType<typeof symmetricEigen> | undefined;
  let block = new Float64Array(N * l);
  if (exact) for (let d = 0; d < N; d++) block[d * l + d] = 1;
  else {
    for (let j = 0; j < block.length; j++) block[j] = rng.normal();
    orthonormaliseBlock(block, [], N, l, rng);
  }
  let previous: Float64Array | undefined;
  for (;;) {
    const image = new Float64Array(N * l);
    gram.apply(block, image);
    basis.push(block);
    const n = basis.length;
    // T = Bᵀ W over the whole basis, from the blocks' products (l × l each).
    products.push(basis.map((B) => blockProduct(B, image, N, l)));
    const T = new Float64Array(n * l * n * l);
    for (let j = 0; j < n; j++)
      for (let i = 0; i <= j; i++) {
        const P = products[j]![i]!;
        for (let a = 0; a < l; a++)
          for (let b = 0; b < l; b++) {
            T[(i * l + a) * n * l + j * l + b] = P[a * l + b]!;
            T[(j * l + b) * n * l + i * l + a] = P[a * l + b]!;
          }
      }
    const S = symmetrised(T, n * l);
    if (exact) {
      eig = symmetricEigen(S, n * l);
      break;
    }
    iterations++;
    // The Ritz values alone at each turn (the vectors once, at the end).
    const values = symmetricEigenvalues(S, n * l).reverse();
    // Values at rounding's level of the largest (a rank below pcs) count as settled.
    const floor = 1e-12 * Math.abs(values[0] ?? 0);
    const settled =
      previous !== undefined &&
      Array.from({ length: pcs }, (_, k) => k).every(
        (k) => Math.abs(values[k]! - previous![k]!) <= o.tolerance * Math.max(Math.abs(values[k]!), floor),
      );
    // The blocks after the first are images of X Xᵀ: once they number M columns they span its
    // range, and the Ritz values are its eigenvalues (few columns, many individuals).
    const spanned = (n - 1) * l >= M;
    if (settled || spanned || iterations >= o.maxIterations || (n + 1) * l > N) {
      converged = settled || spanned;
      eig = symmetricEigen(S, n * l);
      break;
    }
    previous = values;
    block = image.slice();
    orthonormaliseBlock(block, basis, N, l, rng);
  }
  // U = [B_0 B_1 …] V, the first pcs columns, each signed so its largest entry is positive.
  const vectors = new Float64Array(N * pcs);
  for (let k = 0; k < pcs; k++) {
    let big = 0;
    for (let d = 0; d < N; d++) {
      let u = 0;
      basis.forEach((B, i) => {
        for (let a = 0; a < l; a++) u += B[d * l + a]! * eig!.vectors.get(i * l + a, k);
      });
      vectors[d * pcs + k] = u;
      if (Math.abs(u) > Math.abs(big)) big = u;
    }
    if (big < 0) for (let d = 0; d < N; d++) vectors[d * pcs + k]! *= -1;
  }
  const eigenvalues = Float64Array.from({ length: pcs }, (_, k) => Math.max(0, eig!.values[k]!) / M);
  const trace = cols.trace / M;
  return {
    pcs,
    eigenvalues,
    varianceFraction: eigenvalues.map((v) => v / trace),
    vectors,
    columns: M,
    loci: cols.loci,
    method: exact ? 'exact' : 'randomized',
    iterations,
    converged,
  };
}
