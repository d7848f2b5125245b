import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, openApp, waitForAutosave } from './browser.ts';
import { ROOT } from '../helpers.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

test('save a session, reopen it in a fresh browser and find every view restored; autosave offers the last session', async () => {
  const { page } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(GENEPOP/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.getByTestId('k-from').fill('2');
  await page.getByTestId('k-to').fill('3');
  await page.getByTestId('starts').fill('5');
  await page.getByTestId('replicates').fill('2');
  await page.getByTestId('run').click();
  await page.getByTestId('run-done').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Structure' }).click();
  await page.getByTestId('colour-1').fill('#123456');
  await page.getByRole('button', { name: 'Choose K' }).click();
  await page.getByTestId('k-table').waitFor();
  const table = await page.getByTestId('k-table').textContent();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-session').click()]);
  const path = join(ROOT, 'test-results', 'session.stratify.json');
  await download.saveAs(path);
  const doc = JSON.parse(readFileSync(path, 'utf8')) as {
    version: number;
    runs: unknown[];
    plot: { palette: string[] };
  };
  assert.equal(doc.version, 1);
  assert.equal(doc.runs.length, 4);
  assert.equal(doc.plot.palette[1], '#123456');

  // A fresh browser context (no autosave there): open the saved file.
  const fresh = await openApp(browser);
  await fresh.page.getByTestId('session-input').setInputFiles(path);
  await fresh.page.getByTestId('k-table').waitFor({ timeout: 30_000 });
  assert.equal(await fresh.page.getByTestId('k-table').textContent(), table);
  await fresh.page.getByRole('button', { name: 'Structure' }).click();
  assert.equal(await fresh.page.getByTestId('colour-1').inputValue(), '#123456');

  // Tampered copies are refused with a reason and change nothing: the fresh page keeps its views.
  const tampered = (edit: (d: Record<string, unknown>) => void, name: string) => {
    const d = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    edit(d);
    const p = join(ROOT, 'test-results', name);
    writeFileSync(p, JSON.stringify(d));
    return p;
  };
  const cases: [string, RegExp][] = [
    [
      tampered((d) => {
        const runs = d['runs'] as { Q: number[] }[];
        runs[0]!.Q = runs[0]!.Q.slice(0, runs[0]!.Q.length - 2);
      }, 'short-q.stratify.json'),
      /do not belong to this data/,
    ],
    [
      tampered((d) => ((d['run'] as Record<string, unknown>)['algorithm'] = 'magic'), 'algo.stratify.json'),
      /run\.algorithm/,
    ],
    [
      tampered((d) => ((d['plot'] as Record<string, unknown>)['palette'] = ['red']), 'palette.stratify.json'),
      /plot\.palette/,
    ],
  ];
  for (const [file, why] of cases) {
    await fresh.page.getByTestId('session-input').setInputFiles(file);
    await fresh.page.waitForFunction(
      (source) => new RegExp(source).test(document.querySelector('[data-testid=error]')?.textContent ?? ''),
      why.source,
    );
    await fresh.page.getByRole('button', { name: 'Choose K' }).click();
    assert.equal(await fresh.page.getByTestId('k-table').textContent(), table, 'nothing half-restored');
  }

  // The first page autosaved: reloading it offers to restore.
  await waitForAutosave(page);
  await page.reload();
  await page.getByTestId('restore').click();
  await page.getByTestId('k-table').waitFor({ timeout: 30_000 });
  assert.equal(await page.getByTestId('k-table').textContent(), table);
});
