// SNP data as a user brings it, in the app: a PLINK fileset with an X chromosome opens with X left
// out (and a box to keep it), the Filter panel suggests linkage pruning, and pruning keeps what
// PLINK 2 keeps (tests/fixtures/ld: its prune.in, per chromosome), with a table of each step.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { strFromU8, unzipSync } from 'fflate';
import { launch, openApp, screenshotPath } from './browser.ts';
import { ROOT } from '../helpers.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

const FIXTURE = join(ROOT, 'tests/fixtures/ld');

test('a PLINK fileset with X: X left out on opening, pruning as PLINK 2 prunes, each step counted', async () => {
  // The fixture with its third chromosome (400 SNPs) named X.
  const dir = mkdtempSync(join(tmpdir(), 'stratify-e2e-ld-'));
  const stem = join(dir, 'withx');
  writeFileSync(`${stem}.bim`, readFileSync(join(FIXTURE, 'blocks.bim'), 'utf8').replace(/^scaffold_7\t/gm, 'X\t'));
  writeFileSync(`${stem}.bed`, readFileSync(join(FIXTURE, 'blocks.bed')));
  writeFileSync(`${stem}.fam`, readFileSync(join(FIXTURE, 'blocks.fam')));
  const { page, errors } = await openApp(browser);
  await page.getByTestId('file-input').setInputFiles([`${stem}.bed`, `${stem}.bim`, `${stem}.fam`]);
  await page.waitForFunction(() => document.querySelector('[data-testid=n-loci]')?.textContent === '1500');
  assert.equal(await page.getByTestId('filter-sex').isChecked(), true);
  assert.equal(await page.getByTestId('chromosomes').textContent(), 'Chromosomes (2)');
  assert.match((await page.getByTestId('filter-sex').locator('..').textContent()) ?? '', /leave out X \(400\)/);
  await page.getByTestId('prune-hint').waitFor();
  // Prune with PLINK's tutorial settings (the defaults shown).
  assert.equal(await page.getByTestId('prune-window').inputValue(), '50');
  assert.equal(await page.getByTestId('prune-step').inputValue(), '10');
  assert.equal(await page.getByTestId('prune-r2').inputValue(), '0.1');
  await page.getByTestId('filter-prune').check();
  await page.getByTestId('apply-filters').click();
  // PLINK prunes each chromosome on its own: its list for chromosomes 1 and 2.
  const expected = readFileSync(join(FIXTURE, 'w50s10r01.prune.in'), 'utf8')
    .trim()
    .split('\n')
    .filter((name) => /^[12]:/.test(name)).length;
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid=n-loci]')?.textContent === String(n),
    expected,
  );
  const steps = await page.getByTestId('filter-steps').locator('tbody tr').allTextContents();
  assert.deepEqual(steps, ['sex and organelle chromosomes0400', `--indep-pairwise0${1500 - expected}`]);
  await page.screenshot({ path: screenshotPath('filters-pruned.png'), fullPage: true });
  // The lists as `stratify filter` writes them: prune.in is PLINK 2's for chromosomes 1 and 2.
  const download = page.waitForEvent('download');
  await page.getByTestId('download-lists').click();
  const zip = unzipSync(readFileSync((await (await download).path())!));
  assert.deepEqual(Object.keys(zip).sort(), ['withx.prune.in', 'withx.prune.out', 'withx.removed.tsv']);
  assert.deepEqual(
    strFromU8(zip['withx.prune.in']!).trim().split('\n'),
    readFileSync(join(FIXTURE, 'w50s10r01.prune.in'), 'utf8')
      .trim()
      .split('\n')
      .filter((name) => /^[12]:/.test(name)),
  );
  // Keeping X: its 400 SNPs come back (unpruned: pruning is off again after Clear).
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid=n-loci]')?.textContent === '1900');
  assert.equal(await page.getByTestId('filter-sex').isChecked(), false);
  assert.deepEqual(errors, []);
});
