import { detLog, detExp } from '../../util/det-math.ts';
import { detLogInto } from '../../util/det-math-bulk.ts';
import { genotypeLogs } from './e-step.ts';
import { addGenotypeRows } from './genotype-rows.ts';
import { maxGenotypes, type MixtureData } from './mixture-data.ts';
import type { MixtureModel } from './mixture-model.ts';
import type { LocusBlocks } from './genome-windows.ts';

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

/** What a block removes: a whole locus group (its combined codes), or one locus of a group that spans blocks. */
type Member = { readonly group: number } | { readonly locus: number };

/**
 * Adds to out[b], for every block b, Σ_d ln p(x_d without block b's loci) under the model
 * (ln Σ_c θ_C(c) Π over the other loci θ_ic(x_di)); missing copies are skipped as in the E step.
 * Two passes: the first sums each individual's rows over every locus, the second sums each
 * block's part afresh and takes it out. Loci are visited by locus group (locus-groups.ts), one
 * table of combined genotypes per group, as in the E step; a group that spans two blocks is
 * taken locus by locus. Memory N × K three times, whatever the number of blocks.
 */
export function addBlockDeletedLogLiks(
  data: MixtureData,
  model: MixtureModel,
  blocks: LocusBlocks,
  out: Float64Array,
): void {
  const { N, genotypeOf, groups } = data;
  const K = model.K;
  const lt = new Float64Array(model.theta.length);
  detLogInto(model.theta, lt);
  const lg = new Float64Array(Math.max(1, maxGenotypes(data)) * K);
  const table = new Float64Array(Math.max(1, groups.maxCombined, maxGenotypes(data)) * K);
  const add = (m: Member, target: Float64Array) => {
    if ('locus' in m) {
      genotypeLogs(data, m.locus, K, lt, table);
      addGenotypeRows(genotypeOf, m.locus * N, N, K, target, table);
      return;
    }
    const i0 = groups.first[m.group]!;
    const i1 = groups.first[m.group + 1]!;
    // The table of combined codes, as eStep builds it: row c·G + g = row c + locus row g.
    let size = genotypeLogs(data, i0, K, lt, table);
    for (let i = i0 + 1; i < i1; i++) {
      const G = genotypeLogs(data, i, K, lt, lg);
      for (let c = size - 1; c >= 0; c--)
        for (let g = G - 1; g >= 0; g--)
          for (let k = 0; k < K; k++) table[(c * G + g) * K + k] = table[c * K + k]! + lg[g * K + k]!;
      size *= G;
    }
    const row = groups.row[m.group]!;
    if (row < 0) addGenotypeRows(genotypeOf, i0 * N, N, K, target, table);
    else addGenotypeRows(groups.codes, row * N, N, K, target, table);
  };
  // Each block's members, in locus order.
  const members: Member[][] = Array.from({ length: blocks.count }, () => []);
  for (let q = 0; q + 1 < groups.first.length; q++) {
    const i0 = groups.first[q]!;
    const i1 = groups.first[q + 1]!;
    let one = true;
    for (let i = i0 + 1; i < i1; i++) if (blocks.of[i] !== blocks.of[i0]) one = false;
    if (one) members[blocks.of[i0]!]!.push({ group: q });
    else for (let i = i0; i < i1; i++) members[blocks.of[i]!]!.push({ locus: i });
  }
  const rows = new Float64Array(N * K);
  for (let c = 0; c < K; c++) rows[c] = detLog(model.weights[c]!);
  for (let d = 1; d < N; d++) rows.copyWithin(d * K, 0, K);
  for (const list of members) for (const m of list) add(m, rows);
  const part = new Float64Array(N * K);
  for (let b = 0; b < blocks.count; b++) {
    if (members[b]!.length === 0) continue;
    part.fill(0);
    for (const m of members[b]!) add(m, part);
    let total = 0;
    for (let d = 0; d < N; d++) {
      const o = d * K;
      let max = -Infinity;
      for (let c = 0; c < K; c++) if (rows[o + c]! - part[o + c]! > max) max = rows[o + c]! - part[o + c]!;
      let sum = 0;
      for (let c = 0; c < K; c++) sum += detExp(rows[o + c]! - part[o + c]! - max);
      total += max + detLog(sum);
    }
    out[b]! += total;
  }
}
