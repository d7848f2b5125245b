// Renders resources/icons/icon.svg to the PNG sizes electron-builder needs, with Chromium.
// Usage: node --import tsx scripts/make-icons.ts
import { readFileSync } from 'node:fs';
import { launch } from '../tests/e2e/browser.ts';

const svg = readFileSync('resources/icons/icon.svg', 'utf8');
const browser = await launch();
for (const size of [512, 256]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace('width="64" height="64"', `width="${size}" height="${size}"`)}</body></html>`,
  );
  await page.screenshot({
    path: `resources/icons/${size === 512 ? 'icon' : `icon-${size}`}.png`,
    omitBackground: true,
  });
  await page.close();
}
await browser.close();
console.log('wrote resources/icons/icon.png');
