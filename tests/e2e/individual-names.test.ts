// On small data each bar is wide enough to carry its individual's id: the Structure view writes the
// ids under the last row, in its order, and the exported SVG carries them too (at the figure's
// font size); on large data none.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

test('ids under the bars on a 24-individual dataset (view and SVG), none on nancycats (237)', async () => {
  // The first 24 cats of nancycats as their own STRUCTURE file.
  const lines = readFileSync(join(ROOT, 'resources', 'examples', 'nancycats.str'), 'utf8')
    .trim()
    .split('\n');
  const dir = mkdtempSync(join(tmpdir(), 'stratify-names-'));
  const small = join(dir, 'cats24.str');
  writeFileSync(small, lines.slice(0, 25).join('\n') + '\n');
  const ids = lines.slice(1, 25).map((l) => l.split(/\s+/)[0]!);

  const { page, errors } = await openApp(browser);
  await page.getByTestId('file-input').setInputFiles([small]);
  await page.getByTestId('n-individuals').waitFor();
  await runClustering(page, 2, 3, 2, 1);
  await page.getByTestId('run-done').waitFor();
  await page.getByRole('button', { name: 'Structure', exact: true }).click();
  const names = page.getByTestId('individual-names').locator('span');
  await names.first().waitFor();
  const shown = await names.allTextContents();
  assert.equal(shown.length, 24);
  assert.deepEqual([...shown].sort(), [...ids].sort(), 'every id once');
  // Each id sits under its bar: hovering the last row at an id's x shows that individual.
  const canvas = page.getByTestId('structure-canvas');
  const cbox = (await canvas.boundingBox())!;
  for (const k of [0, 11, 23]) {
    const box = (await names.nth(k).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, cbox.y + cbox.height - 20);
    await page.getByTestId('tooltip').waitFor();
    assert.equal(await page.getByTestId('tooltip').locator('strong').textContent(), shown[k], `id ${k}`);
  }
  await page.mouse.move(0, 0);
  await page.screenshot({ path: screenshotPath('structure-names.png'), fullPage: true });
  const [svgDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
  const svgPath = join(dir, 'names.svg');
  await svgDownload.saveAs(svgPath);
  const svg = readFileSync(svgPath, 'utf8');
  const svgNames = [...svg.matchAll(/<text class="individual-name"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  assert.deepEqual(svgNames, shown, 'the SVG writes the same ids in the same order');
  // Larger labels: the figure's population labels at the size asked, the ids scaled with them.
  await page.getByTestId('font-px').fill('14');
  const [bigDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
  const bigPath = join(dir, 'names-14.svg');
  await bigDownload.saveAs(bigPath);
  const big = readFileSync(bigPath, 'utf8');
  const sizes = (cls: string) =>
    new Set([...big.matchAll(new RegExp(`<text class="${cls}"[^>]*font-size="([\\d.]+)"`, 'g'))].map((m) => m[1]));
  assert.deepEqual(sizes('population'), new Set(['14']));
  assert.deepEqual(sizes('individual-name'), new Set([String(+((7 * 14) / 9).toFixed(2))]));
  // Labels on top: the population labels above the first row, rising to the right.
  await page.getByTestId('labels-on-top').check();
  const [topDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
  const topPath = join(dir, 'names-top.svg');
  await topDownload.saveAs(topPath);
  const top = readFileSync(topPath, 'utf8');
  const firstBar = Number(/<rect x="[\d.]+" y="([\d.]+)"/.exec(top.split('<g class="row"')[1]!)![1]);
  const tops = [...top.matchAll(/<text class="population" x="[\d.]+" y="([\d.]+)"[^>]*text-anchor="(\w+)"/g)];
  assert.equal(tops.length, 2);
  for (const m of tops) assert.ok(Number(m[1]) < firstBar && m[2] === 'start', m[0]);
  await page.getByTestId('labels-on-top').uncheck();
  // Vertical: one column per K, each individual a band down the page, ids on the right; the PDF as
  // wide as the figure (not the horizontal width asked for).
  await page.getByTestId('vertical').check();
  const [vDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
  const vPath = join(dir, 'names-vertical.svg');
  await vDownload.saveAs(vPath);
  const vsvg = readFileSync(vPath, 'utf8');
  const columns = vsvg.split('<g class="row"').slice(1);
  assert.equal(columns.length, 2);
  for (const c of columns) assert.equal((c.match(/<g class="individual"/g) ?? []).length, 24);
  assert.deepEqual(
    [...vsvg.matchAll(/<text class="individual-name"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]),
    shown,
  );
  const svgWidthMm = (Number(/<svg[^>]* width="([\d.]+)"/.exec(vsvg)![1]) / 96) * 25.4;
  const [vPdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-pdf').click()]);
  const vPdfPath = join(dir, 'names-vertical.pdf');
  await vPdf.saveAs(vPdfPath);
  const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(readFileSync(vPdfPath, 'latin1'))!;
  assert.ok(Math.abs(Number(box[1]) - (svgWidthMm / 25.4) * 72) < 1, `PDF ${box[1]} pt wide for ${svgWidthMm} mm`);
  assert.ok(Number(box[2]) > Number(box[1]), 'taller than wide');
  await page.getByTestId('vertical').uncheck();
  // One figure per K: K = 2 and K = 3 as SVG and PDF, one row each; K = 3's ids in the view's order.
  const [perK] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-per-k').click()]);
  const perKPath = join(dir, 'per-k.zip');
  await perK.saveAs(perKPath);
  const zip = unzipSync(readFileSync(perKPath));
  assert.deepEqual(Object.keys(zip).sort(), [
    'cats24-structure-K2.pdf',
    'cats24-structure-K2.svg',
    'cats24-structure-K3.pdf',
    'cats24-structure-K3.svg',
  ]);
  for (const K of [2, 3]) {
    const one = strFromU8(zip[`cats24-structure-K${K}.svg`]!);
    assert.equal(one.split('<g class="row"').length - 1, 1, `K = ${K}: one row`);
    assert.match(one, new RegExp(`data-k="${K}"`));
    assert.equal((one.match(/<g class="individual"/g) ?? []).length, 24);
    assert.equal(strFromU8(zip[`cats24-structure-K${K}.pdf`]!.subarray(0, 5)), '%PDF-');
  }
  const k3Names = [
    ...strFromU8(zip['cats24-structure-K3.svg']!).matchAll(/<text class="individual-name"[^>]*>([^<]*)<\/text>/g),
  ].map((m) => m[1]);
  assert.deepEqual(k3Names, shown);

  // 237 cats over the same width: bars too narrow, no ids.
  // Opening another dataset asks first (the results would go): accepted.
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Data', exact: true }).click();
  await page.getByTestId('file-input').setInputFiles([join(ROOT, 'resources', 'examples', 'nancycats.str')]);
  await page.waitForFunction(() => document.querySelector('[data-testid=n-individuals]')?.textContent === '237');
  await runClustering(page, 2, 2, 1, 1);
  await page.getByTestId('run-done').waitFor();
  await page.getByRole('button', { name: 'Structure', exact: true }).click();
  await page.getByTestId('structure-canvas').waitFor();
  assert.equal(await page.getByTestId('individual-names').count(), 0);
  assert.deepEqual(errors, []);
});
