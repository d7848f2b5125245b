// Where the latest session is kept between visits: main's folder in the desktop app, IndexedDB
// in a browser.
import type { OpenedSession } from '../../../shared/ipc-contract.ts';

import type { SessionDoc } from './session.ts';
import { checkSession } from './session-check.ts';

const DB = 'stratify';
const STORE = 'autosave';

function db(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * Keeps the latest session: in the desktop app in main's own folder (main checks it lists only
 * files this window opened), in a browser in IndexedDB (one transaction: the old copy stays until
 * the new one commits).
 */
export async function autosave(doc: SessionDoc): Promise<void> {
  const desktop = window.stratify;
  if (desktop?.isDesktop) return desktop.autosaveSession(JSON.stringify(doc));
  const d = await db();
  await new Promise<void>((resolve, reject) => {
    const tx = d.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(JSON.stringify(doc), 'latest');
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  d.close();
}

/** A session to restore, with what main granted for it in the desktop app. */
export interface RestorableSession {
  readonly doc: SessionDoc;
  readonly opened?: Pick<OpenedSession, 'grants' | 'refused'>;
}

/** A session main opened (its dialog or its autosave), checked; throws with the field at fault. */
export function openedSession(opened: OpenedSession): RestorableSession {
  return { doc: checkSession(JSON.parse(opened.text)), opened };
}

export async function loadAutosave(): Promise<RestorableSession | null> {
  const desktop = window.stratify;
  try {
    if (desktop?.isDesktop) {
      const opened = await desktop.restoreAutosave();
      return opened ? openedSession(opened) : null;
    }
    const d = await db();
    const text = await new Promise<string | undefined>((resolve, reject) => {
      const req = d.transaction(STORE, 'readonly').objectStore(STORE).get('latest');
      req.onsuccess = () => resolve(req.result as string | undefined);
      req.onerror = () => reject(req.error);
    });
    d.close();
    return text ? { doc: checkSession(JSON.parse(text)) } : null;
  } catch {
    return null;
  }
}
