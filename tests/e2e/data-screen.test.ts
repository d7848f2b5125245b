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

test('open an example dataset and see its summary', async () => {
  const { page, errors } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(STRUCTURE/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  assert.equal(await page.getByTestId('n-individuals').textContent(), '237');
  assert.equal(await page.getByTestId('n-loci').textContent(), '9');
  assert.equal(await page.getByTestId('n-populations').textContent(), '17');
  assert.equal(await page.locator('svg .bar').count(), 9 + 237);
  await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', 'data-nancycats.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

test('open eHGDP with its population file from disk', async () => {
  const { page } = await openApp(browser);
  await page.getByTestId('file-input').setInputFiles([dataPath('eHGDP.str.gz')]);
  await page.getByTestId('n-individuals').waitFor({ timeout: 30000 });
  assert.equal(await page.getByTestId('n-individuals').textContent(), '1350');
  assert.equal(await page.getByTestId('n-loci').textContent(), '678');
});

test('a malformed file shows a clear error with its line and column', async () => {
  const { page } = await openApp(browser);
  await page.getByTestId('file-input').setInputFiles([join(ROOT, 'tests', 'fixtures', 'bad-row.str')]);
  const error = page.getByTestId('error');
  await error.waitFor();
  const text = (await error.textContent()) ?? '';
  assert.match(text, /bad-row\.str, line 4, column \d+/);
  assert.match(text, /row has 5 values/);
  await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', 'error-malformed.png') });
});

test('filters remove what they report; reading options re-read the file', async () => {
  const { page } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(STRUCTURE/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await page.getByTestId('filter-ind').fill('10');
  await page.getByTestId('apply-filters').click();
  await page.getByTestId('removed').waitFor();
  const removed = Number(/Removed (\d+) individual/.exec((await page.getByTestId('removed').textContent()) ?? '')![1]);
  assert.ok(removed > 0);
  assert.equal(Number(await page.getByTestId('n-individuals').textContent()), 237 - removed);
  await page.getByText('Reading options').click();
  await page.getByTestId('read-pop').selectOption('no');
  await page.getByTestId('reread').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=n-populations]')?.textContent === '0');
  assert.equal(await page.getByTestId('n-individuals').textContent(), '237');
});
