// Supervised admixture in the app (ADMIXTURE's --supervised): the Run view's reference populations
// fix K and keep their individuals' ancestry in their cluster; the result is the one `stratify sweep
// --supervised` gives for the same references and seed, byte for byte.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
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

test("supervised admixture with colonies 1 and 2 of nancycats as references: K = 2, references fixed, the CLI's Q", async () => {
  const data = join(ROOT, 'resources', 'examples', 'nancycats.str');
  const rows = readFileSync(data, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/));
  const population = rows.map((r) => r[1]!);
  const dir = mkdtempSync(join(tmpdir(), 'stratify-supervised-'));
  const refs = join(dir, 'refs.txt');
  writeFileSync(
    refs,
    rows
      .filter((r) => r[1] === '1' || r[1] === '2')
      .map((r) => `${r[0]}\t${r[1]}`)
      .join('\n') + '\n',
  );
  const out = join(dir, 'cli');
  const cli = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'stratify.mjs'),
      'sweep',
      data,
      '--supervised',
      refs,
      '--starts',
      '2',
      '--replicates',
      '1',
      '--threads',
      '1',
      '--out',
      out,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(cli.status, 0, cli.stderr);

  const { page, errors } = await openApp(browser);
  await page.getByRole('button', { name: /nancycats \(STRUCTURE/ }).click();
  await page.getByTestId('n-individuals').waitFor();
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.getByTestId('model').selectOption('admixture');
  await page.getByTestId('reference-1').check();
  await page.getByTestId('reference-2').check();
  const refCount = population.filter((p) => p === '1' || p === '2').length;
  assert.equal(
    ((await page.getByTestId('supervised-note').textContent()) ?? '').replace(/\s+/g, ' ').trim(),
    `K = 2: cluster 1 = 1, cluster 2 = 2; ${refCount} reference individuals, ${rows.length - refCount} estimated.`,
  );
  assert.ok(await page.getByTestId('k-from').isDisabled(), 'K is set by the references');
  await page.getByTestId('references').screenshot({ path: screenshotPath('run-supervised.png') });
  await page.getByTestId('starts').fill('2');
  await page.getByTestId('replicates').fill('1');
  await page.getByTestId('threads').fill('1');
  await page.getByTestId('run').click();
  await page.getByTestId('run-done').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Structure', exact: true }).click();
  const [all] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-all').click()]);
  const zipPath = join(dir, 'all.zip');
  await all.saveAs(zipPath);
  const bundle = unzipSync(readFileSync(zipPath));
  const q = strFromU8(bundle['stratify.K2.r1.Q']!);
  assert.equal(q, readFileSync(join(out, 'stratify.K2.r1.Q'), 'utf8'), 'the same Q as the CLI');
  // The references' ancestry stays in their population's cluster.
  q.trim()
    .split('\n')
    .forEach((line, d) => {
      const [a, b] = line.split(' ').map(Number) as [number, number];
      if (population[d] === '1') assert.ok(a > 0.999999 && b < 1e-6, `row ${d}: ${line}`);
      if (population[d] === '2') assert.ok(b > 0.999999 && a < 1e-6, `row ${d}: ${line}`);
    });
  assert.deepEqual(errors, []);
});
