// Before any start has finished, the Run view says how long the starts will take, from the starts
// at work (their pace and how fast their convergence measure falls; service/sweep-estimate.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launch, openApp, screenshotPath } from './browser.ts';
import { dataPath } from '../../data/datasets.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

test('an admixture sweep of eHGDP shows an estimated time left while its first start runs', async () => {
  const { page, errors } = await openApp(browser);
  await page.getByTestId('file-input').setInputFiles([dataPath('eHGDP.str.gz')]);
  await page.getByTestId('n-individuals').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.getByTestId('model').selectOption('admixture');
  await page.getByTestId('k-from').fill('4');
  await page.getByTestId('k-to').fill('5');
  await page.getByTestId('starts').fill('2');
  await page.getByTestId('replicates').fill('1');
  await page.getByTestId('threads').fill('1');
  await page.getByTestId('run').click();
  const early = page.getByTestId('early-estimate');
  await early.waitFor({ timeout: 60_000 });
  const status = (await page.getByTestId('sweep-time').textContent()) ?? '';
  assert.match(status, /^Sweep: 0 of at most 4 starts, /, 'no start has finished yet (adaptive starts: at most)');
  assert.match(
    (await early.textContent()) ?? '',
    /^about (\d+ s|\d+ min \d\d s) left \(estimated from the starts at work\)$/,
  );
  await page.getByTestId('sweep-time').screenshot({ path: screenshotPath('run-early-estimate.png') });
  await page.getByTestId('cancel').click();
  await page.getByTestId('cancelled').waitFor({ timeout: 30_000 });
  assert.deepEqual(errors, []);
});
