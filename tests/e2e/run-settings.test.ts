// Every Run setting is checked before anything runs, with a message that stays on screen and names
// the field and its range (issue: 64 threads crashed the run with "WebAssembly.Instance(): Out of
// memory", ε = 0.0001 was refused by the browser's step rule, K > N was a passing tooltip and a
// tolerance of 10⁶ ran without a word).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launch, openApp } from './browser.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

/** Clicks Run and returns the alert's text ('' when the run starts instead). */
async function tryRun(page: Page): Promise<string> {
  await page.getByTestId('run').click();
  // A refused setting shows its message at once; a valid run shows its progress table.
  await page.locator('[data-testid=progress], [role=alert]').first().waitFor();
  if ((await page.getByTestId('progress').count()) > 0) return '';
  return (await page.getByRole('alert').first().textContent()) ?? '';
}

test('run settings out of range are refused with the field and range named; ε = 0.0001 runs', async () => {
  const { page, errors } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(STRUCTURE/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.getByTestId('k-from').fill('2');
  await page.getByTestId('k-to').fill('2');
  await page.getByTestId('starts').fill('2');
  await page.getByTestId('replicates').fill('1');

  await page.getByTestId('threads').fill('64');
  assert.equal(
    await tryRun(page),
    `Threads must be a whole number from 1 to ${Math.min(64, cores)} (this machine's cores), got 64`,
  );
  await page.getByTestId('threads').fill('1');

  await page.getByTestId('k-to').fill('300');
  assert.match(
    await tryRun(page),
    /^K to must be a whole number from 1 to 237 \(the number of individuals\), got 300$/,
  );
  await page.getByTestId('k-to').fill('2');

  await page.getByTestId('epsilon').fill('0');
  assert.match(
    await tryRun(page),
    /^ε \(convergence: the largest change of a parameter\) must be a number from 1e-12 to 1, got 0$/,
  );

  await page.getByTestId('model').selectOption('admixture');
  await page.getByTestId('tolerance').fill('1000000');
  assert.match(
    await tryRun(page),
    /^Tolerance \(convergence: the change of ln L\) must be a number from 1e-12 to 1, got 1000000$/,
  );
  await page.getByTestId('tolerance').fill('0.0001');
  await page.getByTestId('model').selectOption('mixture');

  // A small ε the browser's step rule used to refuse: the run starts and finishes.
  await page.getByTestId('epsilon').fill('0.0001');
  assert.equal(await page.getByTestId('epsilon').inputValue(), '0.0001');
  assert.equal(await tryRun(page), '');
  await page.getByTestId('run-done').waitFor();
  assert.deepEqual(errors, []);
});
