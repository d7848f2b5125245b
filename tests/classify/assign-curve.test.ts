// The Assign use case's accuracy-against-panel-size curve uses the same variables as its headline
// accuracy: a panel of every marker is the whole classifier, so it gives the headline's accuracy
// (the curve used genotype variables while the headline used alleles: 83 % against 95 %).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignIndividuals } from '../../engine/service/assign.ts';
import { multiAllelicPopulations } from '../model/synthetic.ts';

const NB = { structure: 'nb', k: 2, learning: 'generative', alpha: 'auto' } as const;

test('the panel curve of allele variables reaches the headline accuracy with every marker', () => {
  const { data } = multiAllelicPopulations(3, {
    pops: 4,
    perPop: 30,
    loci: 12,
    minAlleles: 6,
    maxAlleles: 12,
    fst: 0.03,
  });
  for (const learning of ['generative', 'gradient'] as const) {
    const a = assignIndividuals(data, {
      by: 'population',
      classifier: { ...NB, learning },
      folds: 5,
      seed: 1,
      curveSizes: [3, 12],
    });
    assert.equal(a.variables, 'alleles');
    for (const method of ['mi', 'fst', 'random'] as const) {
      const whole = a.curve.find((p) => p.method === method && p.size === 12)!;
      assert.equal(whole.accuracy, a.evaluation.accuracy, `${learning}, ${method}: every marker`);
    }
    const small = a.curve.find((p) => p.method === 'mi' && p.size === 3)!;
    assert.ok(
      small.accuracy < a.evaluation.accuracy,
      `${learning}: 3 markers ${small.accuracy} < all ${a.evaluation.accuracy}`,
    );
  }
});
