import { detLog, detExp } from '../../util/det-math.ts';
import { detLogInto } from '../../util/det-math-bulk.ts';
import { genotypeLogs, groupLogTable } from './e-step.ts';
import { rowLoops, type RowLoops } from './row-loops.ts';
import { groupSpansBlocks } from '../prepared/locus-groups.ts';
import { maxGenotypes, readByLocus, type PreparedData } from '../prepared/prepared-data.ts';
import type { MixtureModel } from './mixture-model.ts';
import type { LocusBlocks } from '../prepared/genome-windows.ts';

/**
 * The delete-one-block jackknife standard error of a total over B blocks (a held-out
 * log-likelihood, which grows with the markers), from the totals T₋b without each block: each
 * T₋b is first scaled to the whole, B/(B − 1) · T₋b, then √((B − 1)/B · Σ_b (x_b − mean x)²).
 * For a plain sum of block terms t_b this is √B times their standard deviation, exactly. NaN
 * with fewer than two blocks.
 */
export function jackknifeError(withoutBlock: ArrayLike<number>): number {
  const B = withoutBlock.length;
  if (B < 2) return NaN;
  const scale = B / (B - 1);
  let mean = 0;
  for (let b = 0; b < B; b++) mean += scale * withoutBlock[b]!;
  mean /= B;
  let ss = 0;
  for (let b = 0; b < B; b++) ss += (scale * withoutBlock[b]! - mean) ** 2;
  return Math.sqrt(((B - 1) / B) * ss);
}

/**
 * Adds to out[b], for every block b, Σ_d ln p(x_d without block b's loci) under the model
 * (ln Σ_c θ_C(c) Π over the other loci θ_ic(x_di)); missing copies are skipped as in the E step.
 * Two passes: the first sums each individual's rows over every locus, the second sums each
 * block's part afresh and takes it out. Loci are visited by locus group (locus-groups.ts), one
 * table of combined genotypes per group, as in the E step; a group that spans two blocks is
 * taken locus by locus. The rows are added by the E step's WebAssembly loops where they run (the
 * same bits as the JavaScript ones). Memory N × K three times, whatever the number of blocks.
 */
export function addBlockDeletedLogLiks(
  data: PreparedData,
  model: MixtureModel,
  blocks: LocusBlocks,
  out: Float64Array,
): void {
  blockDeletion(data, model.K, blocks)(model, out);
}

/**
 * {@link addBlockDeletedLogLiks} for several models of one K on the same data: the blocks' members
 * and the row loops (with their copy of the codes, where small) are made once.
 */
export function blockDeletion(
  data: PreparedData,
  K: number,
  blocks: LocusBlocks,
): (model: MixtureModel, out: Float64Array) => void {
  const { groups } = data;
  const lg = new Float64Array(Math.max(1, maxGenotypes(data)) * K);
  const tableRows = Math.max(1, groups.maxCombined, maxGenotypes(data));
  // Each block's members in locus order: a whole group q as q, a locus i of a group that spans
  // blocks as −(i + 1).
  const lists: number[][] = Array.from({ length: blocks.count }, () => []);
  for (let q = 0; q + 1 < groups.first.length; q++) {
    const i0 = groups.first[q]!;
    if (!groupSpansBlocks(groups, q, blocks.of)) lists[blocks.of[i0]!]!.push(q);
    else if (!readByLocus(data, q))
      throw new Error('Block deletion: blocks other than the genome windows split a group of loci stored combined');
    else for (let i = i0; i < groups.first[q + 1]!; i++) lists[blocks.of[i]!]!.push(-(i + 1));
  }
  const members = lists.map((l) => Int32Array.from(l));
  // Two passes over the codes a model: no resident copy of them (wasm-rows.ts).
  const all = rowLoops(data, K, tableRows, false);
  const part = rowLoops(data, K, tableRows, false);
  return (model, out) => addWithout(data, model, members, all, part, lg, out);
}

function addWithout(
  data: PreparedData,
  model: MixtureModel,
  members: readonly Int32Array[],
  all: RowLoops,
  part: RowLoops,
  lg: Float64Array,
  out: Float64Array,
): void {
  const { N } = data;
  const K = model.K;
  const lt = new Float64Array(model.theta.length);
  detLogInto(model.theta, lt);
  const rows = all.rows;
  for (let c = 0; c < K; c++) rows[c] = detLog(model.weights[c]!);
  for (let d = 1; d < N; d++) rows.copyWithin(d * K, 0, K);
  for (const list of members) for (const m of list) addMember(data, K, m, all, lt, lg);
  const without = part.rows;
  for (let b = 0; b < members.length; b++) {
    if (members[b]!.length === 0) continue;
    without.fill(0);
    for (const m of members[b]!) addMember(data, K, m, part, lt, lg);
    let total = 0;
    for (let d = 0; d < N; d++) {
      const o = d * K;
      let max = -Infinity;
      for (let c = 0; c < K; c++) if (rows[o + c]! - without[o + c]! > max) max = rows[o + c]! - without[o + c]!;
      let sum = 0;
      for (let c = 0; c < K; c++) sum += detExp(rows[o + c]! - without[o + c]! - max);
      total += max + detLog(sum);
    }
    out[b]! += total;
  }
}

/** Adds member m's rows (a group q ≥ 0, or the locus −m − 1) of every individual to the sink's rows. */
function addMember(data: PreparedData, K: number, m: number, sink: RowLoops, lt: Float64Array, lg: Float64Array): void {
  const { N, groups } = data;
  const table = sink.table;
  if (m < 0) {
    const i = -m - 1;
    genotypeLogs(data, i, K, lt, table);
    sink.add(data.locusCodes, i * N);
    return;
  }
  const i0 = groups.first[m]!;
  groupLogTable(data, i0, groups.first[m + 1]!, K, lt, table, lg);
  const row = groups.row[m]!;
  if (row < 0) sink.add(data.locusCodes, i0 * N);
  else sink.add(groups.codes, row * N);
}
