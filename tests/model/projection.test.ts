// Projection (ADMIXTURE's -P): ancestry proportions of new individuals with the ancestral
// frequencies fixed. Checked against a grid search of the likelihood over the simplex (tiny case),
// against the true proportions of simulated SNP data, and marker matching against hand-made panels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../engine/util/rng.ts';
import { alleleOffsets, MISSING, type GenotypeData } from '../../engine/data/genotype-data.ts';
import { onReferenceMarkers } from '../../engine/data/marker-match.ts';
import { packedGenotypeData } from '../../engine/data/packed-calls.ts';
import { projectAncestry } from '../../engine/model/admixture/projection.ts';
import {
  clusterCopies,
  projectOnto,
  projectOntoWith,
  readReference,
  type Reference,
} from '../../engine/service/project.ts';
import { nodeStartPool } from '../../engine/node/worker-pool.ts';
import { admixedData, makeData, randomFrequencies } from './synthetic.ts';

test('projected proportions maximise the likelihood: equal to a grid search over the simplex (K = 3)', () => {
  const rng = createRng(11);
  const K = 3;
  const L = 12;
  const alleles = [2, 3, 2, 4, 2, 2, 3, 2, 2, 5, 2, 2];
  const data = makeData(4, L, 2, alleles, (l, i, p) =>
    i === 3 && l % 3 === 0 ? MISSING : Math.floor(rng.uniform() * alleles[l]!) + 0 * p,
  );
  const offsets = alleleOffsets(data);
  const F = randomFrequencies(rng, offsets, K);
  const proj = projectAncestry(data, F, K, offsets);
  const logLik = (i: number, q: number[]) => {
    let ll = 0;
    for (let l = 0; l < L; l++)
      for (let p = 0; p < 2; p++) {
        const a = data.calls[(l * 4 + i) * 2 + p]!;
        if (a === MISSING) continue;
        let x = 0;
        for (let k = 0; k < K; k++) x += q[k]! * F[(offsets[l]! + a) * K + k]!;
        ll += Math.log(x);
      }
    return ll;
  };
  const step = 1 / 400;
  for (let i = 0; i < 4; i++) {
    let best = { ll: -Infinity, q: [0, 0, 0] };
    for (let a = 0; a <= 400; a++)
      for (let b = 0; a + b <= 400; b++) {
        const q = [a * step, b * step, 1 - (a + b) * step];
        const ll = logLik(i, q);
        if (ll > best.ll) best = { ll, q };
      }
    const q = Array.from(proj.Q.subarray(i * K, i * K + K));
    assert.ok(proj.logLik[i]! >= best.ll - 1e-9, `individual ${i}: ${proj.logLik[i]} < grid ${best.ll}`);
    assert.ok(Math.abs(proj.logLik[i]! - logLik(i, q)) < 1e-9, 'reported ln L is that of Q');
    for (let k = 0; k < K; k++) assert.ok(Math.abs(q[k]! - best.q[k]!) <= 2 * step, `${q} vs grid ${best.q}`);
  }
});

