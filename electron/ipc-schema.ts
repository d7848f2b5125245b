/**
 * IPC channels and the validation of their arguments: the one place main and preload agree on
 * what crosses the bridge. Pure functions, tested without Electron.
 */
export const Channels = {
  connectEngine: 'stratify:engine-connect',
  enginePort: 'stratify:engine-port',
  engineCrashed: 'stratify:engine-crashed',
  openDialog: 'stratify:open-dialog',
  saveFile: 'stratify:save-file',
  saveProject: 'stratify:save-project',
  loadProject: 'stratify:load-project',
  recentFiles: 'stratify:recent-files',
  openPath: 'stratify:open-path',
  menuCommand: 'stratify:menu-command',
} as const;

export type Channel = (typeof Channels)[keyof typeof Channels];

export class IpcValidationError extends Error {
  override readonly name = 'IpcValidationError';
}

const MAX_NAME = 255;
const MAX_BYTES = 2 * 1024 ** 3;

/** A file name suggested by the renderer: no directories, no control characters. */
export function validateFileName(v: unknown): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_NAME)
    throw new IpcValidationError('file name must be a non-empty string of at most 255 characters');
  if (/[\\/]|\.\.|[\u0000-\u001f]/.test(v))
    throw new IpcValidationError(`file name "${v}" must not contain directories or control characters`);
  return v;
}

/** File content from the renderer: text or bytes, bounded in size. */
export function validateFileData(v: unknown): string | Uint8Array {
  if (typeof v === 'string') {
    if (v.length > MAX_BYTES) throw new IpcValidationError('file content is too large');
    return v;
  }
  if (v instanceof Uint8Array) {
    if (v.byteLength > MAX_BYTES) throw new IpcValidationError('file content is too large');
    return v;
  }
  throw new IpcValidationError('file content must be a string or a Uint8Array');
}

/** A project document from the renderer: a plain JSON object with a version field. */
export function validateProject(v: unknown): { version: number } & Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new IpcValidationError('project must be an object');
  const version = (v as { version?: unknown }).version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    throw new IpcValidationError('project.version must be a positive integer');
  return v as { version: number } & Record<string, unknown>;
}

/** Only these senders may call: the app's own pages, never remote content or subframes. */
export function isTrustedSender(url: string, isMainFrame: boolean): boolean {
  if (!isMainFrame) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'app:' && u.host === 'stratify';
  } catch {
    return false;
  }
}
