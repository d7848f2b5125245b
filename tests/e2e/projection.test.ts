// Projecting new samples in the app: the individuals of the fit, projected onto it with the fitted
// frequencies, get the bars they have in the plot (each row of Q maximises the likelihood given F at
// the fit's optimum), in the plot's colours; the CSV names its columns as the plotted memberships
// do; by default (each sample's own copies in its frequencies) the bars move, a little.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { launch, openApp, runClustering, screenshotPath } from './browser.ts';
import { ROOT } from '../helpers.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

const table = (text: string) => {
  const [head, ...rows] = text.trim().split(/\r?\n/);
  const sep = head!.includes('\t') ? '\t' : ',';
  const names = head!.split(sep);
  return new Map(rows.map((r) => r.split(sep)).map((c) => [c[0]!, new Map(names.map((n, k) => [n, c[k]!]))]));
};

test('Structure view: samples projected onto an admixture fit at K = 3 get their plotted ancestry back', async () => {
  const { page, errors } = await openApp(browser);
  await page.getByRole('button', { name: /3 simulated populations/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.getByTestId('model').selectOption('admixture');
  await runClustering(page, 2, 3, 3, 1);
  await page.getByTestId('run-done').waitFor({ timeout: 240_000 });
  await page.getByRole('button', { name: 'Structure' }).click();
  await page.getByTestId('projection').locator('summary').click();
  await page.getByTestId('projection-k').selectOption('3');
  const vcf = join(ROOT, 'resources', 'examples', 'snp-three-populations.vcf');
  // The genotype file with a population file beside it (a table of id, population): bars labelled.
  const pops = join(ROOT, 'resources', 'examples', 'snp-three-populations.pops.tsv');
  await page.getByTestId('projection-as-fitted').check();
  await page.getByTestId('projection-input').setInputFiles([vcf, pops]);
  const summary = page.getByTestId('projection-summary');
  await Promise.race([summary.waitFor({ timeout: 60_000 }), page.getByTestId('error').waitFor({ timeout: 60_000 })]);
  const errorBox = page.getByTestId('error');
  assert.equal(await errorBox.count(), 0, (await errorBox.count()) ? ((await errorBox.textContent()) ?? '') : '');
  assert.match(
    (await summary.textContent()) ?? '',
    /90 individuals of snp-three-populations\.vcf on K = 3 .* 400 of the fit's 400 markers used \(by name\)\. Scored with the fitted frequencies as they are\./,
  );
  await page.getByTestId('projection').screenshot({ path: screenshotPath('projection-example.png') });

  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('projection-csv').click()]);
  const projected = table(readFileSync((await csv.path())!, 'utf8'));
  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-q').click()]);
  const files = unzipSync(readFileSync((await zip.path())!));
  const plottedName = Object.keys(files).find((f) => f.endsWith('.K3.plotted.tsv'))!;
  const plotted = table(strFromU8(files[plottedName]!));
  assert.equal(projected.size, 90);
  assert.deepEqual([...new Set([...projected.values()].map((r) => r.get('population')))], ['North', 'Coast', 'Valley']);
  let worst = 0;
  for (const [id, row] of plotted)
    for (const [name, value] of row) {
      if (!name.startsWith('cluster_')) continue;
      const p = projected.get(id)?.get(name);
      assert.ok(p !== undefined, `${id} ${name} missing from the projection's CSV`);
      worst = Math.max(worst, Math.abs(Number(p) - Number(value)));
    }
  assert.ok(worst < 3e-3, `largest difference from the plotted ancestry: ${worst}`);

  // The default: the fit's copies with each sample's own (a prior of ½ per allele), which move the bars a little.
  await page.getByTestId('projection-as-fitted').uncheck();
  await page.getByTestId('projection-input').setInputFiles([vcf, pops]);
  await page
    .getByText("Scored with the fit's allele copies and each sample's own (Dirichlet prior 0.5 per allele).")
    .waitFor({ timeout: 60_000 });
  const [csv2] = await Promise.all([page.waitForEvent('download'), page.getByTestId('projection-csv').click()]);
  const own = table(readFileSync((await csv2.path())!, 'utf8'));
  let moved = 0;
  for (const [id, row] of plotted)
    for (const [name, value] of row)
      if (name.startsWith('cluster_'))
        moved = Math.max(moved, Math.abs(Number(own.get(id)!.get(name)) - Number(value)));
  assert.ok(moved > 1e-4 && moved < 0.2, `largest change (own copies counted twice: they are in the fit): ${moved}`);

  // Another view and back: the projection stays (the same sweep); a saved project keeps it.
  const said = await summary.textContent();
  await page.getByRole('button', { name: 'Choose K' }).click();
  await page.getByRole('button', { name: 'Structure' }).click();
  await page.getByTestId('projection').locator('summary').click();
  assert.equal(await summary.textContent(), said);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-session').click()]);
  const path = join(mkdtempSync(join(tmpdir(), 'stratify-projection-project-')), 'p.stratify.json');
  await download.saveAs(path);
  const fresh = await openApp(browser);
  await fresh.page.getByTestId('session-input').setInputFiles(path);
  await fresh.page.getByTestId('projection').waitFor({ timeout: 30_000 });
  await fresh.page.getByTestId('projection').locator('summary').click();
  assert.equal(await fresh.page.getByTestId('projection-summary').textContent(), said);
  assert.deepEqual(errors, []);
  assert.deepEqual(fresh.errors, []);
});
