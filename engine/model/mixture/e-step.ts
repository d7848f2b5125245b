import type { MissingCopies } from '../../util/choices.ts';
import { MISSING } from '../../data/genotype-data.ts';
import { normalizeLogRow } from '../../util/log-math.ts';
import { maxGenotypes, type PreparedData } from '../prepared/prepared-data.ts';
import type { MixtureModel } from './mixture-model.ts';
import { detLog } from '../../util/det-math.ts';
import { addGenotypeRows, gatherGenotypeRows } from './genotype-rows.ts';
import { wasmRows, type WasmRows } from './wasm-rows.ts';
import { extendGroupTable, locusMarginal } from '../prepared/locus-groups.ts';
import { detLogInto } from '../../util/det-math-bulk.ts';

/** Scratch buffers reused across iterations of one start. */
export interface EStepBuffers {
  /** shape (Σ r_i, K): ln θ (in the WebAssembly instance's memory where its loops read it). */
  readonly logTheta: Float64Array;
  /** shape (N, K): posterior p(c | x_d) after {@link eStep}. */
  readonly posterior: Float64Array;
  /** shape (max_i G_i, K): per-genotype scratch of one locus. */
  readonly genotype: Float64Array;
  /** shape (max Π G over locus groups, K): per-combined-genotype scratch of one locus group. */
  readonly table: Float64Array;
  /** The row loops as WebAssembly (wasm-rows.ts), when available: same results, faster. */
  readonly wasm?: WasmRows;
}

/**
 * `wasm: false` runs the JavaScript row loops (the WebAssembly ones give the same bits);
 * `resident: false` copies the codes into the WebAssembly instance a locus at a time, never whole
 * (for one pass, such as scoring, where a resident copy would only add memory).
 */
export function eStepBuffers(
  data: PreparedData,
  K: number,
  opts: { wasm?: boolean; resident?: boolean } = {},
): EStepBuffers {
  const genotypes = Math.max(1, maxGenotypes(data));
  const wasm =
    opts.wasm === false
      ? undefined
      : wasmRows({
          N: data.N,
          K,
          tableRows: Math.max(genotypes, data.groups.maxCombined),
          resident: opts.resident === false ? [] : [data.locusCodes, data.groups.codes],
          copies: { P: data.P, alleles: data.genotypeAlleles, totalAlleles: data.totalAlleles },
        });
  return {
    logTheta: wasm?.copies?.logTheta ?? new Float64Array(data.totalAlleles * K),
    posterior: new Float64Array(data.N * K),
    genotype: new Float64Array(genotypes * K),
    table: new Float64Array(data.groups.maxCombined * K),
    ...(wasm ? { wasm } : {}),
  };
}

/** out[g, :] = ln p(genotype g of locus i | c) = Σ over its observed copies of ln θ (missing copies skipped). */
export function genotypeLogs(data: PreparedData, i: number, K: number, lt: Float64Array, out: Float64Array): number {
  const { P, offsets, genotypeOffsets, genotypeAlleles } = data;
  const off = offsets[i]!;
  const g0 = genotypeOffsets[i]!;
  const G = genotypeOffsets[i + 1]! - g0;
  for (let g = 0; g < G; g++) {
    const o = g * K;
    for (let c = 0; c < K; c++) out[o + c] = 0;
    for (let p = 0; p < P; p++) {
      const a = genotypeAlleles[(g0 + g) * P + p]!;
      if (a === MISSING) continue;
      const t = (off + a) * K;
      for (let c = 0; c < K; c++) out[o + c]! += lt[t + c]!;
    }
  }
  return G;
}

/**
 * table[c, :] = ln p(combined genotype c of loci i0 .. i1 − 1 | cluster), the sum of the loci's
 * genotypeLogs rows, built one locus at a time (row c·G + g = row c + locus row g; `lg` is scratch
 * for one locus). Returns the number of combined genotypes.
 */
