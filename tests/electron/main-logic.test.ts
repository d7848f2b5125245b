import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IpcValidationError, isTrustedSender, validateFileData, validateFileName } from '../../shared/ipc-contract.ts';
import { addRecent, readJson, writeFileAtomic } from '../../electron/files.ts';
import { DEFAULT_WINDOW, restoreWindowState } from '../../electron/window-state.ts';

test('IPC validation: file names, file data, senders', () => {
  assert.equal(validateFileName('plot.svg'), 'plot.svg');
  for (const bad of ['', '../etc/passwd', 'a/b.svg', 'a\\b', 'x\u0000y', 'x'.repeat(300), 42, null]) {
    assert.throws(() => validateFileName(bad), IpcValidationError, String(bad));
  }
  assert.equal(validateFileData('text'), 'text');
  assert.ok(validateFileData(new Uint8Array(3)) instanceof Uint8Array);
  assert.throws(() => validateFileData({ length: 3 }), IpcValidationError);
  assert.equal(isTrustedSender('app://stratify/index.html', true), true);
  assert.equal(isTrustedSender('app://stratify/index.html', false), false, 'subframes are refused');
  assert.equal(isTrustedSender('https://evil.example/', true), false);
  assert.equal(isTrustedSender('file:///etc/passwd', true), false);
  assert.equal(isTrustedSender('not a url', true), false);
});

test('atomic writes replace the file whole and leave no temporary files; a failed write keeps the old file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-'));
  const target = join(dir, 'session.json');
  await writeFileAtomic(target, JSON.stringify({ version: 1, n: 1 }));
  await writeFileAtomic(target, JSON.stringify({ version: 1, n: 2 }));
  assert.deepEqual(JSON.parse(readFileSync(target, 'utf8')), { version: 1, n: 2 });
  assert.deepEqual(readdirSync(dir), ['session.json']);
  // A target that is a (non-empty) directory cannot be replaced: the write fails, nothing is torn.
  const blocked = join(dir, 'blocked');
  mkdirSync(blocked);
  writeFileSync(join(blocked, 'keep'), 'x');
  await assert.rejects(writeFileAtomic(blocked, 'new content'));
  assert.deepEqual(readdirSync(dir).sort(), ['blocked', 'session.json']);
  assert.equal(readFileSync(join(blocked, 'keep'), 'utf8'), 'x');
  // Nested folders are created.
  await writeFileAtomic(join(dir, 'a', 'b', 'state.json'), '{}');
  assert.deepEqual(await readJson(join(dir, 'a', 'b', 'state.json'), null), {});
  assert.deepEqual(await readJson(join(dir, 'missing.json'), { fallback: true }), { fallback: true });
});

test('recent files: most recent first, no duplicates, bounded', () => {
  let list: string[] = [];
  for (const p of ['a', 'b', 'c', 'a']) list = addRecent(list, p, 3);
  assert.deepEqual(list, ['a', 'c', 'b']);
  for (const p of ['d', 'e']) list = addRecent(list, p, 3);
  assert.deepEqual(list, ['e', 'd', 'a']);
});

test('window state: restored only when sane and on a display', () => {
  const displays = [{ x: 0, y: 0, width: 1920, height: 1080 }];
  assert.deepEqual(restoreWindowState(undefined, displays), DEFAULT_WINDOW);
  assert.deepEqual(restoreWindowState({ x: 100, y: 50, width: 1000, height: 700, maximized: true }, displays), {
    x: 100,
    y: 50,
    width: 1000,
    height: 700,
    maximized: true,
  });
  const off = restoreWindowState({ x: 5000, y: 50, width: 1000, height: 700, maximized: false }, displays);
  assert.equal(off.x, undefined, 'off-screen position dropped');
  assert.equal(restoreWindowState({ width: 10, height: 10, maximized: false }, displays).width, 640);
});
