// The IPC contract (shared/ipc-contract.ts) without Electron: main's handlers and the preload's
// API are built over fakes of ipcMain and ipcRenderer; the renderer's callers are found in its source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  desktopApi,
  ENGINE_CHANNELS,
  EVENT_CHANNELS,
  INVOKE_CHANNELS,
  IpcValidationError,
  MENU_COMMANDS,
  registerInvokeHandlers,
  type DesktopApi,
} from '../../shared/ipc-contract.ts';
import { genotypePathsIn } from '../../electron/files.ts';
import { unpackedPath } from '../../electron/engine-host-protocol.ts';
import { mainFileFirst } from '../../engine/runtime/engine-protocol.ts';
import { ROOT } from '../helpers.ts';

type Listener = (event: { trusted: boolean }, ...args: unknown[]) => Promise<unknown>;

function fakeMain() {
  const handlers = new Map<string, Listener>();
  const calls: { key: string; args: unknown[] }[] = [];
  registerInvokeHandlers<{ trusted: boolean }>(
    { handle: (channel, listener) => handlers.set(channel, listener) },
    {
      openDialog: async () => {
        calls.push({ key: 'openDialog', args: [] });
        return null;
      },
      grantDropped: async (_e, paths) => {
        calls.push({ key: 'grantDropped', args: [paths] });
        return paths.map((p) => ({ name: p, path: p, size: 0, grant: 'g' }));
      },
      openSession: async () => null,
      saveSession: async () => null,
      autosaveSession: async () => undefined,
      restoreAutosave: async () => null,
      saveFile: async (_e, name, data) => {
        calls.push({ key: 'saveFile', args: [name, data] });
        return `/tmp/${name}`;
      },
    },
    (e) => e.trusted,
  );
  return { handlers, calls };
}

test('main: every invoke channel has a handler; wrong payloads and untrusted frames are refused before it runs', async () => {
  const { handlers, calls } = fakeMain();
  assert.deepEqual([...handlers.keys()].sort(), Object.values(INVOKE_CHANNELS).sort());
  const save = handlers.get(INVOKE_CHANNELS.saveFile)!;
  const ok = { trusted: true };
  assert.equal(await save(ok, 'plot.svg', '<svg/>'), '/tmp/plot.svg');
  for (const bad of [[42, 'x'], ['../x.svg', 'x'], ['a.svg', { length: 3 }], ['a.svg'], ['a.svg', 'x', 'extra']])
    await assert.rejects(save(ok, ...bad), IpcValidationError, JSON.stringify(bad));
  await assert.rejects(save({ trusted: false }, 'plot.svg', 'x'), /untrusted/);
  const open = handlers.get(INVOKE_CHANNELS.openDialog)!;
  await assert.rejects(open(ok, 'surprise'), IpcValidationError);
  assert.equal(await open(ok), null);
  const grant = handlers.get(INVOKE_CHANNELS.grantDropped)!;
  for (const bad of [[], [[]], ['/a.vcf'], [['rel.vcf']], [['/a\u0000.vcf']], [Array(17).fill('/a.vcf')], [[42]]])
    await assert.rejects(grant(ok, ...bad), IpcValidationError, JSON.stringify(bad));
  assert.equal(((await grant(ok, ['/data/a.vcf', 'C:\\data\\b.bed'])) as unknown[]).length, 2);
  assert.deepEqual(
    calls.map((c) => c.key),
    ['saveFile', 'openDialog', 'grantDropped'],
    'only the valid calls reached the implementation',
  );
});

