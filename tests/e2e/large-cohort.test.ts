// A cohort's result in the app: 100,000 individuals (a PLINK fileset of 100,000 × 40 SNPs and a
// combined result of two K, as `stratify combine` writes one) open, draw one column per pixel
// (each the mean bar of the individuals under it), and hover names the individuals under a
// column; population order still sorts the bars.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, openApp, screenshotPath } from './browser.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

const N = 100_000;
const L = 40;
const POPS = ['north', 'east', 'south'];

/** The fileset and a result whose ancestry of individual d leans to its population (d mod 3). */
function cohort(dir: string): { stem: string; result: string } {
  const stem = join(dir, 'cohort');
  const per = Math.ceil(N / 4);
  const bed = new Uint8Array(3 + L * per);
  bed.set([0x6c, 0x1b, 0x01]);
  for (let l = 0; l < L; l++)
    for (let d = 0; d < N; d++) {
      // Two copies drawn against a frequency that differs by population (a hash, not a generator).
      const p = 0.2 + (0.6 * (((l + 1) * ((d % 3) + 1) * 7919) % 97)) / 97;
      const u = (h: number) => ((Math.imul(d * 31 + l * 1_000_003 + h, 2654435761) >>> 0) % 10_000) / 10_000;
      const copies = (u(1) < p ? 1 : 0) + (u(2) < p ? 1 : 0);
      bed[3 + l * per + (d >> 2)]! |= [0, 2, 3][copies]! << (2 * (d & 3));
    }
  writeFileSync(`${stem}.bed`, bed);
  writeFileSync(
    `${stem}.bim`,
    Array.from({ length: L }, (_, l) => `1\tsnp${l}\t0\t${1000 * (l + 1)}\tA\tG\n`).join(''),
  );
  writeFileSync(`${stem}.fam`, Array.from({ length: N }, (_, d) => `${POPS[d % 3]} ind${d} 0 0 0 -9\n`).join(''));
  const run = (K: number) => {
    const Q = Array.from({ length: N }, (_, d) => {
      const home = d % 3 < K ? d % 3 : K - 1;
      const lean = 0.55 + (0.4 * ((d * 2654435761) % 1000)) / 1000;
      return Array.from({ length: K }, (_, k) => (k === home ? lean : (1 - lean) / (K - 1)));
    });
    return {
      K,
      replicate: 0,
      logLik: -1,
      model: 'admixture',
      weights: Array.from({ length: K }, () => 1 / K),
      Q,
      frequencies: Array.from({ length: 2 * L }, (_, r) =>
        Array.from({ length: K }, (_, k) => (r % 2 ? 0.4 + 0.1 * k : 0.6 - 0.1 * k)),
      ),
      informative: Array.from({ length: L }, () => 1),
    };
  };
  const result = join(dir, 'stratify.json');
  writeFileSync(
    result,
    JSON.stringify({
      program: 'stratify',
      dataset: {
        individuals: Array.from({ length: N }, (_, d) => ({ id: `ind${d}`, population: POPS[d % 3] })),
        loci: Array.from({ length: L }, (_, l) => ({ name: `snp${l}`, alleles: ['A', 'G'] })),
        ploidy: 2,
      },
      runs: [run(2), run(3)],
    }),
  );
  return { stem, result };
}

