// The filters written into the app's README files, as the flags that make the same data again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filterFlags, filterReadme } from '../../renderer/src/state/filter-text.ts';

test('filters as PLINK-style flags, and README lines with what each step removed', () => {
  assert.equal(
    filterFlags({
      maxIndividualMissing: 0.05,
      maxLocusMissing: 0.1,
      minMaf: 0.05,
      indepPairwise: { window: 50, step: 10, r2: 0.1 },
    }),
    '--mind 0.05 --geno 0.1 --maf 0.05 --indep-pairwise 50 10 0.1',
  );
  assert.equal(
    filterFlags({ indepPairwise: { window: 200, kb: true, step: 1, r2: 0.2 }, chromosomes: ['1', '2'] }),
    '--chr 1,2 --indep-pairwise 200kb 0.2',
  );
  assert.deepEqual(filterReadme({}), []);
  assert.deepEqual(
    filterReadme({ dropSexChromosomes: true, minMaf: 0.01 }, [
      { step: 'sex and organelle chromosomes', individuals: 0, loci: 400 },
      { step: '--maf', individuals: 0, loci: 0 },
    ]),
    [
      'Filters before clustering: --maf 0.01; sex and organelle chromosomes left out.',
      '  Removed — sex and organelle chromosomes: 400 loci.',
    ],
  );
});
