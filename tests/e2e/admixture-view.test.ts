// The admixture model in the app: the Run view chooses it, Choose K shows the cross-validation
// error per K (the same numbers `stratify sweep --cv` writes for the same seed: one engine, every
// transport) and the Structure view says that its bars are ancestry proportions.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, openApp } from './browser.ts';
import { ROOT } from '../helpers.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

test('Run with the admixture model and 3 CV folds: CV error per K as the CLI computes it, bars titled ancestry proportions', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-admixture-view-'));
  const data = join(ROOT, 'resources', 'examples', 'nancycats.gen');
  const cli = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'stratify.mjs'),
      'sweep',
      data,
      '--model',
      'admixture',
      '--k',
      '1..3',
      '--starts',
      '2',
      '--replicates',
      '1',
      '--cv',
      '3',
      '--threads',
      '1',
      '--out',
      dir,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(cli.status, 0, cli.stderr);
  const [head, ...rows] = readFileSync(join(dir, 'fst-by-k.tsv'), 'utf8').trim().split('\n');
  const col = head!.split('\t').indexOf('cv_error');
  const cv = rows.map((r) => Number(r.split('\t')[col]));

  const { page, errors } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(GENEPOP/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.getByTestId('model').selectOption('admixture');
  // The mixture model's settings give way to the admixture model's.
  assert.equal(await page.getByTestId('rank-by').count(), 0);
  await page.getByTestId('k-from').fill('1');
  await page.getByTestId('k-to').fill('3');
  await page.getByTestId('starts').fill('2');
  await page.getByTestId('replicates').fill('1');
  await page.getByTestId('cv-folds').fill('3');
  await page.getByTestId('run').click();
  await page.getByTestId('run').waitFor({ timeout: 120_000 });
  // The cross-validation after the starts is its own stage in the Run view: 3 folds at each of 3 K.
  await page.getByText('Cross-validation (CV error per K): 9 of 9 folds, done.').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Choose K' }).click();
  await page.getByTestId('cv-chart').waitFor({ timeout: 30_000 });
  // Every K, K = 3 included: its best start once reached ln L −6850.1 in the browser and −6851.7
  // in Node from the same seeds, because Chromium's Math.exp and Math.log differ from Node's in the
  // last bit (10% and 2% of values); the engine now uses engine/util/det-math.ts.
  for (let K = 1; K <= 3; K++)
    assert.equal(await page.getByTestId(`cv-${K}`).textContent(), cv[K - 1]!.toFixed(4), `CV error at K = ${K}`);
  // nancycats: the error grows with K (K = 1 lowest), as the CLI's table says.
  assert.equal(cv.indexOf(Math.min(...cv)), 0, cv.join(', '));
  assert.match((await page.getByTestId('cv-advice').textContent()) ?? '', /K = 1\b/);
  await page.getByRole('button', { name: 'Structure' }).click();
  assert.match((await page.getByTestId('bars-mean').textContent()) ?? '', /ancestry proportions \(admixture model\)/);
  await page.screenshot({ path: join(ROOT, 'test-results', 'admixture-structure.png'), fullPage: true });
  assert.deepEqual(errors, []);
});
