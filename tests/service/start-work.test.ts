// The worker's use cases (engine/service/start-work.ts): a cross-validation fold's result does not
// depend on the folds the worker ran before it (the entries' order is made once per dataset and seed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cvFoldWork } from '../../engine/service/start-work.ts';
import { startContext } from '../../engine/model/start.ts';
import { cvEntryOrder, cvFoldSteps } from '../../engine/model/admixture/cross-validation.ts';
import { randomAdmixture } from '../../engine/model/admixture/admixture-start.ts';
import { admixtureFitOptions } from '../../engine/model/admixture/admixture-start.ts';
import { fitOptions } from '../../engine/service/cluster-sweep.ts';
import { runToEnd } from '../../engine/model/mixture/fit.ts';
import { createRng } from '../../engine/util/rng.ts';
import { admixedData } from '../model/synthetic.ts';

test('cross-validation folds in a worker give what a fresh order gives, fold after fold and seed after seed', () => {
  const { data } = admixedData(7, { N: 60, L: 40, K: 2, alpha: 0.5, fst: 0.1 });
  const context = startContext(data);
  const md = context.md;
  const K = 2;
  const { Q, F } = randomAdmixture(md, K, createRng(3));
  const options = fitOptions({ model: 'admixture', maxIterations: 30 });
  for (const seed of [11, 12, 11])
    for (let fold = 0; fold < 3; fold++) {
      const task = { K, Q, F, folds: 3, fold, seed };
      const inWorker = runToEnd(cvFoldWork(context, task, options));
      const fresh = runToEnd(
        cvFoldSteps(md, { K, Q, F }, 3, fold, cvEntryOrder(md, seed), admixtureFitOptions(options)),
      );
      assert.deepEqual(inWorker, fresh, `seed ${seed}, fold ${fold}`);
    }
});
