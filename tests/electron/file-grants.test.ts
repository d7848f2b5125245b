// The attack the desktop shell must withstand: script running in the page (an XSS, a compromised
// renderer dependency, a crafted session) tries every channel it has to make the engine read a
// file the user never opened — a private key in a temporary home folder and /etc/passwd. Each try
// is refused and the engine host never touches either file (its disk access is counted). Beside
// it, the legitimate paths: a drop, main's session dialog, the autosave, grants that end with
// their window.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileGrant } from '../../engine/runtime/engine-protocol.ts';
import { ENGINE_PORT_MESSAGE, INVOKE_CHANNELS, isSessionContent, type DesktopApi } from '../../shared/ipc-contract.ts';
import { ROOT } from '../helpers.ts';
import { closeAllPorts } from './fake-electron.ts';
import { countingDisk, desktop, desktopWindow, engineHost } from './desktop-fixture.ts';

after(closeAllPorts);

const EXAMPLE = join(ROOT, 'resources', 'examples', 'nancycats.str');
const home = mkdtempSync(join(tmpdir(), 'stratify-home-'));
mkdirSync(join(home, '.ssh'));
const KEY = join(home, '.ssh', 'id_rsa');
writeFileSync(KEY, '-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n');
const SECRETS = [KEY, '/etc/passwd'];

/** A session as the page would write one, listing `paths` as its data files. */
function sessionListing(paths: readonly string[]): string {
  return JSON.stringify({
    version: 1,
    app: 'stratify',
    savedAt: '2026-01-01T00:00:00.000Z',
    files: paths.map((p) => ({ name: 'x.str', path: p })),
    view: 'data',
    run: { algorithm: 'auto', kFrom: 2, kTo: 3, starts: 1, replicates: 1, epsilon: 0.01, seed: 1 },
    plot: { palette: [], populationOrder: [], shownK: [], groupByRegion: false, barHeight: 100 },
    runs: [],
  });
}

/** Every argument shape a hostile page could pass to a function of its API to name a file. */
function hostileArguments(api: DesktopApi, path: string): unknown[][] {
  const grant: FileGrant = { name: 'id_rsa', path, size: 1, grant: 'made-up' };
  const session = sessionListing([path]);
  return [
    [],
    [path],
    [[path]],
    [grant],
    [[grant]],
    [[new File(['x'], path)]],
    [[{ name: path, path }]],
    [session],
    ['x.stratify.json', session],
    ['x.stratify.json', new TextEncoder().encode(session)],
    ['x.str', path],
    [{ paths: [path] }],
  ].filter(() => api.isDesktop);
}

test('the page cannot make the engine read a file the user did not open, through any channel it has', async () => {
  const disk = countingDisk();
  // Every dialog is "cancelled" except the save dialog, which a hostile page could have the user
  // confirm: the attack may write files, but they must not open as sessions.
  const app = desktop({ save: join(home, 'saved.stratify.json') }, disk);
  const client = await app.connect();
  const methods = Object.entries(app.api).filter(([, v]) => typeof v === 'function');
  const channels = methods.map(([k]) => k).sort();
  // The page's channels after the fix (none of them takes a path).
  assert.deepEqual(channels, [
    'autosaveSession',
    'grantFiles',
    'onEngineCrashed',
    'onMenuCommand',
    'onOpenFiles',
    'openFileDialog',
    'openSession',
    'requestEnginePort',
    'restoreAutosave',
    'saveFile',
    'saveSession',
  ]);
  const returned: unknown[] = [];
  for (const secret of SECRETS)
    for (const [name, fn] of methods) {
      if (name.startsWith('on') || name === 'requestEnginePort') continue;
      for (const args of hostileArguments(app.api, secret)) {
        try {
          returned.push(await (fn as (...a: unknown[]) => unknown)(...args));
        } catch {
          // refused: what we want
        }
      }
    }
  // Whatever came back, none of it is a grant of a secret, and the autosave/saved session lists none.
  const text = JSON.stringify(returned);
  for (const secret of SECRETS) assert.ok(!text.includes(`"path":"${secret}"`), `no grant of ${secret}: ${text}`);
  assert.equal(app.autosaved(), null, 'a session listing files this window was not granted is not autosaved');
  // The page may have written files through the save dialog, but none that opens as a session.
  for (const [path, data] of app.written) assert.ok(!isSessionContent(data), `${path} would open as a session`);

  // The engine port: a FileGrant the page makes up, with any path, is refused.
  for (const secret of SECRETS) {
    const forged: FileGrant = { name: 'x', path: secret, size: 1, grant: 'guessed' };
    await assert.rejects(client.call('previewFile', [forged]).result, /did not open this file/);
    await assert.rejects(client.call('openDataset', [[forged], {}]).result, /did not open this file/);
  }
  // A forged window message (a port message or a grant message the page posts to itself).
  const { port1, port2 } = new MessageChannel();
  after(() => port2.close());
  app.win.postMessage({ type: ENGINE_PORT_MESSAGE }, '*', [port1]);
  app.win.postMessage({ type: 'grant', id: 1, window: 1, grant: 'g', path: KEY }, '*');
  await new Promise((r) => setImmediate(r));
  await assert.rejects(
    client.call('previewFile', [{ name: 'x', path: KEY, size: 1, grant: 'g' }]).result,
    /did not open this file/,
  );
  const touched = disk.touched.filter((p) => SECRETS.includes(p));
  assert.deepEqual(touched, [], 'the engine host never stat’ed or opened a secret');
  client.dispose();
});

