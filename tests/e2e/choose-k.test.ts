// Choose K says what its statistics can show: with 3 replicates per K the Mann–Whitney test can
// never reach 0.05 (its smallest p is 0.1), and a missing ΔK says why it is missing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launch, openApp, runClustering, screenshotPath } from './browser.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

test("Choose K states the Mann–Whitney test's power with 3 replicates and why ΔK is missing at the ends", async () => {
  const { page, errors } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(STRUCTURE/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await runClustering(page, 2, 4, 2, 3);
  await page.getByTestId('run-done').waitFor();
  await page.getByRole('button', { name: 'Choose K', exact: true }).click();
  await page.getByTestId('k-table').waitFor();
  await page.screenshot({ path: screenshotPath('choose-k-power.png'), fullPage: true });
  assert.equal(
    ((await page.getByTestId('mw-power').textContent()) ?? '').replace(/\s+/g, ' ').trim(),
    'With 3 replicates per K the Mann–Whitney test cannot give a p-value below 0.10, so it cannot show a difference between neighbouring K at 0.05: run 4 or more replicates per K for that.',
  );
  assert.equal(await page.getByTestId('delta-2').getAttribute('title'), 'ΔK needs results at K − 1 and K + 1');
  // The statistics explain themselves where they appear.
  assert.match((await page.getByTestId('h-prime-header').getAttribute('title')) ?? '', /^Replicate agreement H′/);
  await page.getByRole('button', { name: 'Markers', exact: true }).click();
  await page.getByTestId('marker-table').waitFor();
  assert.match((await page.getByTestId('mi-header').getAttribute('title')) ?? '', /^I\(X;C\): mutual information/);
  assert.match((await page.getByTestId('p-rel').locator('..').getAttribute('title')) ?? '', /^p_rel, the relevance/);
  assert.match((await page.getByTestId('p-red').locator('..').getAttribute('title')) ?? '', /^p_red, the redundancy/);
  assert.deepEqual(errors, []);
});
