// Where the Electron binary is, if it is installed (node_modules/electron downloads it on first
// use, which is impossible on machines without internet access), or ELECTRON_OVERRIDE_DIST_PATH.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
