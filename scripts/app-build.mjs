// Shared by `npm start` (scripts/start.mjs) and `npm run test:electron` (scripts/test-electron.mjs):
// where the Electron binary is, and the builds of the page (Vite) and the shell (esbuild).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Electron binary if it is installed (node_modules/electron downloads it on first use, which is
 * impossible on machines without internet access), or ELECTRON_OVERRIDE_DIST_PATH's.
 */
export function electronBinary(root) {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const bin = join(
      process.env.ELECTRON_OVERRIDE_DIST_PATH,
      process.platform === 'win32' ? 'electron.exe' : 'electron',
    );
    return existsSync(bin) ? bin : undefined;
  }
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? bin : undefined;
}

/** Runs a command in `root`; exits with its status if it fails. */
export function runOrExit(root, cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Builds the page into dist-web/ and, with `desktop`, the shell into dist-electron/. */
export function buildApp(root, { desktop }) {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  runOrExit(root, process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
  if (desktop) runOrExit(root, process.execPath, [join(root, 'scripts', 'build-electron.mjs')]);
}
