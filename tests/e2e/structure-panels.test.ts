// The trust panels under the Structure view's bar plot, each checked against the command line on
// the same run and seed: the model-fit check (evalAdmix's residual correlations, a heat map ordered
// like the bars; its within-population means are the ones `stratify run --fit-check` writes) and
// bootstrap intervals (refits on resampled markers on the engine's workers, drawn as whiskers; the
// intervals `stratify run --bootstrap` writes).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, openApp, runClustering, screenshotPath, stratifyCli } from './browser.ts';
import { ROOT } from '../helpers.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

const data = join(ROOT, 'resources', 'examples', 'nancycats.gen');
const args = ['--model', 'admixture', '--k', '2..3', '--starts', '2', '--replicates', '1'];

/** The app with nancycats open and the admixture model run at K = 2..3 as `args`, on the Structure view. */
async function appWithRun() {
  const app = await openApp(browser);
  await app.page.getByRole('button', { name: /nancycats \(GENEPOP/ }).click();
  await app.page.getByTestId('n-individuals').waitFor();
  await runClustering(app.page, 2, 3, 2, 1, 'admixture');
  await app.page.getByTestId('run-done').waitFor({ timeout: 120_000 });
  await app.page.getByRole('button', { name: 'Structure' }).click();
  return app;
}

test('Structure view → Model fit: a heat map of residual correlations and the CLI’s population means', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-fit-check-'));
  stratifyCli('run', data, ...args, '--fit-check', '--threads', '1', '--out', dir);
  const [head, ...rows] = readFileSync(join(dir, 'fit.K3.tsv'), 'utf8').trim().split('\n');
  const pops = head!.split('\t').slice(1);
  const within = new Map(pops.map((p, g) => [p, Number(rows[g]!.split('\t')[g + 1])]));

  const { page, errors } = await appWithRun();
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
  // Another view and back: the check stays (the same sweep).
  await page.getByRole('button', { name: 'Choose K' }).click();
  await page.getByRole('button', { name: 'Structure' }).click();
  await page.getByText('Model fit: residual correlations').click();
  await page.getByTestId('fit-check-summary').waitFor();
  assert.deepEqual(errors, []);
});

test('Structure view → Bootstrap: whiskers on the bars, the CLI’s intervals', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-bootstrap-view-'));
  stratifyCli('run', data, ...args, '--bootstrap', '4', '--threads', '1', '--out', dir);
  const rows = (name: string) =>
    readFileSync(join(dir, name), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/).map(Number));
  const lower = rows('stratify.K3.r1.Q_lower');
  const upper = rows('stratify.K3.r1.Q_upper');

  const { page, errors } = await appWithRun();
  const canvas = page.getByTestId('structure-canvas');
  const dark = () =>
    canvas.evaluate((c: HTMLCanvasElement) => {
      const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let x = 0; x < px.length; x += 4)
        if (px[x]! < 60 && px[x + 1]! < 60 && px[x + 2]! < 60 && px[x + 3]! > 0) n++;
      return n;
    });
  const before = await dark();
  await page.getByText('Bootstrap intervals (whiskers)').click();
  await page.getByTestId('bootstrap-k').selectOption('3');
  await page.getByTestId('bootstrap-b').fill('4');
  await page.getByTestId('bootstrap-run').click();
  await page.getByTestId('bootstrap-summary').waitFor({ timeout: 120_000 });
  assert.match((await page.getByTestId('bootstrap-summary').textContent()) ?? '', /4 refits on resampled markers/);
  const after = await dark();
  assert.ok(after > before + 50, `whiskers drawn: ${before} → ${after} dark pixels`);

  // The app's intervals (CSV, columns as plotted) are the CLI's, up to the order of the clusters.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('bootstrap-csv').click()]);
  const csv = readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  assert.equal(csv.length, lower.length);
  csv.forEach((line, d) => {
    const cells = line.split(',');
    const appLower = [0, 1, 2].map((c) => Number(cells[3 + 3 * c])).sort();
    const appUpper = [0, 1, 2].map((c) => Number(cells[4 + 3 * c])).sort();
    const cliLower = [...lower[d]!].sort();
    const cliUpper = [...upper[d]!].sort();
    for (let c = 0; c < 3; c++) {
      assert.ok(Math.abs(appLower[c]! - cliLower[c]!) < 1e-4, `individual ${d}: lower ${appLower} vs ${cliLower}`);
      assert.ok(Math.abs(appUpper[c]! - cliUpper[c]!) < 1e-4, `individual ${d}: upper ${appUpper} vs ${cliUpper}`);
    }
  });
  await page.getByTestId('structure-canvas').screenshot({ path: screenshotPath('bootstrap-whiskers-nancycats.png') });
  // Another view and back: the whiskers and the intervals stay (the same sweep).
  await page.getByRole('button', { name: 'Choose K' }).click();
  await page.getByRole('button', { name: 'Structure' }).click();
  await page.getByTestId('structure-canvas').waitFor();
  assert.equal(await dark(), after, 'the whiskers are drawn again');
  await page.getByText('Bootstrap intervals (whiskers)').click();
  await page.getByTestId('bootstrap-hide').click();
  assert.ok((await dark()) < after, 'hidden again');
  assert.deepEqual(errors, []);
});