test('new individuals of simulated SNP data (10,000 SNPs, K = 3) are projected within RMSE 0.02 of their true Q', () => {
  const sim = admixedData(5, { N: 60, L: 10_000, K: 3, alpha: 0.5, fst: 0.1 });
  const proj = projectAncestry(sim.data, sim.F, 3, alleleOffsets(sim.data));
  let ss = 0;
  for (let x = 0; x < sim.Q.length; x++) ss += (proj.Q[x]! - sim.Q[x]!) ** 2;
  const rmse = Math.sqrt(ss / sim.Q.length);
  assert.ok(rmse <= 0.02, `RMSE ${rmse}`);
  assert.ok(proj.converged.every((c) => c === 1));
  // The maximum's KKT conditions from the calls: per individual the gradient ratios
  // g_k = (1/copies) Σ_copies f_k(a)/d(a) are 1 where q_k > 0 and at most 1 where q_k = 0.
  const offsets = alleleOffsets(sim.data);
  const N = sim.data.individuals.length;
  let boundary = 0;
  for (let i = 0; i < N; i++) {
    const g = [0, 0, 0];
    let copies = 0;
    for (let l = 0; l < sim.data.loci.length; l++)
      for (let p = 0; p < 2; p++) {
        const a = sim.data.calls[(l * N + i) * 2 + p]!;
        if (a === MISSING) continue;
        const row = (offsets[l]! + a) * 3;
        let d = 0;
        for (let k = 0; k < 3; k++) d += proj.Q[i * 3 + k]! * sim.F[row + k]!;
        for (let k = 0; k < 3; k++) g[k]! += sim.F[row + k]! / d;
        copies++;
      }
    for (let k = 0; k < 3; k++) {
      const ratio = g[k]! / copies;
      if (proj.Q[i * 3 + k]! > 1e-6) assert.ok(Math.abs(ratio - 1) < 1e-6, `individual ${i}, cluster ${k}: ${ratio}`);
      else {
        boundary++;
        assert.ok(ratio <= 1 + 1e-6, `individual ${i}, cluster ${k} at 0 would gain: ${ratio}`);
      }
    }
  }
  assert.ok(boundary > 0, 'some proportions on the boundary (Dirichlet(0.5) ancestry)');
});

function snps(names: string[], alleles: string[][], chrom?: string[], pos?: number[]): GenotypeData {
  const data = makeData(
    2,
    names.length,
    2,
    alleles.map((a) => a.length),
    // Genotypes (0, 0), (0, 1), (1, 1) in turn, copies sorted (as every reader gives them).
    (l, i, p) => ((i + l) % 3 === 0 ? 0 : (i + l) % 3 === 2 ? 1 : p),
  );
  return {
    ...data,
    loci: names.map((name, l) => ({
      name,
      alleles: alleles[l]!,
      ...(chrom ? { chrom: chrom[l]!, pos: pos![l]! } : {}),
    })),
  };
}

test('markers match by name with swapped, strand-flipped, ambiguous and mismatched SNPs counted', () => {
  const reference = [
    { name: 'rs1', alleles: ['A', 'G'] },
    { name: 'rs2', alleles: ['A', 'G'] },
    { name: 'rs3', alleles: ['A', 'G'] },
    { name: 'rs4', alleles: ['A', 'T'] },
    { name: 'rs5', alleles: ['A', 'G'] },
    { name: 'rs6', alleles: ['C', 'T'] },
  ];
  // rs1 as is; rs2 swapped; rs3 on the other strand (T/C); rs4 ambiguous; rs5 other alleles; rs7 not in the panel.
  const data = snps(
    ['rs1', 'rs2', 'rs3', 'rs4', 'rs5', 'rs7'],
    [
      ['A', 'G'],
      ['G', 'A'],
      ['T', 'C'],
      ['A', 'T'],
      ['A', 'C'],
      ['C', 'T'],
    ],
  );
  const { data: on, counts } = onReferenceMarkers(data, reference);
  assert.deepEqual(
    { ...counts },
    {
      by: 'name',
      reference: 6,
      data: 6,
      matched: 3,
      strandFlipped: 1,
      swapped: 1,
      ambiguous: 1,
      ambiguousDropped: 1,
      mismatched: 1,
      absent: 3,
      unseenAlleleCopies: 0,
    },
  );
  const call = (l: number, i: number) => [on.calls[(l * 2 + i) * 2]!, on.calls[(l * 2 + i) * 2 + 1]!];
  const own = (l: number, i: number) => [data.calls[(l * 2 + i) * 2]!, data.calls[(l * 2 + i) * 2 + 1]!];
  // A genotype's copies read with the other allele order, sorted again.
  const swap = (g: number[]) => g.map((a) => 1 - a).sort();
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(call(0, i), own(0, i)); // same allele names, same indices
    assert.deepEqual(call(1, i), swap(own(1, i))); // G/A → A/G
    assert.deepEqual(call(2, i), own(2, i)); // T/C ≡ A/G: T→A (0), C→G (1)
    for (const dropped of [3, 4, 5]) assert.deepEqual(call(dropped, i), [MISSING, MISSING]);
  }
  assert.ok([0, 1].some((i) => own(1, i)[0] !== own(1, i)[1]) && [0, 1].some((i) => own(1, i)[0] === own(1, i)[1]));
  // Without a marker on the other strand, the A/T SNP is kept by name (here with its alleles swapped).
  const same = snps(
    ['rs1', 'rs4'],
    [
      ['A', 'G'],
      ['T', 'A'],
    ],
  );
  const kept = onReferenceMarkers(same, reference);
  assert.equal(kept.counts.matched, 2);
  assert.equal(kept.counts.ambiguous, 1);
  assert.equal(kept.counts.ambiguousDropped, 0);
  assert.equal(kept.counts.swapped, 1);
  for (let i = 0; i < 2; i++)
    assert.deepEqual(
      [kept.data.calls[(3 * 2 + i) * 2]!, kept.data.calls[(3 * 2 + i) * 2 + 1]!],
      swap([same.calls[(1 * 2 + i) * 2]!, same.calls[(1 * 2 + i) * 2 + 1]!]),
    );
});

