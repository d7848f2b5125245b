// Choosing K for the admixture model: BIC counts every individual's proportions, and with
// cross-validation the recommended K is the one with the lowest CV error (ADMIXTURE's rule).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSweep } from '../../engine/service/analyze-sweep.ts';
import { restoreRuns, type SavedRun } from '../../engine/service/cluster-sweep.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { admixedData } from './synthetic.ts';

test('admixture K choice: BIC with N (K − 1) + K Σ (r − 1) parameters; the lowest CV error is the recommended K', () => {
  const { data } = admixedData(3, { N: 30, L: 20, K: 2, alpha: 0.5, fst: 0.1 });
  const md = buildPreparedData(data);
  const saved = (K: number, model: 'admixture' | 'mixture', cvError?: number): SavedRun => {
    const Q = new Float64Array(md.N * K).fill(1 / K);
    const theta = new Float64Array(md.totalAlleles * K);
    for (let l = 0; l < md.L; l++)
      for (let a = 0; a < md.alleles[l]!; a++)
        for (let k = 0; k < K; k++) theta[(md.offsets[l]! + a) * K + k] = 1 / md.alleles[l]!;
    return {
      K,
      replicate: 0,
      logLik: -1000 + K,
      completedStarts: 1,
      Q,
      weights: new Float64Array(K).fill(1 / K),
      theta,
      informative: new Float64Array(md.L).fill(1),
      model,
      ...(cvError !== undefined ? { cvError } : {}),
    };
  };
  const errors = [0.61, 0.55, 0.58, 0.6];
  const runs = restoreRuns(
    data,
    errors.map((e, j) => saved(j + 1, 'admixture', e)),
  );
  const a = analyzeSweep(data, runs);
  assert.equal(a.recommendedK, 2);
  assert.deepEqual(
    a.perK.map((k) => k.cvError),
    errors,
  );
  // Σ (r_l − 1) = L for SNPs: BIC = −2 ln L + [N (K − 1) + K L] ln N.
  for (const k of a.perK) {
    const params = md.N * (k.K - 1) + k.K * md.L;
    assert.ok(Math.abs(k.bicMean - (-2 * (-1000 + k.K) + params * Math.log(md.N))) < 1e-9);
  }
  const mixture = analyzeSweep(data, restoreRuns(data, [saved(3, 'mixture')]));
  assert.ok(Math.abs(mixture.perK[0]!.bicMean - (-2 * -997 + (2 + 3 * md.L) * Math.log(md.N))) < 1e-9);
  assert.equal(mixture.perK[0]!.cvError, undefined);
});
