import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from '../helpers.ts';

export const BASE = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:4174/';

/** Debian's Chromium, headless, with the flags this machine needs. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** A fresh page on the app, with console errors collected. */
export async function openApp(
  browser: Browser,
  viewport = { width: 1360, height: 900 },
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(BASE);
  return { page, errors };
}

/** Waits until the app has autosaved every change so far (its autosave status says so). */
export async function waitForAutosave(page: Page): Promise<void> {
  await page.locator('[data-testid=autosave][data-pending=false]:not([data-saves="0"])').waitFor({ timeout: 30_000 });
}

/** Starts a clustering sweep from the Run view with the given K range, starts and replicates. */
export async function runClustering(
  page: Page,
  kFrom: number,
  kTo: number,
  starts: number,
  replicates: number,
  model?: 'admixture',
) {
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  if (model) await page.getByTestId('model').selectOption(model);
  await page.getByTestId('k-from').fill(String(kFrom));
  await page.getByTestId('k-to').fill(String(kTo));
  await page.getByTestId('starts').fill(String(starts));
  await page.getByTestId('replicates').fill(String(replicates));
  await page.getByTestId('run').click();
}

/** Runs the command line (bin/stratify.mjs) to the end; throws with its stderr unless it succeeds. */
export function stratifyCli(...args: string[]): string {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'stratify.mjs'), ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`stratify ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/**
 * Where the tests save screenshots: a temporary folder, so a test run changes nothing tracked;
 * `npm run screenshots` points SCREENSHOT_DIR at docs/screenshots to remake the README's pictures.
 */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'stratify-screenshots-'));

/** The path to save a screenshot named `name` (e.g. 'run-nancycats.png') at. */
export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, name);
}
