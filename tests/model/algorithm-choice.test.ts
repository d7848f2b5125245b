// EMA's drift to "no marker informative" and its fix (EMA starts after EM), and `--algorithm auto`
// (held-out log-likelihood chooses between EMA and EM): docs/algorithms.md §3 and §4.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { individualSubset, buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { fit, fitScratch } from '../../engine/model/mixture/fit.ts';
import { DEFAULT_FIT, type FitOptions } from '../../engine/model/fit-options.ts';
import { eStep, eStepBuffers, expectedCounts } from '../../engine/model/mixture/e-step.ts';
import { locusEvidence, locusScratch } from '../../engine/model/mixture/ma-step.ts';
import { randomModel } from '../../engine/model/mixture/mixture-model.ts';
import { combineStarts, emaFromBestEm } from '../../engine/model/combine-starts.ts';
import { algorithmByGain, pairedGain } from '../../engine/model/algorithm-choice.ts';
import { HELD_OUT_FOLDS, heldOutLogLiks } from '../../engine/model/mixture/held-out.ts';
import { runStart, startSeed, type StartResult } from '../../engine/model/start.ts';
import { adjustedRandIndex, hardAssignments } from '../../engine/analysis/partition-scores.ts';
import { createRng } from '../../engine/util/rng.ts';
import { multiAllelicPopulations } from './synthetic.ts';

const starts = (
  md: ReturnType<typeof buildPreparedData>,
  K: number,
  o: FitOptions,
  m: number,
  seed = 1,
): StartResult[] => Array.from({ length: m }, (_, k) => runStart(md, K, o, k, startSeed(seed, K, 0, k)));
const informativeCount = (w: Float64Array) => Array.from(w).filter((x) => x > 0.5).length;

/** 15 populations of 20–80 individuals, 30 microsatellites, F_ST 0.05, 3% missing (like the cattle breeds of #12). */
function breeds() {
  const sizes = Array.from({ length: 15 }, (_, k) => 20 + ((k * 37) % 60));
  return multiAllelicPopulations(7, {
    pops: 15,
    perPop: 0,
    sizes,
    loci: 30,
    minAlleles: 4,
    maxAlleles: 14,
    fst: 0.05,
    missing: 0.03,
  });
}

test('EMA drift: from random parameters EMA ends with almost no marker informative although the converged clusters support every marker; starts after EM find the structure', () => {
  const { data, labels } = breeds();
  const md = buildPreparedData(data);
  const K = 15;
  // From random parameters drawn around the observed frequencies (the text's start; the default's
  // starts on individuals drift less: docs/algorithms.md §3).
  const random = starts(md, K, { ...DEFAULT_FIT, init: 'data', algorithm: 'ema', emaStarts: 'random' }, 12);
  const counts = random.map((s) => informativeCount(s.informative)).sort((a, b) => a - b);
  assert.ok(counts[6]! <= 2, `median informative markers from random parameters: ${counts[6]} of 30`);
  // The clusters EM converges to support nearly every marker: the dependent model has the higher
  // marginal likelihood (7.16) on their expected counts.
  const em = fit(md, randomModel(md, K, createRng(3), 'data'), { ...DEFAULT_FIT, algorithm: 'em' });
  const c = expectedCounts(md, em.model, em.posterior, 'skip');
  const scratch = locusScratch(md);
  let supported = 0;
  for (let i = 0; i < md.L; i++) {
    const e = locusEvidence(md, c, K, i, 1, scratch);
    if (e.logMLDependent > e.logMLIndependent) supported++;
  }
  assert.ok(supported >= 27, `${supported} of 30 markers supported by EM's clusters`);
  const ari = (o: FitOptions) => {
    const best = combineStarts(md, starts(md, K, o, 12), 'best');
    return {
      ari: adjustedRandIndex(hardAssignments(best.Q, md.N, K), labels),
      informative: informativeCount(best.informative),
    };
  };
  const before = ari({ ...DEFAULT_FIT, init: 'data', algorithm: 'ema', emaStarts: 'random' });
  const after = ari({ ...DEFAULT_FIT, init: 'data', algorithm: 'ema', emaStarts: 'mixed' });
  assert.ok(before.ari < 0.3, `random starts: ARI ${before.ari}`);
  assert.ok(
    after.ari > 0.6 && after.informative >= 25,
    `mixed starts: ARI ${after.ari}, ${after.informative} informative`,
  );
});

