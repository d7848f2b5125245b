// Nothing a user made is thrown away without a question: opening another dataset (a file or an
// example) while results exist or a sweep runs asks first, and reloading or closing the page
// during a sweep is held up by the browser's leave-page dialog.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launch, openApp, runClustering } from './browser.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

test('opening another example after a sweep asks first; declining keeps the data and the results', async () => {
  const { page, errors } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(STRUCTURE/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await runClustering(page, 2, 2, 2, 1);
  await page.getByTestId('run-done').waitFor();
  await page.getByRole('button', { name: 'Data', exact: true }).click();
  const asked: string[] = [];
  page.once('dialog', (d) => {
    asked.push(d.message());
    void d.dismiss();
  });
  const shown = page.waitForEvent('dialog');
  await page.getByRole('button', { name: /3 simulated populations/ }).click();
  await shown;
  assert.equal(asked.length, 1);
  assert.match(
    asked[0]!,
    /^Opening another dataset starts a new analysis: the clustering results \(1 run\) will be cleared\. Continue\?$/,
  );
  assert.match((await page.getByTestId('n-individuals').textContent()) ?? '', /237/, 'still nancycats');
  await page.getByRole('button', { name: 'Structure', exact: true }).click();
  await page.getByTestId('structure-canvas').waitFor();
  // Agreeing opens the other dataset.
  await page.getByRole('button', { name: 'Data', exact: true }).click();
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: /3 simulated populations/ }).click();
  await page.waitForFunction(() =>
    /\b90\b/.test(document.querySelector('[data-testid=n-individuals]')?.textContent ?? ''),
  );
  assert.deepEqual(errors, []);
});

test('closing the page during a sweep brings up the leave-page dialog', async () => {
  const { page } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(STRUCTURE/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await runClustering(page, 2, 8, 200, 3);
  await page.getByTestId('progress').waitFor();
  const dialog = new Promise<string>((resolve) =>
    page.once('dialog', (d) => {
      resolve(d.type());
      void d.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  assert.equal(await dialog, 'beforeunload');
  assert.equal(page.isClosed(), false, 'staying keeps the page and its sweep');
  await page.getByTestId('cancel').click();
  await page.close();
});

test('running a new sweep over results asks first; declining keeps them, accepting runs', async () => {
  const { page, errors } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(STRUCTURE/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await runClustering(page, 2, 2, 2, 1);
  await page.getByTestId('run-done').waitFor();
  const asked: string[] = [];
  page.once('dialog', (d) => {
    asked.push(d.message());
    void d.dismiss();
  });
  await page.getByTestId('k-to').fill('3');
  const shown = page.waitForEvent('dialog');
  await page.getByTestId('run').click();
  await shown;
  assert.deepEqual(asked, [
    'Running a new sweep starts a new analysis: the clustering results (1 run) will be cleared. Continue?',
  ]);
  assert.equal(await page.getByTestId('progress').locator('tbody tr').count(), 1, 'the K = 2 sweep is still shown');
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('run').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=progress] tbody tr').length === 2);
  await page.getByTestId('run-done').waitFor();
  assert.deepEqual(errors, []);
});
