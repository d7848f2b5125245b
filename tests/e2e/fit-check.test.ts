// The model-fit check in the app: the Structure view computes the residual correlations of a run
// (evalAdmix's estimator) and draws them as a heat map ordered like the bar plot; its
// within-population means are the ones `stratify run --fit-check` writes for the same run.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, openApp, screenshotPath } from './browser.ts';
import { ROOT } from '../helpers.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

test('Structure view → Model fit: a heat map of residual correlations and the CLI’s population means', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-fit-check-'));
  const data = join(ROOT, 'resources', 'examples', 'nancycats.gen');
  const args = ['--model', 'admixture', '--k', '2..3', '--starts', '2', '--replicates', '1'];
  const cli = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'stratify.mjs'), 'run', data, ...args, '--fit-check', '--threads', '1', '--out', dir],
    { encoding: 'utf8' },
  );
  assert.equal(cli.status, 0, cli.stderr);
  const [head, ...rows] = readFileSync(join(dir, 'fit.K3.tsv'), 'utf8').trim().split('\n');
  const pops = head!.split('\t').slice(1);
  const within = new Map(pops.map((p, g) => [p, Number(rows[g]!.split('\t')[g + 1])]));

  const { page, errors } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(GENEPOP/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.getByTestId('model').selectOption('admixture');
  await page.getByTestId('k-from').fill('2');
  await page.getByTestId('k-to').fill('3');
  await page.getByTestId('starts').fill('2');
  await page.getByTestId('replicates').fill('1');
  await page.getByTestId('run').click();
  await page.getByTestId('run-done').waitFor({ timeout: 120_000 });
  await page.getByRole('button', { name: 'Structure' }).click();
  await page.getByText('Model fit: residual correlations').click();
  await page.getByTestId('fit-check-k').selectOption('3');
  await page.getByTestId('fit-check-run').click();
  await page.getByTestId('fit-check-summary').waitFor({ timeout: 60_000 });
  assert.match(
    (await page.getByTestId('fit-check-summary').textContent()) ?? '',
    /K = 3, replicate 1 .*237 individuals, 9 of 9/s,
  );

  // The app's within-population means are the CLI's (3 decimals shown).
  const shown = await page.getByTestId('fit-check-within').locator('tbody tr').allTextContents();
  assert.equal(shown.length, pops.length);
  for (const row of await page.getByTestId('fit-check-within').locator('tbody tr').all()) {
    const [p, v] = await row.locator('td').allTextContents();
    assert.ok(Math.abs(Number(v) - within.get(p!)!) <= 0.0006, `${p}: app ${v}, CLI ${within.get(p!)}`);
  }
  // The heat map is drawn: red (positive) and blue (negative) cells both appear.
  const colours = await page.getByTestId('fit-check-heatmap').evaluate((c: HTMLCanvasElement) => {
    const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let red = 0;
    let blue = 0;
    for (let x = 0; x < px.length; x += 4) {
      if (px[x]! > px[x + 2]! + 40) red++;
      if (px[x + 2]! > px[x]! + 40) blue++;
    }
    return { red, blue, size: c.width };
  });
  assert.ok(colours.size > 0 && colours.red > 0 && colours.blue > 0, JSON.stringify(colours));
  await page.getByTestId('fit-check').screenshot({ path: screenshotPath('fit-check-nancycats.png') });
  assert.deepEqual(errors, []);
});
