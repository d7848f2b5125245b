import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, openApp, screenshotPath, waitForAutosave } from './browser.ts';
import { ROOT } from '../helpers.ts';
import { dataPath } from '../../data/datasets.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

test("PCA view: eHGDP's points are the CLI's .eigenvec, coloured by region, exported", async () => {
  // The command line on the same files, for the reference coordinates.
  const out = mkdtempSync(join(tmpdir(), 'stratify-pca-e2e-'));
  const cli = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'stratify.mjs'),
      'pca',
      dataPath('eHGDP.str.gz'),
      '--pops',
      dataPath('eHGDP.labels.tsv'),
      '--out',
      out,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(cli.status, 0, cli.stderr);
  const lines = readFileSync(join(out, 'stratify.eigenvec'), 'utf8').trim().split('\n');
  const header = lines[0]!.split('\t');
  const byId = new Map(
    lines
      .slice(1)
      .map((l) => l.split('\t'))
      .map((f) => [f[header.indexOf('IID')]!, f]),
  );
  const pc = (f: string[], k: number) => Number(f[header.indexOf(`PC${k}`)]!);

  const { page, errors } = await openApp(browser);
  await page.getByTestId('pop-input').setInputFiles([dataPath('eHGDP.labels.tsv')]);
  await page.getByTestId('file-input').setInputFiles([dataPath('eHGDP.str.gz')]);
  await page.getByTestId('n-individuals').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'PCA' }).click();
  await page.getByTestId('pca-run').click();
  await page.getByTestId('pca-summary').waitFor({ timeout: 120_000 });
  const points = await page
    .locator('[data-testid=pca-points] circle')
    .evaluateAll((cs) =>
      cs.map(
        (c) =>
          [c.getAttribute('data-id')!, Number(c.getAttribute('data-x')), Number(c.getAttribute('data-y'))] as const,
      ),
    );
  assert.equal(points.length, 1350);
  let worst = 0;
  for (const [id, x, y] of points) {
    const f = byId.get(id);
    assert.ok(f, `${id} in the CLI's .eigenvec`);
    worst = Math.max(worst, Math.abs(x - pc(f, 1)), Math.abs(y - pc(f, 2)));
  }
  // The .eigenvec holds 8 significant digits.
  assert.ok(worst < 1e-8, `largest difference from the CLI ${worst}`);
  // Coloured by region by default: the legend names eHGDP's seven regions.
  const legend = await page.locator('[data-testid=pca-legend] text').allTextContents();
  assert.equal(legend.length, 7, legend.join(', '));
  assert.ok(legend.includes('AFRICA') && legend.includes('AMERICA'));
  // The hover text names the individual and its region.
  const title = await page.locator('[data-testid=pca-points] circle title').first().textContent();
  assert.match(title ?? '', /^\S+ \([A-Z_ ]+\)$/);
  await page.screenshot({ path: screenshotPath('pca-ehgdp.png'), fullPage: true });

  // Exports: an SVG that parses with every point, and a PDF.
  const svgDownload = page.waitForEvent('download');
  await page.getByTestId('pca-export-svg').click();
  const svgPath = await (await svgDownload).path();
  const svgText = readFileSync(svgPath!, 'utf8');
  const parsed = await page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror') !== null,
      circles: doc.querySelectorAll('[data-testid=pca-points] circle').length,
    };
  }, svgText);
  assert.deepEqual(parsed, { error: false, circles: 1350 });
  const pdfDownload = page.waitForEvent('download');
  await page.getByTestId('pca-export-pdf').click();
  const pdf = readFileSync((await (await pdfDownload).path())!);
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');

  // Saved with the session: after a reload, restoring shows the same points on PC3 × PC2.
  await page.getByTestId('pca-x').selectOption('3');
  await waitForAutosave(page);
  const before = await page.locator('[data-testid=pca-points] circle').first().getAttribute('data-x');
  await page.reload();
  await page.getByTestId('restore').click();
  await page.getByTestId('pca-summary').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('pca-x').inputValue(), '3');
  assert.equal(await page.locator('[data-testid=pca-points] circle').first().getAttribute('data-x'), before);
  assert.deepEqual(errors, []);
});
