// Bootstrap intervals in the app: the Structure view refits the run on resampled markers (on the
// engine's workers) and draws each share's 95 % interval as a whisker on the bars; the intervals
// are the ones `stratify run --bootstrap` writes for the same run and seed.
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

test('Structure view → Bootstrap: whiskers on the bars, the CLI’s intervals', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-bootstrap-view-'));
  const data = join(ROOT, 'resources', 'examples', 'nancycats.gen');
  const args = ['--model', 'admixture', '--k', '2..3', '--starts', '2', '--replicates', '1'];
  const cli = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'stratify.mjs'), 'run', data, ...args, '--bootstrap', '4', '--threads', '1', '--out', dir],
    { encoding: 'utf8' },
  );
  assert.equal(cli.status, 0, cli.stderr);
  const rows = (name: string) =>
    readFileSync(join(dir, name), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/).map(Number));
  const lower = rows('stratify.K3.r1.Q_lower');
  const upper = rows('stratify.K3.r1.Q_upper');

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
  await page.getByTestId('bootstrap-hide').click();
  assert.ok((await dark()) < after, 'hidden again');
  assert.deepEqual(errors, []);
});
