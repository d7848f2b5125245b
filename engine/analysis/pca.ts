import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { genotypeCounts, maxGenotypes, type PreparedData } from '../model/prepared/prepared-data.ts';
import { rowLoops, type RowLoops } from '../model/mixture/row-loops.ts';
import { extendGroupTable, locusMarginal } from '../model/prepared/locus-groups.ts';
import { createRng, type Rng } from '../util/rng.ts';

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
 * eigendecomposition); beyond, a randomised block Krylov method (Halko, Martinsson & Tropp 2011;
 * Musco & Musco 2015): from l = pcs + oversampling seeded random vectors, blocks X Xᵀ B are added
 * to an orthonormal basis and Rayleigh–Ritz is taken over the whole basis at every turn, until
 * each of the leading `pcs` Ritz values changes by less than `tolerance` of itself, or
 * `maxIterations`. Components that stand out of the noise converge in a few turns; components
 * inside the bulk of noise eigenvalues (tiny gaps) take longer and are reported as they stand when
 * the iterations run out (`converged` false); the exact method has no such limit.
 */
export interface PcaOptions {
  readonly pcs: number;
  readonly seed: number;
  readonly oversampling: number;
  readonly exactUpTo: number;
  readonly tolerance: number;
  readonly maxIterations: number;
}

export const PCA_DEFAULTS: PcaOptions = {
  pcs: 10,
  seed: 1,
  oversampling: 10,
  exactUpTo: 400,
  tolerance: 1e-4,
  maxIterations: 50,
};

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

/** The standardised values of every column per genotype. */
interface Columns {
  /** shape (L + 1,): locus i's columns are colStart[i] .. colStart[i + 1] − 1. */
  readonly colStart: Int32Array;
  /** Column c's value for genotype g of its locus: values[valueStart[c] + g]. */
  readonly valueStart: Int32Array;
  readonly values: Float64Array;
  /** Σ over individuals and columns of the squared values (the trace of X Xᵀ). */
  readonly trace: number;
  readonly loci: number;
}

function standardisedColumns(md: PreparedData): Columns {
  const { L, P, alleles, genotypeOffsets, genotypeAlleles } = md;
  const counts = genotypeCounts(md);
  const seen = new Float64Array(Math.max(1, maxGenotypes(md)));
  const colStart = new Int32Array(L + 1);
  const valueStart: number[] = [];
  const values: number[] = [];
  let trace = 0;
  let loci = 0;
  const copies = new Float64Array(seen.length);
  for (let i = 0; i < L; i++) {
    colStart[i] = valueStart.length;
    const g0 = genotypeOffsets[i]!;
    const G = genotypeOffsets[i + 1]! - g0;
    for (let g = 0; g < G; g++) seen[g] = counts[g0 + g]!;
    let complete = 0;
    for (let g = 0; g < G; g++) if (genotypeAlleles[(g0 + g) * P]! >= 0) complete += seen[g]!;
    const r = alleles[i]!;
    if (complete === 0 || r < 2) continue;
    let used = false;
    for (let a = r === 2 ? 1 : 0; a < r; a++) {
      let total = 0;
      for (let g = 0; g < G; g++) {
        let c = 0;
        for (let p = 0; p < P; p++) if (genotypeAlleles[(g0 + g) * P + p] === a) c++;
        copies[g] = c;
        if (genotypeAlleles[(g0 + g) * P]! >= 0) total += c * seen[g]!;
      }
      const f = total / (P * complete);
      if (!(f > 0 && f < 1)) continue;
      const mean = P * f;
      const sd = Math.sqrt(P * f * (1 - f));
      valueStart.push(values.length);
      for (let g = 0; g < G; g++) {
        const v = genotypeAlleles[(g0 + g) * P]! >= 0 ? (copies[g]! - mean) / sd : 0;
        values.push(v);
        trace += seen[g]! * v * v;
      }
      used = true;
    }
    if (used) loci++;
  }
  colStart[L] = valueStart.length;
  return { colStart, valueStart: Int32Array.from(valueStart), values: Float64Array.from(values), trace, loci };
}

/** Y = X Xᵀ Q for Q (N × l, row-major), through Z = Xᵀ Q (columns × l). */
class GramProduct {
  private readonly loops: RowLoops;
  private readonly z: Float64Array;
  private readonly acc: Float64Array;

  constructor(
    private readonly md: PreparedData,
    private readonly cols: Columns,
    private readonly l: number,
  ) {
    const tableRows = Math.max(1, md.groups.maxCombined, maxGenotypes(md));
    this.loops = rowLoops(md, l, tableRows);
    this.z = new Float64Array(cols.valueStart.length * l);
    this.acc = new Float64Array(Math.max(1, maxGenotypes(md)) * l);
  }

  apply(Q: Float64Array, Y: Float64Array): void {
    this.transposeTimes(Q);
    this.times(Y);
  }

