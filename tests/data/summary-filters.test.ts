import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyFilters, summarize } from '../../engine/index.ts';
import { parseText } from '../helpers.ts';

// 4 individuals × 4 loci, diploid. Locus m is monomorphic, locus r is rare, locus x is mostly missing.
const TEXT = 'id,pop,a,m,r,x\ni1,P,A/G,C/C,T/T,NA\ni2,P,A/A,C/C,T/T,NA\ni3,Q,G/G,C/C,T/T,NA\ni4,Q,A/G,C/C,T/G,A/A\n';

test('summary: hand-computed counts, Ho, He, MAF, missingness', async () => {
  const s = summarize(await parseText('s.csv', TEXT));
  assert.equal(s.individuals, 4);
  assert.equal(s.loci, 4);
  assert.deepEqual(Array.from(s.allelesPerLocus), [2, 1, 2, 1]);
  assert.equal(s.monomorphic, 2);
  assert.equal(s.biallelic, 2);
  // Locus a: alleles A,G,A,A,G,G,A,G → p = 0.5; He = 8/7 · 0.5 = 0.5714…; Ho = 2/4.
  assert.ok(Math.abs(s.he[0]! - (8 / 7) * 0.5) < 1e-12);
  assert.equal(s.ho[0], 0.5);
  assert.equal(s.maf[0], 0.5);
  assert.equal(s.maf[2], 1 / 8);
  assert.ok(Number.isNaN(s.maf[1]!));
  assert.equal(s.missingPerLocus[3], 0.75);
  assert.equal(s.missingPerIndividual[0], 0.25);
  assert.equal(s.missingRate, 6 / 32);
  assert.deepEqual(s.populations, [
    { name: 'P', count: 2 },
    { name: 'Q', count: 2 },
  ]);
});

test('filters report what they removed, in PLINK order', async () => {
  const d = await parseText('s.csv', TEXT);
  const r = applyFilters(d, { maxLocusMissing: 0.5, dropMonomorphic: true, minMaf: 0.2 });
  assert.deepEqual(
    r.data.loci.map((l) => l.name),
    ['a'],
  );
  assert.deepEqual(
    r.removedLoci.map((x) => x.name),
    ['m', 'r', 'x'],
  );
  assert.match(r.removedLoci.find((x) => x.name === 'x')!.reason, /missing 75\.0%/);
  assert.match(r.removedLoci.find((x) => x.name === 'r')!.reason, /MAF 0\.1250/);
  const byInd = applyFilters(d, { maxIndividualMissing: 0.2 });
  assert.deepEqual(
    byInd.removedIndividuals.map((x) => x.name),
    ['i1', 'i2', 'i3'],
  );
  assert.equal(byInd.data.individuals.length, 1);
  assert.throws(() => applyFilters(d, { minMaf: 2 }), /fraction/);
});
