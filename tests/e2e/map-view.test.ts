import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launch, openApp, runClustering, screenshotPath, waitForAutosave } from './browser.ts';
import { dataPath } from '../../data/datasets.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

/** The sites the labels file gives (distinct coordinates in columns a, b). */
function siteCount(file: string, a: string, b: string): number {
  const [header, ...rows] = readFileSync(dataPath(file), 'utf8').trim().split('\n');
  const names = header!.split('\t');
  const [i, j] = [names.indexOf(a), names.indexOf(b)];
  return new Set(rows.map((r) => r.split('\t')).map((f) => `${f[i]},${f[j]}`)).size;
}

/** Every pie's placement; asserts none overlaps another. */
async function piesApart(page: Page): Promise<number> {
  const pies = await page
    .locator('[data-testid=map-plot] [data-testid=map-pies] g.site')
    .evaluateAll((gs) => gs.map((g) => ['data-cx', 'data-cy', 'data-r'].map((a) => Number(g.getAttribute(a)))));
  for (let i = 0; i < pies.length; i++)
    for (let j = i + 1; j < pies.length; j++) {
      const [x1, y1, r1] = pies[i]!;
      const [x2, y2, r2] = pies[j]!;
      assert.ok(Math.hypot(x1! - x2!, y1! - y2!) >= r1! + r2! - 1e-6, `pies ${i} and ${j} overlap`);
    }
  return pies.length;
}

async function runTo(page: Page, K: number) {
  await runClustering(page, K, K, 3, 1);
  await page.getByTestId('run-done').waitFor({ timeout: 240_000 });
  await page.getByRole('button', { name: 'Map' }).click();
  await page.getByTestId('map-k').selectOption(String(K));
}