export function groupLogTable(
  data: PreparedData,
  i0: number,
  i1: number,
  K: number,
  lt: Float64Array,
  table: Float64Array,
  lg: Float64Array,
): number {
  let size = genotypeLogs(data, i0, K, lt, table);
  for (let i = i0 + 1; i < i1; i++) size = extendGroupTable(table, size, lg, genotypeLogs(data, i, K, lt, lg), K);
  return size;
}

/**
 * E step (equations 7.8 and 8.1): fills `buf.posterior` with p(c | x_d, θ) for every individual
 * and returns the log-likelihood Σ_d ln p(x_d | θ) of the observed copies (missing copies are
 * marginalised out, which drops them from the product). Per locus, ln p(genotype | c) is computed
 * once per distinct genotype; per group of loci (locus-groups.ts) these are summed into a table
 * of the combined genotypes, whose rows are then added to each individual's row.
 */
export function eStep(data: PreparedData, model: MixtureModel, buf: EStepBuffers, rowLogLiks?: Float64Array): number {
  const { N, locusCodes, groups, offsets, genotypeOffsets } = data;
  const K = model.K;
  const w = buf.wasm;
  const wc = w?.copies;
  // With WebAssembly the rows, the table and ln θ the loops read are in its memory.
  const lt = buf.logTheta;
  const lp = w ? w.rows : buf.posterior;
  const lg = buf.genotype;
  const table = w ? w.table : buf.table;
  detLogInto(model.theta, lt);
  for (let c = 0; c < K; c++) lp[c] = detLog(model.weights[c]!);
  for (let d = 1; d < N; d++) lp.copyWithin(d * K, 0, K);
  for (let q = 0; q + 1 < groups.first.length; q++) {
    const i0 = groups.first[q]!;
    const i1 = groups.first[q + 1]!;
    if (groups.row[q]! < 0) {
      if (w) {
        const g0 = genotypeOffsets[i0]!;
        if (wc) wc.genotypeLogs(g0, genotypeOffsets[i0 + 1]! - g0, offsets[i0]!);
        else genotypeLogs(data, i0, K, lt, w.table);
        w.add(locusCodes, i0 * N);
      } else {
        genotypeLogs(data, i0, K, lt, lg);
        addGenotypeRows(locusCodes, i0 * N, N, K, lp, lg);
      }
      continue;
    }
    groupLogTable(data, i0, i1, K, lt, table, lg);
    if (w) w.add(groups.codes, groups.row[q]! * N);
    else addGenotypeRows(groups.codes, groups.row[q]! * N, N, K, lp, table);
  }
  let ll = 0;
  for (let d = 0; d < N; d++) {
    const x = normalizeLogRow(lp, d, K);
    ll += x;
    if (rowLogLiks) rowLogLiks[d] = x;
  }
  if (w) buf.posterior.set(lp);
  return ll;
}

/** How missing allele copies enter the expected counts. */
export type { MissingCopies };

/** Expected sufficient statistics of one E step. */
export interface ExpectedCounts {
  /** shape (Σ r_i, K): E(N_ijk), expected copies of allele k at locus i in cluster j. */
  readonly alleleCluster: Float64Array;
  /** shape (K,): E(N_C-j), expected individuals in cluster j. */
  readonly cluster: Float64Array;
}

/**
 * Expected counts from posteriors. With 'skip', a missing copy adds nothing; with 'expect', it is
 * filled in expectation: it adds p(c^j | x_d) · θ_ijk to E(N_ijk) (and so Σ_j of that to
 * E(N_i-k)), as the text of section 8.2 implies. Posteriors are first summed per distinct
 * genotype, then spread over the genotype's copies.
 */