test('Structure view: a saved session keeps the fit check and the bootstrap whiskers', async () => {
  const { page, errors } = await appWithRun();
  const darkOf = (p: typeof page) =>
    p.getByTestId('structure-canvas').evaluate((c: HTMLCanvasElement) => {
      const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let x = 0; x < px.length; x += 4)
        if (px[x]! < 60 && px[x + 1]! < 60 && px[x + 2]! < 60 && px[x + 3]! > 0) n++;
      return n;
    });
  await page.getByText('Model fit: residual correlations').click();
  await page.getByTestId('fit-check-k').selectOption('3');
  await page.getByTestId('fit-check-run').click();
  await page.getByTestId('fit-check-summary').waitFor({ timeout: 60_000 });
  const fitSummary = await page.getByTestId('fit-check-summary').textContent();
  const within = await page.getByTestId('fit-check-within').locator('tbody tr').allTextContents();
  await page.getByText('Bootstrap intervals (whiskers)').click();
  await page.getByTestId('bootstrap-k').selectOption('3');
  await page.getByTestId('bootstrap-b').fill('4');
  await page.getByTestId('bootstrap-run').click();
  await page.getByTestId('bootstrap-summary').waitFor({ timeout: 120_000 });
  const whiskers = await darkOf(page);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-session').click()]);
  const path = join(mkdtempSync(join(tmpdir(), 'stratify-trust-session-')), 'trust.stratify.json');
  await download.saveAs(path);
  const doc = JSON.parse(readFileSync(path, 'utf8')) as {
    trust?: { bootstrap?: { B: number; shown?: number[] }; fitCheck?: { N: number; matrix?: string } };
  };
  assert.equal(doc.trust?.bootstrap?.B, 4);
  assert.equal(doc.trust?.bootstrap?.shown?.length, 237 * 3, 'the row the whiskers are on');
  assert.equal(doc.trust?.fitCheck?.N, 237);
  assert.ok((doc.trust?.fitCheck?.matrix?.length ?? 0) > 237 * 237 * 4, 'every pair, as float32');

  const fresh = await openApp(browser);
  // The session reopens on the view it was saved on: Structure.
  await fresh.page.getByTestId('session-input').setInputFiles(path);
  await fresh.page.getByTestId('structure-canvas').waitFor({ timeout: 30_000 });
  assert.equal(await darkOf(fresh.page), whiskers, 'the same whiskers on the same bars');
  await fresh.page.getByText('Model fit: residual correlations').click();
  assert.equal(await fresh.page.getByTestId('fit-check-summary').textContent(), fitSummary);
  assert.deepEqual(await fresh.page.getByTestId('fit-check-within').locator('tbody tr').allTextContents(), within);
  await fresh.page.getByText('Bootstrap intervals (whiskers)').click();
  assert.match(
    (await fresh.page.getByTestId('bootstrap-summary').textContent()) ?? '',
    /4 refits on resampled markers/,
  );
  await fresh.page.screenshot({ path: screenshotPath('trust-restored-nancycats.png'), fullPage: true });
  await fresh.page.getByTestId('bootstrap-hide').click();
  assert.ok((await darkOf(fresh.page)) < whiskers, 'the restored whiskers can be hidden');
  assert.deepEqual(errors, []);
  assert.deepEqual(fresh.errors, []);
});