test('markers match by chromosome and position when names differ; a panel sharing none is refused with the counts', () => {
  const reference = [
    { name: 'rsA', alleles: ['C', 'T'], chrom: '1', pos: 100 },
    { name: 'rsB', alleles: ['A', 'G'], chrom: '2', pos: 200 },
  ];
  const data = snps(
    ['1:100', '2:200', '3:300'],
    [
      ['T', 'C'],
      ['A', 'G'],
      ['A', 'G'],
    ],
    ['1', '2', '3'],
    [100, 200, 300],
  );
  const { counts } = onReferenceMarkers(data, reference);
  assert.equal(counts.by, 'position');
  assert.equal(counts.matched, 2);
  assert.equal(counts.swapped, 1);
  const P = 'locus\tallele\tcluster1\tcluster2\nrsX\tA\t0.5\t0.2\nrsX\tG\t0.5\t0.8\n';
  assert.throws(
    () => projectOnto(data, readReference('panel.P', P)),
    /panel\.P: none of its 1 markers is usable in the data \(3 markers matched by position/,
  );
});

test('a .P reference with a frequency out of range names its line and column', () => {
  const P = 'locus\tallele\tcluster1\tcluster2\nrs1\tA\t0.5\t1.2\n';
  assert.throws(() => readReference('panel.P', P), /panel\.P:2:11: frequency "1\.2"/);
});

test("a result file reference carries its clusters' copies; the prior applies to it and not to a .P file", () => {
  const data = snps(
    ['rs1', 'rs2'],
    [
      ['A', 'G'],
      ['C', 'T'],
    ],
  );
  const Q = [
    [0.75, 0.25],
    [0.5, 0.5],
    [1, 0],
  ];
  const frequencies = [
    [0.9, 0.1],
    [0.1, 0.9],
    [0.2, 0.6],
    [0.8, 0.4],
  ];
  const json = JSON.stringify({
    program: 'stratify',
    dataset: { loci: data.loci.map((l) => ({ name: l.name, alleles: l.alleles })), ploidy: 2 },
    runs: [{ K: 2, replicate: 0, logLik: -1, model: 'admixture', weights: [0.75, 0.25], frequencies, Q }],
  });
  const reference = readReference('fit.json', json);
  // 2 × (0.75 + 0.5 + 1) and 2 × (0.25 + 0.5 + 0).
  assert.deepEqual(Array.from(reference.clusterCopies!), [4.5, 1.5]);
  assert.deepEqual(Array.from(clusterCopies(Float64Array.from(Q.flat()), 2, 2)), [4.5, 1.5]);
  const asFitted = projectOnto(data, reference, 0);
  assert.equal(asFitted.frequencyPrior, 0);
  const direct = projectAncestry(data, reference.F, 2, alleleOffsets(data));
  assert.deepEqual(Array.from(asFitted.Q), Array.from(direct.Q));
  const smoothed = projectOnto(data, reference);
  assert.equal(smoothed.frequencyPrior, 0.5);
  const sample = { clusterCopies: Float64Array.from([4.5, 1.5]), prior: 0.5 };
  const own = projectAncestry(data, reference.F, 2, alleleOffsets(data), { sample });
  assert.deepEqual(Array.from(smoothed.Q), Array.from(own.Q));
  assert.notDeepEqual(Array.from(smoothed.Q), Array.from(direct.Q));
  const P = 'locus\tallele\tcluster1\tcluster2\nrs1\tA\t0.9\t0.1\nrs1\tG\t0.1\t0.9\n';
  assert.equal(projectOnto(data, readReference('panel.P', P)).frequencyPrior, 0);
  // A result whose Q does not fit K says nothing of its sample: its frequencies are used as they are.
  const parsed = JSON.parse(json) as { runs: { Q: number[][] }[] };
  parsed.runs[0]!.Q[0] = [0.75];
  const malformed = readReference('fit.json', JSON.stringify(parsed));
  assert.equal(malformed.clusterCopies, undefined);
  assert.equal(projectOnto(data, malformed).frequencyPrior, 0);
});

/** An admixture reference at K = 3 on these markers and frequencies, its clusters' copies 300, 200, 100. */
function admixtureReference(loci: Reference['loci'], F: Float64Array): Reference {
  return {
    file: 'fit.json',
    K: 3,
    model: 'admixture',
    loci,
    F,
    clusterCopies: Float64Array.from([300, 200, 100]),
    run: 'K = 3',
  };
}

test('a projection shared among worker threads gives the numbers of one thread, in order', async () => {
  const rng = createRng(21);
  const K = 3;
  const sim = admixedData(4, { N: 23, L: 300, K, alpha: 0.5, fst: 0.1 });
  const data = sim.data;
  const offsets = alleleOffsets(data);
  const reference = admixtureReference(data.loci, randomFrequencies(rng, offsets, K));
  const pool = nodeStartPool(2);
  try {
    for (const prior of [0.5, 0]) {
      const here = projectOnto(data, reference, prior);
      let reported = 0;
      const there = await projectOntoWith(pool, data, reference, prior, undefined, (done, total) => {
        assert.ok(done >= reported && total === 23, `progress ${done} of ${total} after ${reported}`);
        reported = done;
      });
      assert.equal(reported, 23, 'every individual reported');
      assert.deepEqual(Array.from(there.Q), Array.from(here.Q), `Q with prior ${prior}`);
      assert.deepEqual(Array.from(there.copies), Array.from(here.copies));
      assert.deepEqual(Array.from(there.logLik!), Array.from(here.logLik!));
      assert.equal(there.frequencyPrior, prior);
    }
    // A cancelled projection says so (and returns nothing half done).
    const stop = new AbortController();
    stop.abort();
    await assert.rejects(projectOntoWith(pool, data, reference, 0.5, stop.signal), /cancelled/);
  } finally {
    pool.close();
  }
  // Without a runner that projects, the same in this thread, reporting each individual.
  const seen: number[] = [];
  await projectOntoWith(undefined, data, reference, 0.5, undefined, (done) => seen.push(done));
  assert.deepEqual(
    seen,
    Array.from({ length: 23 }, (_, i) => i + 1),
  );
  assert.deepEqual(
    Array.from((await projectOntoWith(undefined, data, reference)).Q),
    Array.from(projectOnto(data, reference).Q),
  );
});

test('packed SNPs stay packed on the reference markers and project as their unpacked calls, in one thread and on workers', async () => {
  const rng = createRng(33);
  const N = 37;
  const K = 3;
  // The data's SNPs; the reference takes them in another order, some with their alleles swapped,
  // one on the other strand, and has two markers the data lacks.
  const own = [
    ['A', 'G'],
    ['C', 'T'],
    ['G', 'A'],
    ['T', 'C'],
    ['A', 'C'],
    ['G', 'T'],
  ];
  const L = 40;
  const loci = Array.from({ length: L }, (_, l) => ({ name: `rs${l}`, alleles: own[l % own.length]! }));
  const per = Math.ceil(N / 4);
  const bytes = new Uint8Array(L * per);
  const calls = new Int8Array(L * N * 2);
  for (let l = 0; l < L; l++) {
    const p = 0.1 + 0.8 * rng.uniform();
    for (let i = 0; i < N; i++) {
      const g = rng.uniform() < 0.05 ? -1 : (rng.uniform() < p ? 1 : 0) + (rng.uniform() < p ? 1 : 0);
      // The .bed's codes by their definition: 00 (0, 0), 01 missing, 10 (0, 1), 11 (1, 1).
      bytes[l * per + (i >> 2)]! |= (g < 0 ? 1 : g === 0 ? 0 : g === 1 ? 2 : 3) << (2 * (i & 3));
      calls[(l * N + i) * 2] = g < 0 ? MISSING : g === 2 ? 1 : 0;
      calls[(l * N + i) * 2 + 1] = g < 0 ? MISSING : g === 0 ? 0 : 1;
    }
  }
  const individuals = Array.from({ length: N }, (_, i) => ({ id: `i${i}` }));
  const packed = packedGenotypeData({ individuals, loci }, { bytes, bytesPerLocus: per });
  const plain: GenotypeData = { ploidy: 2, individuals, loci, calls, phased: false };
  const flip: Record<string, string> = { A: 'T', T: 'A', C: 'G', G: 'C' };
  const referenceLoci = [
    { name: 'absent1', alleles: ['A', 'G'] },
    ...loci
      .map((locus, l) => ({
        name: locus.name,
        alleles:
          l % 5 === 1 ? [...locus.alleles].reverse() : l === 7 ? locus.alleles.map((a) => flip[a]!) : locus.alleles,
      }))
      .reverse(),
    { name: 'absent2', alleles: ['C', 'T'] },
  ];
  const onPacked = onReferenceMarkers(packed, referenceLoci);
  const onPlain = onReferenceMarkers(plain, referenceLoci);
  assert.deepEqual(onPacked.counts, onPlain.counts);
  assert.ok(onPlain.counts.swapped > 0 && onPlain.counts.strandFlipped === 1 && onPlain.counts.absent === 2);
  assert.ok(onPacked.data.packed, 'the matched data stay packed');
  assert.equal(onPlain.data.packed, undefined);
  assert.deepEqual(Array.from(onPacked.data.calls), Array.from(onPlain.data.calls));
  const offsets = alleleOffsets(onPlain.data);
  const reference = admixtureReference(referenceLoci, randomFrequencies(rng, offsets, K));
  const pool = nodeStartPool(2);
  try {
    for (const prior of [0.5, 0]) {
      const expected = projectOnto(plain, reference, prior);
      for (const got of [
        projectOnto(packed, reference, prior),
        await projectOntoWith(pool, packed, reference, prior),
      ]) {
        assert.deepEqual(Array.from(got.Q), Array.from(expected.Q), `Q with prior ${prior}`);
        assert.deepEqual(Array.from(got.logLik!), Array.from(expected.logLik!));
        assert.deepEqual(Array.from(got.copies), Array.from(expected.copies));
      }
    }
  } finally {
    pool.close();
  }
  // A mixture reference reads the matched calls too (not the data's own packed bytes), also where
  // a marker of three alleles makes the matched data plain calls.
  const weights = Float64Array.from([0.5, 0.3, 0.2]);
  const mixture = { ...reference, model: 'mixture' as const, weights };
  assert.deepEqual(Array.from(projectOnto(packed, mixture).Q), Array.from(projectOnto(plain, mixture).Q));
  const threeAlleles = referenceLoci.map((r) => (r.name === 'rs0' ? { ...r, alleles: ['A', 'G', 'C'] } : r));
  const plainOnThree = onReferenceMarkers(packed, threeAlleles).data;
  assert.equal(plainOnThree.packed, undefined);
  const mixtureOnThree = {
    ...mixture,
    loci: threeAlleles,
    F: randomFrequencies(rng, alleleOffsets(plainOnThree), K),
  };
  assert.deepEqual(Array.from(projectOnto(packed, mixtureOnThree).Q), Array.from(projectOnto(plain, mixtureOnThree).Q));
});