test('individualSubset: the E step on a subset is the sum of ln Σ_c θ_C(c) Π θ_ic(x) over its individuals (direct formula)', () => {
  const { data } = multiAllelicPopulations(4, {
    pops: 3,
    perPop: 7,
    loci: 5,
    minAlleles: 2,
    maxAlleles: 6,
    fst: 0.1,
    missing: 0.1,
  });
  const md = buildPreparedData(data);
  const model = randomModel(md, 3, createRng(9), 'data');
  const rows = [20, 3, 3, 11, 0];
  const sub = individualSubset(md, rows);
  const direct = rows.reduce((sum, d) => {
    const terms = Array.from({ length: 3 }, (_, c) => {
      let s = Math.log(model.weights[c]!);
      for (let l = 0; l < md.L; l++)
        for (let p = 0; p < 2; p++) {
          const a = data.calls[(l * md.N + d) * 2 + p]!;
          if (a >= 0) s += Math.log(model.theta[(md.offsets[l]! + a) * 3 + c]!);
        }
      return s;
    });
    const m = Math.max(...terms);
    return sum + m + Math.log(terms.reduce((t, x) => t + Math.exp(x - m), 0));
  }, 0);
  assert.ok(Math.abs(eStep(sub, model, eStepBuffers(sub, 3)) - direct) < 1e-9);
});

test('a fit that leaves individuals out is, bit for bit, the fit of the others alone (EM and EMA, missing copies, SNP groups)', () => {
  const { data } = multiAllelicPopulations(6, {
    pops: 3,
    perPop: 30,
    loci: 40,
    minAlleles: 2,
    maxAlleles: 2,
    fst: 0.1,
    missing: 0.05,
  });
  const md = buildPreparedData(data);
  assert.ok(md.groups.codes.length > 0, 'SNPs are grouped');
  const leftOut = Uint8Array.from({ length: md.N }, (_, d) => (d % 5 === 2 ? 1 : 0));
  const kept = [...leftOut.keys()].filter((d) => !leftOut[d]);
  const sub = individualSubset(md, kept);
  for (const algorithm of ['em', 'ema'] as const) {
    const init = randomModel(md, 3, createRng(4), 'data');
    const o = { ...DEFAULT_FIT, algorithm, warmup: 0 };
    const alone = fit(sub, init, o);
    const masked = fit(md, init, o, leftOut);
    assert.equal(masked.iterations, alone.iterations, algorithm);
    assert.deepEqual(Array.from(masked.model.theta), Array.from(alone.model.theta), algorithm);
    assert.deepEqual(Array.from(masked.model.weights), Array.from(alone.model.weights), algorithm);
    assert.equal(masked.logLik, alone.logLik, algorithm);
    // A second fit in the same scratch gives the same again.
    const scratch = fitScratch(md, 3);
    fit(md, randomModel(md, 3, createRng(5), 'data'), o, leftOut, scratch);
    assert.deepEqual(Array.from(fit(md, init, o, leftOut, scratch).model.theta), Array.from(alone.model.theta));
  }
});

