import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, openApp, screenshotPath, waitForAutosave } from './browser.ts';
import { dataPath } from '../../data/datasets.ts';
import { ROOT } from '../helpers.ts';

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
  assert.match(
    text,
    /quality index [\d.]+% over 7 classes; alleles\s+variables \(markers have 12\.1 alleles on average/,
  );
  assert.equal(await page.locator('[data-testid=confusion] tbody tr').count(), 7);
  const legend = await page.getByTestId('assign-legend').locator('li').allTextContents();
  assert.equal(legend.length, 7, 'a colour legend names every region');
  assert.ok(legend.includes('AFRICA'));
  await page.screenshot({ path: screenshotPath('assign-ehgdp.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

test('Assign view: individuals without a label are assigned, with exclusion probabilities; genotype variables on request', async () => {
  const { page, errors } = await openApp(browser);
  // nancycats with the first five cats' colonies blanked in the population file.
  const lines = readFileSync(dataPath('nancycats.labels.tsv'), 'utf8').trim().split('\n');
  const dir = mkdtempSync(join(tmpdir(), 'stratify-e2e-'));
  const labels = join(dir, 'nancycats.labels.tsv');
  const blank = (l: string) =>
    l
      .split('\t')
      .map((x, c) => (c === 1 || c === 2 ? '' : x))
      .join('\t');
  writeFileSync(labels, [lines[0], ...lines.slice(1, 6).map(blank), ...lines.slice(6)].join('\n') + '\n');
  await page.getByTestId('pop-input').setInputFiles([labels]);
  await page.getByTestId('file-input').setInputFiles([dataPath('nancycats.str')]);
  await page.getByTestId('n-individuals').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Assign' }).click();
  await page.getByTestId('assign-run').click();
  await page.getByTestId('assign-accuracy').waitFor({ timeout: 60_000 });
  assert.match((await page.getByTestId('assign-accuracy').textContent()) ?? '', /alleles\s+variables/);
  const rows = page.locator('[data-testid=unknowns] tbody tr');
  assert.equal(await rows.count(), 5);
  const first = await rows.first().locator('td').allTextContents();
  assert.ok(Number(first[2]) > 0 && Number(first[2]) <= 1, `probability ${first[2]}`);
  assert.ok(Number(first[3]) > 0 && Number(first[3]) <= 1, `exclusion probability ${first[3]}`);
  await page.getByTestId('variables').selectOption('genotypes');
  await page.getByTestId('assign-run').click();
  await page.getByText('genotypes variables').waitFor({ timeout: 60_000 });
  // Reloading offers the autosaved session; restoring it brings the Assign result and settings back.
  const summary = await page.getByTestId('assign-accuracy').textContent();
  const unknowns = await page.locator('[data-testid=unknowns] tbody').textContent();
  await waitForAutosave(page);
  await page.reload();
  await page.getByTestId('restore').click();
  await page.getByTestId('assign-accuracy').waitFor({ timeout: 30_000 });
  assert.equal(await page.getByTestId('assign-accuracy').textContent(), summary);
  assert.equal(await page.locator('[data-testid=unknowns] tbody').textContent(), unknowns);
  assert.equal(await page.getByTestId('variables').inputValue(), 'genotypes');
  assert.deepEqual(errors, []);
});

/** The app with the shipped SNP example and its populations open in the Assign view: `classifier`, genotype variables. */
async function snpExampleInAssign(classifier: 'kdb' | 'bckg') {
  const app = await openApp(browser);
  const examples = join(ROOT, 'resources', 'examples');
  await app.page.getByTestId('pop-input').setInputFiles([join(examples, 'snp-three-populations.pops.tsv')]);
  await app.page.getByTestId('file-input').setInputFiles([join(examples, 'snp-three-populations.vcf')]);
  await app.page.getByTestId('n-individuals').waitFor({ timeout: 30_000 });
  await app.page.getByRole('button', { name: 'Assign' }).click();
  await app.page.getByLabel('Classifier').selectOption(classifier);
  await app.page.getByTestId('variables').selectOption('genotypes');
  return app;
}

test('Assign view: a structure search by score shows its size and progress while it runs (kDB, ACL)', async () => {
  const { page, errors } = await snpExampleInAssign('kdb');
  await page.getByTestId('score').selectOption('acl');
  await page.getByTestId('assign-run').click();
  // 400 markers, k = 2: each of the 5 folds' searches tries at most 1 + 2·pos earlier features per feature.
  const progress = page.getByTestId('structure-search');
  await progress.waitFor({ timeout: 60_000 });
  assert.match((await progress.textContent()) ?? '', /up to 159,\d{3} local scores per search;\s+\d+ of 2000 features/);
  await page.getByTestId('assign-accuracy').waitFor({ timeout: 120_000 });
  assert.equal(await progress.count(), 0, 'the progress goes when the run ends');
  assert.deepEqual(errors, []);
});

test('Assign view: a BCkG search beyond the limit is refused with its size; raised, it runs', async () => {
  const { page, errors } = await snpExampleInAssign('bckg');
  await page.getByTestId('max-search').fill('1000000');
  await page.getByTestId('assign-run').click();
  const refusal = page.getByRole('alert');
  await refusal.waitFor({ timeout: 30_000 });
  assert.match(
    (await refusal.textContent()) ?? '',
    /BCkG with k = 2 on 400 markers evaluates up to 10,827,000 local scores a search/,
  );
  await page.getByTestId('max-search').fill('20000000');
  await page.getByTestId('assign-run').click();
  await page.getByTestId('assign-accuracy').waitFor({ timeout: 120_000 });
  assert.equal(await refusal.count(), 0, 'the refusal goes');
  assert.deepEqual(errors, []);
});
