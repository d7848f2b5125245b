#!/usr/bin/env node
// Entry point of the `stratify` command. Runs the bundle in dist/cli/ (made by
// scripts/build-cli.mjs at `npm install`), which starts without compiling TypeScript; in a
// checkout where a source file under engine/ is newer than the bundle, or without a bundle,
// runs the TypeScript sources through tsx's loader instead, so an edit is never run stale.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'dist', 'cli', 'stratify.mjs');

/** The newest modification time of the engine's TypeScript sources (0 where there are none). */
function newestSource(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

let run;
if (
  process.env.STRATIFY_FROM_SOURCE !== '1' &&
  existsSync(bundle) &&
  statSync(bundle).mtimeMs >= newestSource(join(root, 'engine'))
) {
  ({ run } = await import(bundle));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ run } = await import('../engine/cli/main.ts'));
}
process.exitCode = await run(process.argv);