test('auto chooses EM where every marker carries structure and EMA where noise markers dominate, by held-out individuals', () => {
  const cases = [
    {
      name: 'all structure',
      o: { pops: 4, perPop: 50, loci: 20, minAlleles: 3, maxAlleles: 8, fst: 0.05 },
      want: 'em',
    },
    {
      name: 'noise',
      o: { pops: 4, perPop: 50, loci: 40, noiseLoci: 30, minAlleles: 3, maxAlleles: 8, fst: 0.1 },
      want: 'ema',
    },
  ] as const;
  for (const c of cases)
    for (const seed of [1, 2]) {
      const { data } = multiAllelicPopulations(seed, c.o);
      const md = buildPreparedData(data);
      const o = { ...DEFAULT_FIT, algorithm: 'auto' } as const;
      const all = starts(md, 4, o, 8, seed);
      // The starts are those of an EM multi-start with the same seeds; the EMA candidate is the
      // start an after-EM EMA multi-start runs from the best EM start's seed, also when the
      // iteration cap binds (the EMA phase has what EM left of the cap).
      for (const maxIterations of [DEFAULT_FIT.maxIterations, 6]) {
        const capped = (algorithm: FitOptions['algorithm']) => ({ ...DEFAULT_FIT, algorithm, maxIterations });
        const auto = starts(md, 4, capped('auto'), 8, seed);
        const emAlone = starts(md, 4, capped('em'), 8, seed);
        const afterEm = starts(md, 4, { ...capped('ema'), emaStarts: 'after-em' }, 8, seed);
        auto.forEach((s, k) => assert.equal(s.logLik, emAlone[k]!.logLik, `cap ${maxIterations}, start ${k}: EM`));
        const bestEm = auto.reduce((b, s) => (s.logLik > b.logLik ? s : b));
        const ema = emaFromBestEm(md, auto, 'likelihood', capped('auto'));
        assert.equal(ema.index, bestEm.index);
        assert.equal(ema.logLik, afterEm[bestEm.index]!.logLik, `cap ${maxIterations}: EMA after the best EM start`);
      }
      const best = combineStarts(md, all, 'best', 'likelihood', o);
      assert.equal(best.algorithmChoice?.algorithm, c.want, `${c.name}, seed ${seed}: ${best.algorithmChoice?.reason}`);
      const kept =
        c.want === 'ema'
          ? emaFromBestEm(md, all, 'likelihood', o)
          : all.find((s) => s.index === best.bestStart && s.algorithm === 'em')!;
      assert.deepEqual(best.Q, kept.posterior, "the kept fit is the chosen algorithm's best");
      const h = best.algorithmChoice!.heldOut!;
      if (c.want === 'ema') assert.ok(h.ema > h.em);
      assert.match(best.algorithmChoice!.reason, /standard errors over individuals/);
    }
});

test('auto with fewer individuals than folds keeps EMA and says why (no held-out values to save)', () => {
  const { data } = multiAllelicPopulations(1, { pops: 2, perPop: 2, loci: 6, minAlleles: 2, maxAlleles: 4, fst: 0.1 });
  const md = buildPreparedData(data);
  const o = { ...DEFAULT_FIT, algorithm: 'auto' } as const;
  const best = combineStarts(md, starts(md, 2, o, 4), 'best', 'likelihood', o);
  assert.equal(best.algorithmChoice?.algorithm, 'ema');
  assert.equal(best.algorithmChoice?.heldOut, undefined);
  assert.match(best.algorithmChoice!.reason, /too few individuals/);
  assert.ok(JSON.stringify(best.algorithmChoice).length > 0 && !JSON.stringify(best.algorithmChoice).includes('null'));
});

test("auto's paired gain: the sum of the differences over its standard error (z = mean / (sd / √n))", () => {
  // Differences 1, 2, 3, 4: mean 2.5, sample variance 5/3, z = 2.5 / √(5/3 / 4).
  const g = pairedGain(Float64Array.from([1, 2, 3, 4]), new Float64Array(4));
  assert.equal(g.total, 10);
  assert.ok(Math.abs(g.z - 2.5 / Math.sqrt(5 / 3 / 4)) < 1e-12);
  // The sign follows the difference; equal differences (no spread) give ±∞ or 0.
  assert.ok(Math.abs(pairedGain(new Float64Array(4), Float64Array.from([1, 2, 3, 4])).z + g.z) < 1e-12);
  assert.equal(pairedGain(Float64Array.from([2, 2]), Float64Array.from([1, 1])).z, Infinity);
  assert.equal(pairedGain(Float64Array.from([1, 1]), Float64Array.from([1, 1])).z, 0);
});

