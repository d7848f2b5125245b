import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { constants as zlibConstants, gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, openApp, runClustering, screenshotPath } from './browser.ts';
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
  await page.screenshot({ path: screenshotPath('data-nancycats.png'), fullPage: true });
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
  await page.screenshot({ path: screenshotPath('error-malformed.png') });
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

test('a population file chosen after the data is applied; re-reading and filters ask before clearing results', async () => {
  const { page, errors } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(STRUCTURE/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  assert.equal(await page.getByTestId('n-populations').textContent(), '17');
  // Two populations by halves of the file's individuals (ids from the labels file shipped with the data).
  const ids = readFileSync(dataPath('nancycats.labels.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t')[0]!);
  const pops = 'id\tpop\n' + ids.map((id, k) => `${id}\t${k < ids.length / 2 ? 'west' : 'east'}`).join('\n') + '\n';
  await page
    .getByTestId('pop-input')
    .setInputFiles({ name: 'halves.tsv', mimeType: 'text/plain', buffer: Buffer.from(pops) });
  await page.waitForFunction(() => document.querySelector('[data-testid=n-populations]')?.textContent === '2');
  assert.match((await page.getByRole('button', { name: /Populations: halves\.tsv/ }).textContent()) ?? '', /halves/);

  // With results, a filter asks first; declining keeps the results, accepting clears them.
  await runClustering(page, 2, 2, 2, 1);
  await page.getByTestId('run-done').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Data' }).click();
  const dialogs: string[] = [];
  page.once('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.getByTestId('filter-ind').fill('10');
  await page.getByTestId('apply-filters').click();
  assert.match(
    dialogs[0] ?? '',
    /Applying filters starts a new analysis: the clustering results \(1 run\) will be cleared/,
  );
  // Declining returns before the engine is asked: an accepted filter would show "Applying…" at once.
  assert.equal(await page.getByTestId('apply-filters').textContent(), 'Apply', 'declined: nothing filtered');
  assert.equal(await page.getByTestId('removed').count(), 0);
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.getByTestId('run-done').waitFor();
  await page.getByRole('button', { name: 'Data' }).click();
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('filter-ind').fill('10');
  await page.getByTestId('apply-filters').click();
  await page.getByTestId('removed').waitFor();
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  assert.equal(await page.getByTestId('run-done').count(), 0, 'accepted: the results are cleared');
  assert.deepEqual(errors, []);
});

test('a truncated .vcf.gz names where it breaks off; a text that is not genotype data says so', async () => {
  const { page } = await openApp(browser);
  const vcf = readFileSync(join(ROOT, 'resources', 'examples', 'snp-three-populations.vcf'));
  const gz = gzipSync(vcf);
  const cut = gz.subarray(0, gz.length >> 1);
  const prefix = gunzipSync(cut, { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString('utf8');
  const line = prefix.split('\n').length;
  await page.getByTestId('file-input').setInputFiles({ name: 'cut.vcf.gz', mimeType: 'application/gzip', buffer: cut });
  const error = page.getByTestId('error');
  await error.waitFor();
  const text = (await error.textContent()) ?? '';
  assert.match(text, new RegExp(`cut\\.vcf\\.gz, line ${line}, column \\d+`));
  assert.match(text, /truncated or corrupt/);
  await page.getByTestId('file-input').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('# Field notes\n\nWe sampled 237 cats in 17 colonies in 1996.\nThey lie 2 to 40 km apart.\n'),
  });
  await page.waitForFunction(() => /notes\.txt/.test(document.querySelector('[data-testid=error]')?.textContent ?? ''));
  const garbage = (await error.textContent()) ?? '';
  assert.match(garbage, /does not look like genotype data/);
  assert.doesNotMatch(garbage, /popData|oneRowPerIndividual|extraColumns/);
});