export function expectedCounts(
  data: PreparedData,
  model: MixtureModel,
  posterior: Float64Array,
  missing: MissingCopies,
  out?: ExpectedCounts,
  scratch?: Pick<EStepBuffers, 'genotype' | 'table' | 'wasm'>,
): ExpectedCounts {
  const { N, locusCodes, genotypeOffsets, groups } = data;
  const K = model.K;
  const cnt = out?.alleleCluster ?? new Float64Array(data.totalAlleles * K);
  const cl = out?.cluster ?? new Float64Array(K);
  const w = scratch?.wasm;
  const wc = w?.copies;
  const acc = scratch?.genotype ?? new Float64Array(Math.max(1, maxGenotypes(data)) * K);
  const table = w ? w.table : (scratch?.table ?? new Float64Array(groups.maxCombined * K));
  w?.rows.set(posterior);
  // With WebAssembly's copies the counts are summed in its memory, then copied out.
  const sum = wc ? wc.counts : cnt;
  sum.fill(0);
  cl.fill(0);
  for (let d = 0; d < N; d++) for (let c = 0; c < K; c++) cl[c]! += posterior[d * K + c]!;
  const miss = new Float64Array(K);
  for (let q = 0; q + 1 < groups.first.length; q++) {
    const i0 = groups.first[q]!;
    const i1 = groups.first[q + 1]!;
    if (groups.row[q]! < 0) {
      const sums = w ? w.table : acc;
      sums.fill(0, 0, (genotypeOffsets[i0 + 1]! - genotypeOffsets[i0]!) * K);
      if (w) w.gather(locusCodes, i0 * N);
      else gatherGenotypeRows(locusCodes, i0 * N, N, K, posterior, acc);
      if (wc && missing === 'skip') {
        const g0 = genotypeOffsets[i0]!;
        wc.spread(g0, genotypeOffsets[i0 + 1]! - g0, data.offsets[i0]!);
      } else spreadOverAlleles(data, model, i0, K, sums, missing, sum, miss);
      continue;
    }
    // Posteriors summed per combined genotype, then per genotype of each locus of the group
    // (code c holds genotype ⌊c / stride⌋ mod G of a locus whose stride is the product of the
    // later loci's genotype counts).
    const size = groups.size[q]!;
    table.fill(0, 0, size * K);
    if (w) w.gather(groups.codes, groups.row[q]! * N);
    else gatherGenotypeRows(groups.codes, groups.row[q]! * N, N, K, posterior, table);
    let stride = size;
    for (let i = i0; i < i1; i++) {
      const G = genotypeOffsets[i + 1]! - genotypeOffsets[i]!;
      stride /= G;
      locusMarginal(table, size, stride, G, K, acc);
      spreadOverAlleles(data, model, i, K, acc, missing, sum, miss);
    }
  }
  if (wc) cnt.set(wc.counts);
  return { alleleCluster: cnt, cluster: cl };
}

/** Adds locus i's posterior sums per genotype (`acc`) to the expected counts of its alleles. */
function spreadOverAlleles(
  data: PreparedData,
  model: MixtureModel,
  i: number,
  K: number,
  acc: Float64Array,
  missing: MissingCopies,
  cnt: Float64Array,
  miss: Float64Array,
): void {
  const { P, offsets, alleles, genotypeOffsets, genotypeAlleles } = data;
  const off = offsets[i]!;
  const g0 = genotypeOffsets[i]!;
  const G = genotypeOffsets[i + 1]! - g0;
  miss.fill(0);
  for (let g = 0; g < G; g++) {
    const o = g * K;
    for (let p = 0; p < P; p++) {
      const a = genotypeAlleles[(g0 + g) * P + p]!;
      if (a === MISSING) {
        if (missing === 'expect') for (let c = 0; c < K; c++) miss[c]! += acc[o + c]!;
        continue;
      }
      const t = (off + a) * K;
      for (let c = 0; c < K; c++) cnt[t + c]! += acc[o + c]!;
    }
  }
  if (missing === 'expect') {
    for (let a = 0; a < alleles[i]!; a++) {
      const t = (off + a) * K;
      for (let c = 0; c < K; c++) cnt[t + c]! += miss[c]! * model.theta[t + c]!;
    }
  }
}
