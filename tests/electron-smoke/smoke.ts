// The desktop app as shipped, launched for real (npm run test:electron): the shipped example opened
// by path as a file association would, K = 2..3 run in the engine utility process, the bar plot
// drawn with one bar per individual, a PNG exported through the save dialog, a screenshot saved.
// Not part of `npm run test:unit`: it needs the Electron binary and a display (Xvfb).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { runClustering } from '../e2e/browser.ts';
import { ROOT } from '../helpers.ts';

test('the desktop app opens the example by path, runs K = 2..3, draws 237 bars and exports a PNG', async () => {
  const out = mkdtempSync(join(tmpdir(), 'stratify-electron-'));
  const example = join(ROOT, 'resources', 'examples', 'nancycats.str');
  const app = await electron.launch({
    executablePath: process.env.ELECTRON_BINARY!,
    args: [ROOT, example],
    env: { ...process.env, STRATIFY_USER_DATA: join(out, 'user-data') },
  });
  try {
    const page = await app.firstWindow();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // The file came by path: the engine read it where it lives, the page shows its summary.
    await page.getByTestId('n-individuals').waitFor({ timeout: 60_000 });
    assert.match((await page.getByTestId('n-individuals').textContent()) ?? '', /237/);
    assert.equal(
      await page.evaluate(() => typeof (window as { require?: unknown }).require),
      'undefined',
      'no Node in the page',
    );
    await runClustering(page, 2, 3, 4, 1);
    await page.getByTestId('run-done').waitFor({ timeout: 120_000 });
    await page.getByRole('button', { name: 'Structure' }).click();
    await page.getByTestId('structure-canvas').waitFor();
    // Exports go through main's save dialog; answer it with a path, then wait for the file.
    const exportTo = async (testId: string, path: string) => {
      await app.evaluate(({ dialog }, target) => {
        dialog.showSaveDialog = (async () => ({ canceled: false, filePath: target })) as typeof dialog.showSaveDialog;
      }, path);
      await page.getByTestId(testId).click();
      for (let k = 0; k < 150; k++) {
        try {
          if (readFileSync(path).length > 0) return readFileSync(path);
        } catch {
          /* not written yet */
        }
        await page.waitForTimeout(100);
      }
      return assert.fail(`${path} was not written`);
    };
    const png = await exportTo('export-png', join(out, 'structure.png'));
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG was written');
    const svg = (await exportTo('export-svg', join(out, 'structure.svg'))).toString('utf8');
    const rows = svg.split('<g class="row"').slice(1);
    assert.equal(rows.length, 2, 'K = 2 and 3');
    for (const row of rows)
      assert.equal((row.match(/<g class="individual"/g) ?? []).length, 237, 'one bar per individual');
    await page.screenshot({ path: join(ROOT, 'test-results', 'electron-structure.png') });
    assert.deepEqual(errors, []);
  } finally {
    await app.close();
  }
});
