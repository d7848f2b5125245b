import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, openApp } from './browser.ts';
import { ROOT } from '../helpers.ts';
import { dataPath } from '../../data/datasets.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

test('Assign view: eHGDP regions, cross-validated accuracy, confusion matrix, panel curve', async () => {
  const { page, errors } = await openApp(browser);
  await page.getByTestId('pop-input').setInputFiles([dataPath('eHGDP.labels.tsv')]);
  await page.getByTestId('file-input').setInputFiles([dataPath('eHGDP.str.gz')]);
  await page.getByTestId('n-individuals').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Assign' }).click();
  await page.getByLabel('Classes').selectOption('group');
  await page.getByTestId('assign-run').click();
  await page.getByTestId('assign-accuracy').waitFor({ timeout: 120_000 });
  const text = (await page.getByTestId('assign-accuracy').textContent()) ?? '';
  const acc = Number(/accuracy ([\d.]+)%/.exec(text)![1]);
  console.log(`eHGDP regions in the app: ${text}`);
  assert.ok(acc > 85, `accuracy ${acc}%`);
  assert.equal(await page.locator('[data-testid=confusion] tbody tr').count(), 7);
  const legend = await page.getByTestId('assign-legend').locator('li').allTextContents();
  assert.equal(legend.length, 7, 'a colour legend names every region');
  assert.ok(legend.includes('AFRICA'));
  await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', 'assign-ehgdp.png'), fullPage: true });
  assert.deepEqual(errors, []);
});
