// Nothing a user made is lost: a sweep interrupted by a reload keeps its finished K in the
// autosave, and "Continue" runs the rest — the same result, byte for byte, as the uninterrupted
// sweep (`stratify sweep` with the same settings: every start's seed derives from (seed, K,
// replicate, start)).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { launch, openApp, runClustering, screenshotPath, waitForAutosave } from './browser.ts';
import { ROOT } from '../helpers.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

test('a sweep interrupted by a reload is restored with its finished K and continued to the uninterrupted result', async () => {
  const STARTS = 1000;
  const dir = mkdtempSync(join(tmpdir(), 'stratify-continue-'));
  const out = join(dir, 'cli');
  const cli = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'stratify.mjs'),
      'sweep',
      join(ROOT, 'resources', 'examples', 'nancycats.str'),
      ...['--k', '2..4', '--starts', String(STARTS), '--replicates', '1', '--threads', '1', '--out', out],
    ],
    { encoding: 'utf8' },
  );
  assert.equal(cli.status, 0, cli.stderr);

  const { page, errors } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(STRUCTURE/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.getByTestId('threads').fill('1');
  await runClustering(page, 2, 4, STARTS, 1);
  // Starts go out largest K first: K = 4 finished (its run combined and autosaved), K = 2 not yet: reload.
  await page.waitForFunction(
    (n) => document.querySelector('progress[aria-label="K = 4"]')?.getAttribute('value') === String(n),
    STARTS,
    { timeout: 120_000 },
  );
  // Its run is combined (the row's "Runs done" reads 1), and then autosaved.
  await page.waitForFunction(
    () => document.querySelector('progress[aria-label="K = 4"]')?.closest('tr')?.cells[3]?.textContent?.trim() === '1',
  );
  await waitForAutosave(page);
  assert.notEqual(await page.locator('progress[aria-label="K = 2"]').getAttribute('value'), String(STARTS));
  page.on('dialog', (d) => void d.accept());
  await page.reload();
  await page.getByTestId('restore').click();
  const notice = page.getByTestId('interrupted');
  await notice.waitFor({ timeout: 30_000 });
  const text = ((await notice.textContent()) ?? '').replace(/\s+/g, ' ');
  assert.match(text, /The last sweep \(K = 2, 3, 4\) stopped before it finished/);
  assert.match(text, /Its finished runs \(K = (3, )?4\) are kept\./);
  await notice.screenshot({ path: screenshotPath('run-interrupted.png') });
  await page.getByTestId('continue-sweep').click();
  await page.getByTestId('run-done').waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('interrupted').count(), 0);
  await page.getByRole('button', { name: 'Structure', exact: true }).click();
  const [all] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-all').click()]);
  const zipPath = join(dir, 'all.zip');
  await all.saveAs(zipPath);
  const bundle = unzipSync(readFileSync(zipPath));
  const qFiles = readdirSync(out).filter((n) => n.endsWith('.Q'));
  assert.equal(qFiles.length, 3);
  for (const name of [...qFiles, 'fst-by-k.tsv'])
    assert.equal(strFromU8(bundle[name] ?? new Uint8Array()), readFileSync(join(out, name), 'utf8'), name);
  assert.deepEqual(errors, []);
});
