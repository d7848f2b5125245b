// A sweep computed elsewhere (pieces merged by `stratify merge`, as a cluster's workflow does)
// opens in the app like a sweep run there: Choose K and the Structure view show its runs; a result
// of other data is refused with a message.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, openApp } from './browser.ts';
import { ROOT } from '../helpers.ts';
import { dataPath } from '../../data/datasets.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

const stratify = (cwd: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'stratify.mjs'), ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
};

test('Import results opens a merged sweep: the F_ST table of Choose K is the one stratify wrote', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-import-'));
  const data = join(ROOT, 'resources', 'examples', 'nancycats.gen');
  const plan = ['--replicates', '2', '--starts', '3', '--seed', '5', '--threads', '1'];
  for (const K of ['2', '3'])
    for (const r of ['1', '2']) stratify(dir, 'run', data, ...plan, '--k', K, '--replicate', r, '--out', 'pieces');
  stratify(dir, 'merge', 'pieces', '--out', 'merged');
  const summary = (
    JSON.parse(readFileSync(join(dir, 'merged', 'stratify.json'), 'utf8')) as {
      summary: { K: number; fstMean: number }[];
    }
  ).summary;

  const { page, errors } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(GENEPOP/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.getByTestId('import-results').setInputFiles(join(dir, 'merged', 'stratify.json'));
  await page.getByRole('button', { name: 'Choose K' }).click();
  await page.getByTestId('k-table').waitFor({ timeout: 30_000 });
  const shown = await page.getByTestId('k-table').textContent();
  for (const k of summary)
    assert.ok(shown!.includes(k.fstMean.toFixed(4)), `F_ST of K = ${k.K} not shown in: ${shown}`);
  await page.getByRole('button', { name: 'Structure' }).click();
  await page.getByTestId('structure-canvas').waitFor();
  await page.getByTestId('structure-canvas').hover({ position: { x: 30, y: 40 } });
  assert.match((await page.getByTestId('tooltip').textContent()) ?? '', /K = 2/);

  // A result of other individuals is refused, and says why.
  stratify(dir, 'sweep', dataPath('nancycats.str'), '--k', '2', ...plan, '--out', 'other');
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.getByTestId('import-results').setInputFiles(join(dir, 'other', 'stratify.json'));
  await page
    .getByRole('alert')
    .filter({ hasText: /individual \d+ is ".*" there but ".*" here/ })
    .waitFor();
  assert.deepEqual(errors, []);
});