test('auto keeps EMA only when its held-out gain over EM is clear against the spread over individuals', () => {
  const em = Float64Array.from([-10, -12, -11, -9, -10, -13]);
  const by = (d: number[]) =>
    algorithmByGain(
      pairedGain(
        Float64Array.from(em, (x, i) => x + d[i]!),
        em,
      ),
    );
  // A higher held-out total (+2) that one individual's swing could undo: EM.
  assert.equal(by([5, -4, 3, -3, 4, -3]), 'em');
  // The same gain spread evenly: about 1/3 per individual with little spread, clear: EMA.
  assert.equal(by([0.3, 0.35, 0.3, 0.35, 0.4, 0.3]), 'ema');
  // EM clearly better: EM.
  assert.equal(by([-1, -1.2, -0.9, -1, -1.1, -1]), 'em');
});

test("auto's comparison ends after a fold when the gain is plain, with the choice and held-out totals of the five folds' refits", () => {
  // Strong structure over many markers: EM's held-out gain over EMA is tens of standard errors.
  const { data } = multiAllelicPopulations(3, {
    pops: 3,
    perPop: 100,
    loci: 600,
    minAlleles: 2,
    maxAlleles: 2,
    fst: 0.05,
  });
  const md = buildPreparedData(data);
  const o = { ...DEFAULT_FIT, algorithm: 'auto' } as const;
  const all = starts(md, 3, o, 4);
  const best = combineStarts(md, all, 'best', 'likelihood', o);
  const choice = best.algorithmChoice!;
  const scored = Number(/decided after (\d) of the 5 folds/.exec(choice.reason)?.[1]);
  assert.ok(scored >= 1 && scored < HELD_OUT_FOLDS, choice.reason);
  // All five folds, the same candidates (independently of the stopping rule).
  const candidates = [
    { model: emaFromBestEm(md, all, 'likelihood', o).model, algorithm: 'ema' as const },
    { model: all.reduce((b, s) => (s.logLik > b.logLik ? s : b)).model, algorithm: 'em' as const },
  ];
  const rows = [new Float64Array(md.N), new Float64Array(md.N)];
  const asked: number[] = [];
  const full = heldOutLogLiks(md, candidates, o, HELD_OUT_FOLDS, rows, undefined, (f) => (asked.push(f), false));
  assert.deepEqual(asked, [1, 2, 3, 4], 'asked after each fold but the last');
  assert.equal(full.scored, HELD_OUT_FOLDS);
  assert.equal(choice.algorithm, algorithmByGain(pairedGain(rows[0]!, rows[1]!)), 'the five folds choose the same');
  // The totals reported are those of the folds scored (individuals d with d mod 5 < scored).
  const sum = (r: Float64Array) => r.reduce((t, x, d) => (d % HELD_OUT_FOLDS < scored ? t + x : t), 0);
  assert.ok(Math.abs(choice.heldOut!.ema - sum(rows[0]!)) < 1e-6 * Math.abs(sum(rows[0]!)));
  assert.ok(Math.abs(choice.heldOut!.em - sum(rows[1]!)) < 1e-6 * Math.abs(sum(rows[1]!)));
  // Stopping after the first fold scores the first fold only.
  const once = heldOutLogLiks(md, candidates, o, HELD_OUT_FOLDS, undefined, undefined, () => true);
  assert.equal(once.scored, 1);
  const first = (r: Float64Array) => r.reduce((t, x, d) => (d % HELD_OUT_FOLDS === 0 ? t + x : t), 0);
  assert.ok(Math.abs(once.totals[1]! - first(rows[1]!)) < 1e-6 * Math.abs(first(rows[1]!)));
});