test('100,000 individuals: the bar plot draws a column per pixel, hover names the individuals under it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-e2e-cohort-'));
  const { stem, result } = cohort(dir);
  const { page, errors } = await openApp(browser);
  await page.getByTestId('file-input').setInputFiles([`${stem}.bed`, `${stem}.bim`, `${stem}.fam`]);
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid=n-individuals]')?.textContent?.replace(/\D/g, '') === String(n),
    N,
    { timeout: 60_000 },
  );
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.getByTestId('import-results').setInputFiles(result);
  await page.getByRole('button', { name: 'Structure' }).click();
  const canvas = page.getByTestId('structure-canvas');
  await canvas.waitFor({ timeout: 60_000 });
  await page.getByText(/Drawn in [\d.]+ ms/).waitFor();
  const drawn = (await page.getByText(/Drawn in [\d.]+ ms/).textContent()) ?? '';
  // What the draw took on this machine, for the record (performance is measured in bench/, not asserted here).
  process.stdout.write(`# ${drawn.trim()}\n`);
  assert.match(drawn, /for 100000 individuals/);
  // Each pixel column stands for about N / width individuals: the tooltip says how many, and their mean.
  const box = (await canvas.boundingBox())!;
  await canvas.hover({ position: { x: 5, y: 20 } });
  const tip = (await page.getByTestId('tooltip').textContent()) ?? '';
  const more = Number(/and (\d+) more under this pixel/.exec(tip)?.[1]);
  const perPixel = N / Math.floor(box.width);
  assert.ok(Math.abs(more + 1 - perPixel) <= 1.5, `${tip} (about ${perPixel.toFixed(1)} a pixel expected)`);
  assert.match(tip, /north/, 'the first population on the left');
  assert.match(tip, /K = 2, their mean/);
  // The columns are the populations' colours: in the K = 3 row, three tenths down its bars, the
  // left third (north, ≥ 55 % cluster 1) shows cluster 1 and the middle third (east) cluster 2.
  const colours = await page.evaluate(() => {
    const c = document.querySelector('[data-testid=structure-canvas]') as HTMLCanvasElement;
    const ctx = c.getContext('2d')!;
    const dpr = window.devicePixelRatio || 1;
    const bar = c.height / dpr / 2 - 8;
    const y = Math.floor((bar + 8 + 0.3 * bar) * dpr);
    return [0.15, 0.5].map((f) => Array.from(ctx.getImageData(Math.floor(c.width * f), y, 1, 1).data.slice(0, 3)));
  });
  assert.notDeepEqual(colours[0], colours[1]);
  await page.screenshot({ path: screenshotPath('cohort-100000.png'), fullPage: true });
  // The SVG stays vector and small: 600-dpi columns (180 mm ≈ 4,000), each the mean of its individuals, and says so.
  assert.match(
    (await page.getByTestId('export-summary').textContent()) ?? '',
    /100,000 individuals drawn as [\d,]+ columns/,
  );
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
  const svgPath = join(dir, 'cohort.svg');
  await download.saveAs(svgPath);
  const svg = readFileSync(svgPath, 'utf8');
  assert.equal((svg.match(/<g class="individual"/g) ?? []).length, 0);
  assert.equal((svg.match(/<g class="columns">/g) ?? []).length, 2);
  const columns = Number(/drawn as ([\d,]+) columns/.exec(svg)?.[1]?.replace(/,/g, ''));
  assert.ok(columns > 3000 && columns < 5000, `${columns} columns`);
  assert.ok(svg.length < 8e6, `${svg.length} bytes`);

  // The PCA of 100,000: the points one raster image in the vector figure (it says so), hovered by the nearest.
  await page.getByRole('button', { name: 'PCA' }).click();
  await page.getByTestId('pca-run').click();
  await page.getByTestId('pca-summary').waitFor({ timeout: 300_000 });
  await page.getByTestId('pca-raster').waitFor();
  assert.match(
    (await page.getByTestId('pca-raster-note').textContent()) ?? '',
    /100,000 individuals: the points are a raster image/,
  );
  assert.equal(await page.locator('[data-testid=pca-points] circle').count(), 0);
  const plot = page.getByTestId('pca-plot');
  const area = (await plot.boundingBox())!;
  // Hover where points are: the middle of the plot area (the PCs are centred), then name the nearest.
  let named = '';
  for (const [fx, fy] of [
    [0.4, 0.5],
    [0.3, 0.4],
    [0.5, 0.6],
    [0.35, 0.55],
  ] as const) {
    await page.mouse.move(area.x + area.width * fx, area.y + area.height * fy);
    named = (await page.getByTestId('pca-hover').textContent()) ?? '';
    if (named) break;
  }
  assert.match(named, /^ind\d+ \((north|east|south)\)$/);
  await page.screenshot({ path: screenshotPath('cohort-100000-pca.png'), fullPage: true });
  assert.deepEqual(errors, []);
});