test('Map view: eHGDP at K = 5, one pie per site above the land, none overlapping; exports parse', async () => {
  const { page, errors } = await openApp(browser);
  await page.getByTestId('pop-input').setInputFiles([dataPath('eHGDP.labels.tsv')]);
  await page.getByTestId('file-input').setInputFiles([dataPath('eHGDP.str.gz')]);
  await page.getByTestId('n-individuals').waitFor({ timeout: 30_000 });
  await runTo(page, 5);
  await page.locator('[data-testid=map-plot] [data-testid=map-land]').waitFor({ timeout: 30_000 });
  const sites = siteCount('eHGDP.labels.tsv', 'latitude', 'longitude');
  assert.equal(await piesApart(page), sites);
  // Pies are drawn after (above) the land.
  const order = await page
    .locator('[data-testid=map-plot] [data-testid=map-content] > *')
    .evaluateAll((es) => es.map((e) => e.getAttribute('data-testid') ?? e.tagName));
  assert.ok(order.indexOf('map-land') < order.indexOf('map-pies'), order.join(', '));
  // Each pie's slices: K at most, hover text names the site's population and its count.
  const title = (await page.locator('[data-testid=map-plot] g.site title').first().textContent()) ?? '';
  assert.match(title, /^.+: \d+ individuals?; cluster 1 \d+ %/);
  await page.screenshot({ path: screenshotPath('map-ehgdp-k5.png'), fullPage: true });
  const svgDownload = page.waitForEvent('download');
  await page.getByTestId('map-export-svg').click();
  const svgText = readFileSync((await (await svgDownload).path())!, 'utf8');
  const parsed = await page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    return { error: doc.querySelector('parsererror') !== null, pies: doc.querySelectorAll('g.site').length };
  }, svgText);
  assert.deepEqual(parsed, { error: false, pies: sites });
  const pdfDownload = page.waitForEvent('download');
  await page.getByTestId('map-export-pdf').click();
  const pdf = readFileSync((await (await pdfDownload).path())!);
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  writeFileSync(screenshotPath('map-ehgdp-k5.pdf'), pdf);

  // The PCA view colours points by cluster at that K, in the bar plot's colours.
  await page.getByRole('button', { name: 'PCA' }).click();
  await page.getByTestId('pca-run').click();
  await page.getByTestId('pca-summary').waitFor({ timeout: 120_000 });
  await page.getByTestId('pca-colour').selectOption('cluster');
  const legend = await page.locator('[data-testid=pca-legend] text').allTextContents();
  assert.equal(legend.length, 5, legend.join(', '));
  assert.ok(
    legend.every((t) => /^cluster \d+$/.test(t)),
    legend.join(', '),
  );
  await page.screenshot({ path: screenshotPath('pca-ehgdp-clusters.png'), fullPage: true });
  // Or as small ancestry pies: one per individual, slices in the legend's colours.
  await page.getByTestId('pca-colour').selectOption('pies');
  assert.equal(await page.locator('[data-testid=pca-pies] > g').count(), 1350);
  assert.equal(await page.locator('[data-testid=pca-legend] text').count(), 5);
  await page.screenshot({ path: screenshotPath('pca-ehgdp-pies.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

test('Map view: planar colony coordinates (nancycats) draw without a basemap; a sites file places data without them', async () => {
  const { page, errors } = await openApp(browser);
  await page.getByTestId('pop-input').setInputFiles([dataPath('nancycats.labels.tsv')]);
  await page.getByTestId('file-input').setInputFiles([dataPath('nancycats.str')]);
  await page.getByTestId('n-individuals').waitFor({ timeout: 30_000 });
  await runTo(page, 3);
  await page.locator('[data-testid=map-plot] g.site').first().waitFor({ timeout: 30_000 });
  assert.equal(await piesApart(page), siteCount('nancycats.labels.tsv', 'colony_x', 'colony_y'));
  assert.equal(await page.locator('[data-testid=map-plot] [data-testid=map-land]').count(), 0);

  // Without sites in the population file, a separate coordinates file keyed by population
  // (the .str file's own population numbers here) places them; a bad one changes nothing.
  const bare = await openApp(browser);
  await bare.page.getByRole('button', { name: /nancycats \(STRUCTURE/ }).click();
  await bare.page.getByTestId('n-individuals').waitFor();
  await bare.page.getByRole('button', { name: 'Map' }).click();
  assert.match((await bare.page.getByTestId('map-no-sites').textContent()) ?? '', /latitude.*longitude/s);
  const dir = mkdtempSync(join(tmpdir(), 'stratify-sites-'));
  const bad = join(dir, 'colonies-bad.csv');
  writeFileSync(bad, 'colony,x,y\n1,263.3,north\n');
  await bare.page.getByTestId('sites-input').setInputFiles([bad]);
  assert.match((await bare.page.getByTestId('error').textContent()) ?? '', /colonies-bad\.csv:2:9: y "north"/);
  await bare.page.getByTestId('map-no-sites').waitFor();
  const colonies = new Map<string, string>();
  const [head, ...rows] = readFileSync(dataPath('nancycats.labels.tsv'), 'utf8').trim().split('\n');
  const col = (n: string) => head!.split('\t').indexOf(n);
  for (const r of rows.map((x) => x.split('\t')))
    colonies.set(r[col('pop_index')]!, `${r[col('colony_x')]},${r[col('colony_y')]}`);
  const good = join(dir, 'colonies.csv');
  writeFileSync(good, `colony,x,y\n${[...colonies].map(([k, v]) => `${k},${v}`).join('\n')}\n99,0,0\n`);
  await bare.page.getByTestId('sites-input').setInputFiles([good]);
  await bare.page.getByTestId('sites-note').filter({ hasText: 'placed' }).waitFor();
  assert.match(
    (await bare.page.getByTestId('sites-note').textContent()) ?? '',
    /per population: 237 individuals placed, 0 without a site; 1 population not in the data: 99/,
  );
  await runTo(bare.page, 3);
  await bare.page.locator('[data-testid=map-plot] g.site').first().waitFor({ timeout: 30_000 });
  assert.equal(await piesApart(bare.page), colonies.size);
  // The sites file is part of the session: restored after a reload.
  await waitForAutosave(bare.page);
  await bare.page.reload();
  await bare.page.getByTestId('restore').click();
  await bare.page.getByRole('button', { name: 'Map' }).click();
  await bare.page.locator('[data-testid=map-plot] g.site').first().waitFor({ timeout: 60_000 });
  assert.equal(await piesApart(bare.page), colonies.size);
  assert.match((await bare.page.getByTestId('sites-button').textContent()) ?? '', /colonies\.csv/);
  await bare.page.screenshot({ path: screenshotPath('map-nancycats-sites-file.png'), fullPage: true });
  assert.deepEqual([...errors, ...bare.errors], []);
});
