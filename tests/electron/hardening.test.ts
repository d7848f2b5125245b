// Electron's security checklist over fakes of the parts it touches (electron/hardening.ts):
// permissions refused when requested and when checked; every web contents the app creates kept
// on the app's origin, without webviews or new windows; DevTools only in an unpackaged build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  guardAllWebContents,
  isAppUrl,
  refusePermissions,
  windowPreferences,
  type Cancellable,
  type GuardedContents,
} from '../../electron/hardening.ts';
import { ROOT } from '../helpers.ts';

type Handler = (e: Cancellable, url: string) => void;

/** A web contents whose events are emitted like Electron's: listeners in order, preventDefault recorded. */
class FakeContents {
  private readonly listeners = new Map<string, Handler[]>();
  openHandler: ((d: { url: string }) => { action: string }) | undefined;
  on(event: string, listener: Handler): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  setWindowOpenHandler(handler: (d: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  /** Emits an event; true when a listener prevented its default (the navigation does not happen). */
  emit(event: string, url?: string): boolean {
    let prevented = false;
    const e = { preventDefault: () => void (prevented = true) };
    for (const l of this.listeners.get(event) ?? []) l(e, url ?? '');
    return prevented;
  }
  /** window.open: without a handler Electron opens the window. */
  open(url: string): string {
    return this.openHandler?.({ url }).action ?? 'allow';
  }
}

test('every web contents: navigation only within app://stratify, no webview, no new window', () => {
  const created: ((e: unknown, c: GuardedContents) => void)[] = [];
  guardAllWebContents({ on: (_event, l) => created.push(l) });
  assert.equal(created.length, 1);
  // Two contents created by the app (the window, and any other Electron makes): both guarded.
  for (const contents of [new FakeContents(), new FakeContents()]) {
    created[0]!({}, contents as GuardedContents);
    assert.equal(contents.emit('will-navigate', 'app://stratify/index.html'), false);
    assert.equal(contents.emit('will-navigate', 'https://evil.example/'), true);
    assert.equal(contents.emit('will-navigate', 'file:///etc/passwd'), true);
    assert.equal(contents.emit('will-navigate', 'app://elsewhere/index.html'), true);
    assert.equal(contents.emit('will-redirect', 'https://evil.example/'), true);
    assert.equal(contents.emit('will-attach-webview'), true);
    assert.equal(contents.open('https://evil.example/'), 'deny');
    assert.equal(contents.open('app://stratify/index.html'), 'deny');
  }
  // An unguarded contents (the fake can fail): navigation and windows go ahead.
  const bare = new FakeContents();
  assert.equal(bare.emit('will-navigate', 'https://evil.example/'), false);
  assert.equal(bare.open('https://evil.example/'), 'allow');
  assert.equal(isAppUrl('app://stratify.evil/x'), false);
  assert.equal(isAppUrl('not a url'), false);
});

test('permissions: every request and every check refused', () => {
  let request: ((wc: unknown, p: string, cb: (ok: boolean) => void) => void) | undefined;
  let check: ((wc: unknown, p: string) => boolean) | undefined;
  refusePermissions({
    setPermissionRequestHandler: (h) => void (request = h),
    setPermissionCheckHandler: (h) => void (check = h),
  });
  for (const p of ['media', 'notifications', 'clipboard-read', 'geolocation', 'fullscreen', 'openExternal']) {
    let granted: boolean | undefined;
    request!(null, p, (ok) => (granted = ok));
    assert.equal(granted, false, `request ${p}`);
    assert.equal(check!(null, p), false, `check ${p}`);
  }
});

test('the window: isolated, sandboxed, no Node, no webview tag; DevTools only when unpackaged', () => {
  const packaged = windowPreferences('/app/preload.cjs', true);
  assert.equal(packaged.devTools, false);
  assert.equal(windowPreferences('/app/preload.cjs', false).devTools, true);
  assert.deepEqual(
    [packaged.contextIsolation, packaged.sandbox, packaged.nodeIntegration, packaged.webSecurity, packaged.webviewTag],
    [true, true, false, true, false],
  );
  // main.ts uses these (it cannot run here without Electron's binary).
  const main = readFileSync(join(ROOT, 'electron', 'main.ts'), 'utf8');
  assert.match(main, /guardAllWebContents\(app\)/);
  assert.match(main, /refusePermissions\(session\.defaultSession\)/);
  assert.match(main, /webPreferences: windowPreferences\(join\(HERE, 'preload\.cjs'\), app\.isPackaged\)/);
  assert.doesNotMatch(main, /webPreferences: \{/, 'no second, hand-written set of preferences');
});