test('a session file the page wrote itself cannot be saved, and main’s session dialog grants only what exists', async () => {
  const app = desktop({ save: join(home, 'p.stratify.json') });
  await assert.rejects(app.api.saveFile('p.stratify.json', sessionListing([KEY])), /saveSession/);
  await assert.rejects(app.api.saveFile('p.json', `  \n${sessionListing([KEY])}`), /saveSession/);
  await assert.rejects(app.api.saveSession('p.stratify.json', sessionListing([KEY])), /did not open/);
  await assert.rejects(app.api.autosaveSession(sessionListing([KEY])), /did not open/);
  assert.equal(app.written.size, 0);
  // Other files save as before (an SVG, a PNG's bytes, JSON that is not a session).
  assert.ok(await app.api.saveFile('plot.svg', '<svg/>'));
  assert.ok(await app.api.saveFile('plot.png', Uint8Array.from([0x89, 0x50, 0x4e, 0x47])));
  assert.ok(await app.api.saveFile('colours.json', '{"app":"pong"}'));
  assert.equal(app.written.size, 1, 'one save path, written each time');
});

test('the user’s own actions grant: a drop, main’s session dialog, a saved and restored autosave', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-session-'));
  const gone = join(dir, 'gone.str');
  const folder = join(dir, 'a-folder.str');
  mkdirSync(folder);
  const sessionFile = join(dir, 'cats.stratify.json');
  writeFileSync(sessionFile, sessionListing([EXAMPLE, gone, folder]));
  const app = desktop({ openSession: sessionFile, save: join(dir, 'again.stratify.json') });
  const client = await app.connect();
  // A dropped file: the page hands the File object; the preload resolves its path.
  const dropped = await app.api.grantFiles([app.files.drop(EXAMPLE)]);
  assert.deepEqual(
    dropped.map((g) => g.path),
    [EXAMPLE],
  );
  assert.equal((await client.call('openDataset', [dropped, {}]).result).summary.individuals, 237);
  // A File made in the page has no path: nothing is granted, the page reads its bytes instead.
  assert.deepEqual(await app.api.grantFiles([new File(['x'], EXAMPLE)]), []);
  await assert.rejects(app.api.grantFiles(['/etc/passwd' as unknown as File]), /File objects/);
  // Main's session dialog: the listed file that exists is granted, the others refused with the reason.
  const opened = (await app.api.openSession())!;
  assert.equal(opened.name, 'cats.stratify.json');
  assert.deepEqual(
    opened.grants.map((g) => g.path),
    [EXAMPLE],
  );
  assert.deepEqual(opened.refused, [
    { path: gone, reason: 'no such file' },
    { path: folder, reason: 'not a file' },
  ]);
  // This window may now save and autosave sessions listing EXAMPLE, and restore them.
  assert.equal(
    await app.api.saveSession('again.stratify.json', sessionListing([EXAMPLE])),
    join(dir, 'again.stratify.json'),
  );
  await app.api.autosaveSession(sessionListing([EXAMPLE]));
  const restored = (await app.api.restoreAutosave())!;
  assert.deepEqual(
    restored.grants.map((g) => g.path),
    [EXAMPLE],
  );
  assert.equal((await client.call('previewFile', [restored.grants[0]!]).result).length > 0, true);
  client.dispose();
});

test('grants belong to the window that received them and end with it', async () => {
  const host = engineHost();
  const one = desktopWindow(host, {}, 1);
  const two = desktopWindow(host, { open: [EXAMPLE] }, 2);
  const c1 = await one.connect();
  const c2 = await two.connect();
  const grants = (await two.api.openFileDialog())!;
  assert.equal((await c2.call('openDataset', [grants, {}]).result).summary.individuals, 237);
  // Window 1 holds window 2's token (say, leaked through a shared session): refused.
  await assert.rejects(c1.call('previewFile', [grants[0]!]).result, /did not open this file in this window/);
  assert.deepEqual([...host.engine.grantedPaths(one.ipc.webContents)], []);
  // Window 2 closes: its grants end (a reconnecting page of the same id gets none).
  two.ipc.webContents.destroy();
  assert.deepEqual([...host.engine.grantedPaths(two.ipc.webContents)], []);
  await assert.rejects(two.api.grantFiles([two.files.drop(EXAMPLE)]), /window has closed/);
  c1.dispose();
  c2.dispose();
});

test('the preload-only channel is not part of the page’s API', () => {
  const app = desktop();
  assert.ok(!('grantDropped' in app.api));
  assert.ok(Object.values(INVOKE_CHANNELS).includes(INVOKE_CHANNELS.grantDropped));
});
