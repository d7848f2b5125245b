// PCA against an explicit matrix: X built from the calls (a separate path from the engine's
// per-genotype tables), then ml-matrix's SVD of X as the exact reference.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Matrix, SingularValueDecomposition } from 'ml-matrix';
import { pca } from '../../engine/analysis/pca.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { subsetData, type GenotypeData } from '../../engine/data/genotype-data.ts';
import { multiAllelicPopulations } from '../model/synthetic.ts';
import { correlation } from '../../bench/correlation.ts';

/** X (N × M) as the module documents it, from the calls: genotypes with a missing copy at 0. */
function explicitColumns(data: GenotypeData): number[][] {
  const N = data.individuals.length;
  const P = data.ploidy;
  const columns: number[][] = [];
  data.loci.forEach((_, l) => {
    const calls = (d: number) => Array.from({ length: P }, (_, p) => data.calls[(l * N + d) * P + p]!);
    const complete = Array.from({ length: N }, (_, d) => calls(d).every((a) => a >= 0));
    const observed = new Set<number>();
    for (let d = 0; d < N; d++) if (complete[d]) for (const a of calls(d)) observed.add(a);
    // Alleles are numbered as the engine numbers them: in order of the locus's allele list; a
    // two-allele locus contributes its second allele.
    const r = data.loci[l]!.alleles.length;
    const alleles = r === 2 ? [1] : Array.from({ length: r }, (_, a) => a);
    for (const a of alleles) {
      const counts = Array.from({ length: N }, (_, d) => calls(d).filter((x) => x === a).length);
      const n = complete.filter(Boolean).length;
      const f = counts.reduce((s, c, d) => s + (complete[d] ? c : 0), 0) / (P * n);
      if (!(f > 0 && f < 1)) continue;
      columns.push(counts.map((c, d) => (complete[d] ? (c - P * f) / Math.sqrt(P * f * (1 - f)) : 0)));
    }
  });
  return columns;
}

function reference(data: GenotypeData, k: number) {
  const cols = explicitColumns(data);
  const N = data.individuals.length;
  const X = new Matrix(N, cols.length);
  cols.forEach((c, j) => c.forEach((v, d) => X.set(d, j, v)));
  const svd = new SingularValueDecomposition(X, { autoTranspose: true });
  const M = cols.length;
  return {
    M,
    values: svd.diagonal.slice(0, k).map((s) => (s * s) / M),
    vectors: Array.from({ length: k }, (_, j) => svd.leftSingularVectors.getColumn(j)),
  };
}

const column = (v: Float64Array, pcs: number, k: number) =>
  Array.from({ length: v.length / pcs }, (_, d) => v[d * pcs + k]!);

const cases = [
  {
    name: 'microsatellites with missing calls',
    o: { pops: 4, perPop: 40, loci: 30, minAlleles: 3, maxAlleles: 8, fst: 0.1, missing: 0.05 },
  },
  // Enough individuals for groups of several SNPs (locus-groups.ts).
  {
    name: 'SNPs in locus groups',
    o: { pops: 4, perPop: 60, loci: 200, minAlleles: 2, maxAlleles: 2, fst: 0.08, missing: 0.02 },
  },
];

for (const { name, o } of cases) {
  test(`PCA, exact: eigenvalues and vectors of the explicit matrix (${name})`, () => {
    const { data } = multiAllelicPopulations(7, o);
    const md = buildPreparedData(data);
    const ref = reference(data, 6);
    const r = pca(md, { pcs: 6, exactUpTo: 400 });
    assert.equal(r.method, 'exact');
    assert.equal(r.columns, ref.M);
    for (let k = 0; k < 6; k++) {
      assert.ok(
        Math.abs(r.eigenvalues[k]! - ref.values[k]!) <= 1e-8 * ref.values[k]!,
        `λ${k + 1}: ${r.eigenvalues[k]} vs ${ref.values[k]}`,
      );
      if (k < 4) {
        const c = Math.abs(correlation(column(r.vectors, 6, k), ref.vectors[k]!));
        assert.ok(c >= 0.9999, `PC${k + 1}: |r| = ${c}`);
      }
    }
    // Unit vectors; fractions of the variance sum to at most 1.
    let norm = 0;
    for (let d = 0; d < md.N; d++) norm += r.vectors[d * 6]! ** 2;
    assert.ok(Math.abs(norm - 1) < 1e-10);
    assert.ok(r.varianceFraction.reduce((a, b) => a + b, 0) <= 1 + 1e-12);
  });

  test(`PCA, randomised: the leading components of the exact decomposition (${name})`, () => {
    const { data } = multiAllelicPopulations(7, o);
    const md = buildPreparedData(data);
    const ref = reference(data, 3);
    const r = pca(md, { pcs: 3, exactUpTo: 0 });
    assert.equal(r.method, 'randomized');
    assert.ok(r.converged);
    for (let k = 0; k < 3; k++) {
      assert.ok(
        Math.abs(r.eigenvalues[k]! - ref.values[k]!) <= 1e-6 * ref.values[k]!,
        `λ${k + 1}: ${r.eigenvalues[k]} vs ${ref.values[k]}`,
      );
      const c = Math.abs(correlation(column(r.vectors, 3, k), ref.vectors[k]!));
      assert.ok(c >= 0.9999, `PC${k + 1}: |r| = ${c}`);
    }
  });
}

test('PCA: the same seed gives the same vectors; no varying marker is refused', () => {
  const { data } = multiAllelicPopulations(3, {
    pops: 2,
    perPop: 20,
    loci: 20,
    minAlleles: 2,
    maxAlleles: 2,
    fst: 0.2,
    missing: 0,
  });
  const md = buildPreparedData(data);
  assert.deepEqual(
    pca(md, { pcs: 2, exactUpTo: 0, seed: 5 }).vectors,
    pca(md, { pcs: 2, exactUpTo: 0, seed: 5 }).vectors,
  );
  const flat = { ...data, calls: data.calls.map(() => 0) };
  assert.throws(() => pca(buildPreparedData(flat)), /no marker varies/);
});

test('PCA, randomised, of data of lower rank than the components asked: settles at once, the rest 0', () => {
  // 3 SNPs, each repeated 10 times: 30 columns of rank 3, and 10 components asked. The components
  // past the rank are rounding; they once kept the iterations going to their limit.
  const { data: base } = multiAllelicPopulations(3, {
    pops: 3,
    perPop: 400,
    loci: 3,
    minAlleles: 2,
    maxAlleles: 2,
    fst: 0.1,
    missing: 0,
  });
  const data = subsetData(
    base,
    Array.from({ length: 30 }, (_, j) => j % 3),
    base.individuals.map((_, i) => i),
  );
  const md = buildPreparedData(data);
  const ref = reference(data, 3);
  const r = pca(md, { pcs: 10, exactUpTo: 0 });
  assert.equal(r.method, 'randomized');
  assert.ok(r.converged);
  assert.ok(r.iterations <= 3, `${r.iterations} iterations`);
  for (let k = 0; k < 3; k++)
    assert.ok(
      Math.abs(r.eigenvalues[k]! - ref.values[k]!) <= 1e-8 * ref.values[0]!,
      `λ${k + 1}: ${r.eigenvalues[k]} vs ${ref.values[k]}`,
    );
  for (let k = 3; k < r.pcs; k++) assert.ok(r.eigenvalues[k]! <= 1e-10 * ref.values[0]!, `λ${k + 1}`);
});
