// The app's default admixture sweep as a new user runs it on HapMap3-size SNP data (324 × 14,000,
// three populations; written by bench/plink-fileset.ts, the benchmark's generator): choosing the
// admixture model gives its defaults (adaptive starts, one replicate, 5-fold CV), Run finishes,
// the time left shown along the way is recorded against the time the sweep took, and Choose K
// leads with the CV error and names the K it favours (3, the populations simulated).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, openApp, screenshotPath } from './browser.ts';
import { writePlinkFileset } from '../../bench/plink-fileset.ts';
import { SWEEP_DEFAULTS } from '../../engine/util/choices.ts';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

/** "3 min 05 s" or "42 s" as seconds. */
const seconds = (text: string) => {
  const m = /(?:(\d+) min )?(\d+) s/.exec(text);
  return m ? Number(m[1] ?? 0) * 60 + Number(m[2]) : NaN;
};

// Minutes on 2 cores: outside the fast tier, run with STRATIFY_E2E_SLOW=1 (npm run test:e2e -- admixture-sweep).
const slow = process.env.STRATIFY_E2E_SLOW === '1' ? false : 'minutes on 2 cores: STRATIFY_E2E_SLOW=1 runs it';

test(
  'the default admixture sweep of K = 2..5 on 324 × 14,000 SNPs: CV on, finishes, Choose K picks K = 3',
  { skip: slow, timeout: 1_800_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stratify-hapmap-size-'));
    const stem = join(dir, 'hapmap-size');
    await writePlinkFileset(stem, 324, 14_000, 3);
    const { page, errors } = await openApp(browser);
    await page.getByTestId('file-input').setInputFiles([`${stem}.bed`, `${stem}.bim`, `${stem}.fam`]);
    await page.getByTestId('n-individuals').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Run', exact: true }).first().click();
    await page.getByTestId('model').selectOption('admixture');
    // The admixture model's defaults, the CLI's (engine/util/choices.ts SWEEP_DEFAULTS).
    const d = SWEEP_DEFAULTS.admixture;
    assert.equal(await page.getByTestId('starts').inputValue(), String(d.starts));
    assert.equal(await page.getByTestId('replicates').inputValue(), String(d.replicates));
    assert.equal(await page.getByTestId('cv-folds').inputValue(), String(d.cvFolds));
    assert.equal(await page.getByTestId('starts-rule').inputValue(), d.startsRule);
    await page.getByTestId('k-to').fill('5');
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    await page.getByTestId('threads').fill(String(Math.min(2, cores)));
    // The time left shown, recorded in the page at each change (a MutationObserver), until the sweep ends.
    await page.evaluate(() => {
      const t0 = performance.now();
      const seen: { at: number; status: string; cv: string | null }[] = [];
      (window as unknown as { shown: typeof seen; t0: number }).shown = seen;
      (window as unknown as { t0: number }).t0 = t0;
      new MutationObserver(() => {
        const status = document.querySelector('[data-testid=sweep-time]')?.textContent ?? '';
        const cv = document.querySelector('[data-testid=cv-progress]')?.textContent ?? null;
        const last = seen[seen.length - 1];
        if (!last || last.status !== status || last.cv !== cv) seen.push({ at: performance.now() - t0, status, cv });
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByTestId('run').click();
    await page.getByTestId('run-done').waitFor({ timeout: 3_600_000 });
    const recorded = await page.evaluate(() => {
      const w = window as unknown as { shown: { at: number; status: string; cv: string | null }[]; t0: number };
      return { shown: w.shown, total: performance.now() - w.t0 };
    });
    const shown = recorded.shown.flatMap((r) => {
      const m = /about ([^,(]+?) left/.exec(r.cv ?? r.status);
      return m ? [{ at: r.at, left: seconds(m[1]!), stage: r.cv ? 'cv' : 'starts' }] : [];
    });
    const total = recorded.total / 1000;
    await page.getByTestId('progress').screenshot({ path: screenshotPath('run-admixture-default.png') });
    // What the estimates were worth: predicted end against the actual, once the first start had reported.
    const errorsPct = shown
      .filter((s) => s.stage === 'starts')
      .map((s) => Math.round((100 * (s.at / 1000 + s.left - total)) / total));
    console.log(
      `# default admixture sweep in the app: ${total.toFixed(1)} s; predicted-end error (%) over time: ${errorsPct.join(' ')}`,
    );
    await page.getByRole('button', { name: 'Choose K', exact: true }).click();
    const advice = (await page.getByTestId('cv-advice').textContent()) ?? '';
    assert.match(advice.replace(/\s+/g, ' '), /Lowest cross-validation error .*: K = 3\./);
    for (const K of [2, 3, 4, 5]) assert.match((await page.getByTestId(`cv-${K}`).textContent()) ?? '', /^0\.\d{4}$/);
    await page.screenshot({ path: screenshotPath('choose-k-admixture-default.png'), fullPage: true });
    assert.deepEqual(errors, []);
  },
);
