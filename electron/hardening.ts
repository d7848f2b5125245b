// Electron's security checklist (docs/tutorial/security.md) as functions over the parts of
// Electron they touch, so tests run them over fakes: permissions refused (requests and checks),
// and for every web contents the app creates — not only the main window — no navigation away
// from the app's origin, no <webview>, no new windows; DevTools only in an unpackaged build.
import { APP_ORIGIN } from './app-protocol.ts';

/** An event a handler may cancel. */
export interface Cancellable {
  preventDefault(): void;
}

/** The parts of a WebContents the guards use. */
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (e: Cancellable, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (e: Cancellable) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/** The part of `app` the guard needs. */
export interface ContentsCreatedSource {
  on(event: 'web-contents-created', listener: (e: unknown, contents: GuardedContents) => void): unknown;
}

/** The part of a Session the permission handlers need. */
export interface PermissionSession {
  setPermissionRequestHandler(
    handler: (wc: unknown, permission: string, callback: (ok: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: (wc: unknown, permission: string) => boolean): void;
}

/** Whether a URL is one of the app's own pages (app://stratify/…). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'app:' && u.host === new URL(APP_ORIGIN).host;
  } catch {
    return false;
  }
}

/** Checklist items 13, 14 and 12 for one web contents. */
export function guardContents(contents: GuardedContents): void {
  const stayInApp = (e: Cancellable, url: string) => {
    if (!isAppUrl(url)) e.preventDefault();
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-attach-webview', (e) => e.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Guards every web contents the app will create (windows, and any frame host Electron makes). */
export function guardAllWebContents(app: ContentsCreatedSource): void {
  app.on('web-contents-created', (_e, contents) => guardContents(contents));
}

/** Checklist item 5: the app needs no permission (camera, notifications, clipboard reads, …). */
export function refusePermissions(session: PermissionSession): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/** The main window's webPreferences: isolation, sandbox, no Node; DevTools only when unpackaged. */
export function windowPreferences(preload: string, packaged: boolean) {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    webviewTag: false,
    devTools: !packaged,
    spellcheck: false,
  } as const;
}