  /** z = Xᵀ Q. */
  private transposeTimes(Q: Float64Array): void {
    const { md, l, loops, acc } = this;
    const { N, groups, locusCodes, genotypeOffsets } = md;
    loops.rows.set(Q);
    const table = loops.table;
    for (let q = 0; q + 1 < groups.first.length; q++) {
      const i0 = groups.first[q]!;
      const i1 = groups.first[q + 1]!;
      if (this.cols.colStart[i1] === this.cols.colStart[i0]) continue;
      const size = groups.size[q]!;
      table.fill(0, 0, size * l);
      if (groups.row[q]! < 0) loops.gather(locusCodes, i0 * N);
      else loops.gather(groups.codes, groups.row[q]! * N);
      // Sums per genotype of each locus (locus-groups.ts's combined codes).
      let stride = size;
      for (let i = i0; i < i1; i++) {
        const G = genotypeOffsets[i + 1]! - genotypeOffsets[i]!;
        stride /= G;
        locusMarginal(table, size, stride, G, l, acc);
        this.columnSums(i, G);
      }
    }
  }

  /** z of locus i's columns from its per-genotype sums in acc. */
  private columnSums(i: number, G: number): void {
    const { l, acc, z } = this;
    const { colStart, valueStart, values } = this.cols;
    for (let c = colStart[i]!; c < colStart[i + 1]!; c++) {
      const zc = c * l;
      z.fill(0, zc, zc + l);
      for (let g = 0; g < G; g++) {
        const v = values[valueStart[c]! + g]!;
        if (v === 0) continue;
        for (let k = 0; k < l; k++) z[zc + k]! += v * acc[g * l + k]!;
      }
    }
  }

  /** Y = X z. */
  private times(Y: Float64Array): void {
    const { md, l, loops, acc, z } = this;
    const { N, groups, locusCodes, genotypeOffsets } = md;
    const { colStart, valueStart, values } = this.cols;
    const rows = loops.rows;
    rows.fill(0);
    const table = loops.table;
    /** out[g, :] = Σ over locus i's columns of value(g) · z_c. */
    const locusTable = (i: number, out: Float64Array): number => {
      const G = genotypeOffsets[i + 1]! - genotypeOffsets[i]!;
      out.fill(0, 0, G * l);
      for (let c = colStart[i]!; c < colStart[i + 1]!; c++)
        for (let g = 0; g < G; g++) {
          const v = values[valueStart[c]! + g]!;
          if (v === 0) continue;
          for (let k = 0; k < l; k++) out[g * l + k]! += v * z[c * l + k]!;
        }
      return G;
    };
    for (let q = 0; q + 1 < groups.first.length; q++) {
      const i0 = groups.first[q]!;
      const i1 = groups.first[q + 1]!;
      if (colStart[i1] === colStart[i0]) continue;
      let size = locusTable(i0, table);
      for (let i = i0 + 1; i < i1; i++) {
        const G = locusTable(i, acc);
        size = extendGroupTable(table, size, acc, G, l);
      }
      if (groups.row[q]! < 0) loops.add(locusCodes, i0 * N);
      else loops.add(groups.codes, groups.row[q]! * N);
    }
    Y.set(rows);
  }
}

/**
 * Makes block B's columns (N × l, row-major) orthonormal and orthogonal to every column of the
 * `previous` blocks, by modified Gram–Schmidt applied twice; a column that vanishes (the span
 * already holds it) is replaced by a random one and made orthogonal in turn.
 */
function orthonormaliseBlock(B: Float64Array, previous: readonly Float64Array[], N: number, l: number, rng: Rng): void {
  const project = (P: Float64Array, columns: number, j: number) => {
    for (let a = 0; a < columns; a++) {
      let dot = 0;
      for (let d = 0; d < N; d++) dot += P[d * l + a]! * B[d * l + j]!;
      for (let d = 0; d < N; d++) B[d * l + j]! -= dot * P[d * l + a]!;
    }
  };
  for (let j = 0; j < l; j++) {
    for (let attempt = 0; ; attempt++) {
      let before = 0;
      for (let d = 0; d < N; d++) before += B[d * l + j]! ** 2;
      for (let pass = 0; pass < 2; pass++) {
        for (const P of previous) project(P, l, j);
        project(B, j, j);
      }
      let norm = 0;
      for (let d = 0; d < N; d++) norm += B[d * l + j]! ** 2;
      norm = Math.sqrt(norm);
      if (norm > 1e-10 * Math.sqrt(before) && norm > 0) {
        for (let d = 0; d < N; d++) B[d * l + j]! /= norm;
        break;
      }
      if (attempt > 5) throw new Error('PCA: could not complete an orthonormal basis');
      for (let d = 0; d < N; d++) B[d * l + j] = rng.normal();
    }
  }
}

/** Eigenpairs of the symmetric l × l matrix T (row-major), largest first. */
function symmetricEigen(T: Float64Array, l: number): { values: Float64Array; vectors: Matrix } {
  const m = new Matrix(l, l);
  for (let a = 0; a < l; a++) for (let b = 0; b < l; b++) m.set(a, b, (T[a * l + b]! + T[b * l + a]!) / 2);
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
  const gram = new GramProduct(md, cols, l);
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
    eig = symmetricEigen(T, n * l);
    if (exact) break;
    iterations++;
    const values = eig.values;
    const settled =
      previous !== undefined &&
      Array.from({ length: pcs }, (_, k) => k).every(
        (k) => Math.abs(values[k]! - previous![k]!) <= o.tolerance * Math.abs(values[k]!),
      );
    if (settled) break;
    if (iterations >= o.maxIterations || (n + 1) * l > N) {
      converged = settled;
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
