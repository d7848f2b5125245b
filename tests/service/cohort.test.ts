import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combineCohort, planCohort } from '../../engine/service/cohort.ts';
import { readReference } from '../../engine/service/project.ts';

/** A stratify.json of a K = 2 fit to individuals r1, r2 over one SNP. */
const REFERENCE = JSON.stringify({
  program: 'stratify',
  dataset: { individuals: [{ id: 'r1' }, { id: 'r2' }], loci: [{ name: 'snp1', alleles: ['A', 'G'] }], ploidy: 2 },
  runs: [
    {
      K: 2,
      replicate: 0,
      logLik: -10,
      cvError: 0.5,
      weights: [0.5, 0.5],
      frequencies: [
        [0.9, 0.2],
        [0.1, 0.8],
      ],
      Q: [
        [1, 0],
        [0.25, 0.75],
      ],
    },
    {
      K: 3,
      replicate: 0,
      logLik: -9,
      cvError: 0.6,
      weights: [0.3, 0.3, 0.4],
      frequencies: [
        [0.9, 0.2, 0.5],
        [0.1, 0.8, 0.5],
      ],
      Q: [
        [1, 0, 0],
        [0, 1, 0],
      ],
    },
  ],
});
const reference = readReference('ref.json', REFERENCE, 'cv');
const piece = (ids: string[], run = reference.run) =>
  JSON.stringify({
    program: 'stratify',
    reference: { K: 2, run },
    individuals: ids.map((id, j) => ({ id, copies: 2, Q: [j / 4, 1 - j / 4] })),
  });
const cohort = ['a', 'r1', 'b', 'c', 'r2'].map((id) => ({ id, population: id.startsWith('r') ? 'ref' : 'new' }));

test('--k cv picks the K of the lowest CV error; the reference keeps its individuals and their Q', () => {
  assert.equal(reference.K, 2);
  assert.deepEqual(reference.fitted?.ids, ['r1', 'r2']);
  assert.throws(() => readReference('ref.json', REFERENCE.replaceAll('"cvError"', '"cv"'), 'cv'), /no CV errors/);
});

test('combine puts the fitted and the projected individuals in the cohort’s order', () => {
  const r = combineCohort(
    cohort,
    reference,
    [
      { file: 's1', text: piece(['a', 'b']) },
      { file: 's2', text: piece(['c']) },
    ],
    'x.bed',
  );
  const Q = r.files.find((f) => f.name === 'stratify.cohort.K2.Q')!.text;
  assert.equal(Q, '0.000000 1.000000\n1.000000 0.000000\n0.250000 0.750000\n0.000000 1.000000\n0.250000 0.750000\n');
  assert.deepEqual([r.fitted, r.projected], [2, 3]);
  const tsv = r.files.find((f) => f.name === 'cohort.tsv')!.text.split('\n');
  assert.equal(tsv[1], 'a\tnew\ts1\t2\t0.000000\t1.000000');
  assert.equal(tsv[2], 'r1\tref\treference\t\t1.000000\t0.000000');
  const json = JSON.parse(r.files.find((f) => f.name === 'stratify.json')!.text) as {
    runs: { Q: number[][]; weights: number[] }[];
  };
  assert.equal(json.runs[0]!.Q.length, 5);
  assert.deepEqual(json.runs[0]!.weights, [0.3, 0.7]);
});

test('combine refuses an individual twice, one left out, a stranger, or a shard projected onto another run', () => {
  const run = (pieces: string[]) => () =>
    combineCohort(
      cohort,
      reference,
      pieces.map((text, k) => ({ file: `s${k + 1}`, text })),
      'x.bed',
    );
  assert.throws(run([piece(['a', 'b']), piece(['b', 'c'])]), /"b" is in s1 and in s2/);
  assert.throws(run([piece(['a', 'r1', 'b', 'c'])]), /"r1" is in reference and in s1/);
  assert.throws(run([piece(['a', 'b'])]), /1 individual\(s\) of x\.bed are in neither.*: c/);
  assert.throws(run([piece(['a', 'b', 'c', 'zz'])]), /"zz" of s1 is not in x\.bed/);
  assert.throws(run([piece(['a', 'b', 'c'], 'K = 2, replicate 2 of 2')]), /s1: projected onto K = 2, replicate 2/);
});

test('a plan: the reference given or drawn, the others in shards in the cohort’s order', () => {
  const plan = planCohort(cohort, { referenceIds: [1, 4], draw: 'random', seed: 1, shards: 2 });
  assert.deepEqual(plan, { reference: [1, 4], shards: [[0], [2, 3]] });
  assert.throws(
    () => planCohort(cohort, { referenceIds: [0, 1, 2, 3, 4], draw: 'random', seed: 1, shards: 1 }),
    /none is left/,
  );
});