test('preload: each API call goes to its channel; events are validated before the page sees them', async () => {
  const invoked: { channel: string; args: unknown[] }[] = [];
  const sent: string[] = [];
  const listeners = new Map<string, (e: unknown, payload: unknown) => void>();
  const dropped = new File([], 'dropped.vcf');
  const api: DesktopApi = desktopApi(
    {
      invoke: async (channel, ...args) => {
        invoked.push({ channel, args });
        return null;
      },
      send: (channel) => void sent.push(channel),
      on: (channel, listener) => listeners.set(channel, listener),
    },
    { getPathForFile: (f) => (f === dropped ? '/data/dropped.vcf' : '') },
  );
  await api.openFileDialog();
  await api.grantFiles([dropped, new File(['x'], 'made-in-the-page.vcf')]);
  assert.deepEqual(await api.grantFiles([new File(['x'], '/etc/passwd')]), [], 'no path: no call to main');
  await api.openSession();
  await api.saveSession('p.stratify.json', '{"app":"stratify","files":[]}');
  await api.autosaveSession('{"app":"stratify","files":[]}');
  await api.restoreAutosave();
  await api.saveFile('a.svg', 'x');
  assert.deepEqual(
    invoked.map((c) => c.channel),
    [
      INVOKE_CHANNELS.openDialog,
      INVOKE_CHANNELS.grantDropped,
      INVOKE_CHANNELS.openSession,
      INVOKE_CHANNELS.saveSession,
      INVOKE_CHANNELS.autosaveSession,
      INVOKE_CHANNELS.restoreAutosave,
      INVOKE_CHANNELS.saveFile,
    ],
  );
  assert.deepEqual(invoked[1]!.args, [['/data/dropped.vcf']], 'only the path of the file that has one');
  api.requestEnginePort();
  assert.deepEqual(sent, [ENGINE_CHANNELS.connect]);
  const got: unknown[] = [];
  api.onMenuCommand((c) => got.push(c));
  api.onOpenFiles((f) => got.push(f[0]!.name));
  api.onEngineCrashed((r) => got.push(r));
  assert.deepEqual([...listeners.keys()].sort(), Object.values(EVENT_CHANNELS).sort(), 'every event has a listener');
  listeners.get(EVENT_CHANNELS.menuCommand)!(null, 'run');
  assert.throws(() => listeners.get(EVENT_CHANNELS.menuCommand)!(null, 'open-path:/etc/passwd'), IpcValidationError);
  listeners.get(EVENT_CHANNELS.openFiles)!(null, [{ name: 'x.vcf', path: '/d/x.vcf', size: 2, grant: 'g' }]);
  assert.throws(() => listeners.get(EVENT_CHANNELS.openFiles)!(null, [{ name: 'x.vcf' }]), IpcValidationError);
  assert.throws(
    () => listeners.get(EVENT_CHANNELS.openFiles)!(null, [{ name: 'x.vcf', bytes: new Uint8Array(2) }]),
    IpcValidationError,
    'the page is sent grants, never bytes',
  );
  listeners.get(EVENT_CHANNELS.engineCrashed)!(null, 'oom');
  assert.deepEqual(got, ['run', 'x.vcf', 'oom']);
});

/** Every file under a folder (recursively). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : [readFileSync(p, 'utf8')];
  });
}

test('renderer: every API method has a caller and every menu command a handler; main sends every event', () => {
  const renderer = sources(join(ROOT, 'renderer', 'src')).join('\n');
  const methods: (keyof DesktopApi)[] = [
    'openFileDialog',
    'grantFiles',
    'openSession',
    'saveSession',
    'autosaveSession',
    'restoreAutosave',
    'saveFile',
    'onEngineCrashed',
    'onMenuCommand',
    'onOpenFiles',
  ];
  for (const m of methods) assert.match(renderer, new RegExp(`(stratify|desktop)\\??\\.${m}\\(`), `${m} is called`);
  assert.match(renderer, /api\.requestEnginePort\(\)/, 'requestEnginePort is called');
  const app = readFileSync(join(ROOT, 'renderer', 'src', 'App.svelte'), 'utf8');
  for (const c of MENU_COMMANDS) assert.ok(app.includes(`command === '${c}'`), `menu command ${c} is handled`);
  const main = ['main.ts', 'main-ipc.ts', 'engine-host.ts']
    .map((f) => readFileSync(join(ROOT, 'electron', f), 'utf8'))
    .join('\n');
  for (const key of Object.keys(EVENT_CHANNELS))
    assert.match(main, new RegExp(`sendEvent\\('${key}'|EVENT_CHANNELS\\.${key}`), `main sends ${key}`);
  for (const c of MENU_COMMANDS) assert.ok(main.includes(`sendMenu('${c}')`), `the menu sends ${c}`);
});

test('opening by path: the main file first; command-line genotype paths are recognised; packed paths unpacked', () => {
  const path = (p: string) => p;
  assert.deepEqual(mainFileFirst(['/d/x.fam', '/d/x.bim', '/d/x.bed'], path), ['/d/x.bed', '/d/x.fam', '/d/x.bim']);
  assert.deepEqual(mainFileFirst(['/d/x.map', '/d/x.ped'], path), ['/d/x.ped', '/d/x.map']);
  assert.deepEqual(genotypePathsIn(['--inspect', '/a/b.VCF.gz', 'c.str', 'notes.pdf', '.']), ['/a/b.VCF.gz', 'c.str']);
  assert.equal(
    unpackedPath('/opt/S/resources/app.asar/dist-electron/e.mjs'),
    '/opt/S/resources/app.asar.unpacked/dist-electron/e.mjs',
  );
  assert.equal(
    unpackedPath('C:\\S\\resources\\app.asar\\dist-electron\\e.mjs'),
    'C:\\S\\resources\\app.asar.unpacked\\dist-electron\\e.mjs',
  );
  assert.equal(
    unpackedPath('/home/u/stratify/dist-electron/e.mjs'),
    '/home/u/stratify/dist-electron/e.mjs',
    'unpackaged: unchanged',
  );
});
