/**
 * The IPC contract between main, preload and renderer: every channel with its request and
 * response types, the validation main applies before a handler runs, and the builders of both
 * ends (pure functions over ipcMain/ipcRenderer-like objects, so they are tested without
 * Electron). The renderer imports the types from here; main and preload import the builders.
 */
import type { FileGrant } from '../engine/runtime/engine-protocol.ts';

export type { FileGrant };

/**
 * The engine's MessagePort handshake (outside the invoke/event contract: it carries a port).
 * The page asks on `connect`; main sends the preload a port on `port`; a MessagePort cannot
 * cross the context bridge, so the preload posts it to the page with window.postMessage as a
 * message of type {@link ENGINE_PORT_MESSAGE} (Electron's MessagePorts tutorial, "communicating
 * directly between the main process and the main world of a context-isolated page").
 */
export const ENGINE_CHANNELS = {
  connect: 'stratify:engine-connect',
  port: 'stratify:engine-port',
} as const;

/** The `type` of the window message that carries the engine's port from the preload to the page. */
export const ENGINE_PORT_MESSAGE = 'stratify:engine-port';

/**
 * A session file opened by main: its text, the data files it lists that main granted this window,
 * and those it lists that main could not grant, each with the reason.
 */
export interface OpenedSession {
  /** The session file's name (no folder). */
  readonly name: string;
  readonly text: string;
  readonly grants: readonly FileGrant[];
  /** Paths the session lists that main did not grant: not there, a folder, unreadable… */
  readonly refused: readonly RefusedFile[];
}

/** A file main did not grant, and why ("no such file", "not a file", or the system's message). */
export interface RefusedFile {
  readonly path: string;
  readonly reason: string;
}

/**
 * Renderer → main calls (ipcRenderer.invoke → ipcMain.handle): arguments and result. No channel
 * the page can reach takes a path: main grants files only from what the user did (its own dialogs,
 * Open Recent, the command line, a drop the preload resolved, a session the user chose).
 */
export interface InvokeContract {
  /** The system's open dialog; the chosen files granted to the engine (main file first), or null when cancelled. */
  openDialog: { args: []; result: FileGrant[] | null };
  /**
   * Files the user dropped on the window or chose in its file input: called by the preload alone
   * (the page's `grantFiles` takes File objects, whose paths only the preload can see through
   * webUtils.getPathForFile), never with a path the page wrote.
   */
  grantDropped: { args: [paths: string[]]; result: FileGrant[] };
  /** The system's open dialog for a session; the session with the files it lists granted, or null. */
  openSession: { args: []; result: OpenedSession | null };
  /** The system's save dialog for a session; refused when it lists a file this window was not granted. */
  saveSession: { args: [name: string, text: string]; result: string | null };
  /** Keeps the latest session in main's own folder; refused when it lists a file this window was not granted. */
  autosaveSession: { args: [text: string]; result: void };
  /** The autosaved session with the files it lists granted again to this window, or null. */
  restoreAutosave: { args: []; result: OpenedSession | null };
  /** The system's save dialog for a suggested name; the path written, or null when cancelled. Never a session. */
  saveFile: { args: [name: string, data: string | Uint8Array]; result: string | null };
}

/** Main → renderer events (webContents.send → ipcRenderer.on): the payload. */
export interface EventContract {
  /** The engine process stopped (it restarts); the reason. */
  engineCrashed: string;
  /** A menu item was chosen. */
  menuCommand: MenuCommand;
  /** Files to open, granted to the engine: Open Recent, a double-clicked associated file, or a command-line path. */
  openFiles: FileGrant[];
}

export const INVOKE_CHANNELS: { readonly [K in keyof InvokeContract]: string } = {
  openDialog: 'stratify:open-dialog',
  grantDropped: 'stratify:grant-dropped',
  openSession: 'stratify:open-session',
  saveSession: 'stratify:save-session',
  autosaveSession: 'stratify:autosave-session',
  restoreAutosave: 'stratify:restore-autosave',
  saveFile: 'stratify:save-file',
};

export const EVENT_CHANNELS: { readonly [K in keyof EventContract]: string } = {
  engineCrashed: 'stratify:engine-crashed',
  menuCommand: 'stratify:menu-command',
  openFiles: 'stratify:open-files',
};

/** What the application menu can ask the page to do. */
export const MENU_COMMANDS = ['open', 'save-session', 'open-session', 'export-plot', 'run', 'cancel'] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

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

/** A menu command as received by the page. */
export function validateMenuCommand(v: unknown): MenuCommand {
  if (typeof v !== 'string' || !(MENU_COMMANDS as readonly string[]).includes(v))
    throw new IpcValidationError(`unknown menu command ${JSON.stringify(v)}`);
  return v as MenuCommand;
}

const MAX_PATHS = 16;
const MAX_PATH = 4096;

/** Paths of dropped files (from the preload): 1–16 absolute paths without control characters. */
export function validatePaths(v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_PATHS)
    throw new IpcValidationError(`paths must be a list of 1 to ${MAX_PATHS} file paths`);
  return v.map((p: unknown) => {
    if (typeof p !== 'string' || p.length === 0 || p.length > MAX_PATH || /[\u0000-\u001f]/.test(p))
      throw new IpcValidationError('each path must be a non-empty string without control characters');
    if (!(p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\')))
      throw new IpcValidationError(`"${p}" is not an absolute path`);
    return p;
  });
}

/** Granted files sent to the page: a non-empty list of { name, path, size, grant }. */
export function validateGrants(v: unknown): FileGrant[] {
  if (!Array.isArray(v) || v.length === 0) throw new IpcValidationError('files must be a non-empty list');
  return v.map((f: unknown) => {
    const x = f as Partial<Record<keyof FileGrant, unknown>> | null;
    if (
      !x ||
      typeof x.name !== 'string' ||
      typeof x.path !== 'string' ||
      typeof x.grant !== 'string' ||
      typeof x.size !== 'number'
    )
      throw new IpcValidationError('each file must have a name, a path, a size and a grant');
    return { name: x.name, path: x.path, size: x.size, grant: x.grant };
  });
}

const MAX_PROJECT = 512 * 1024 ** 2;

/** A session's text from the page: a string of at most 512 MiB that parses as a Stratify session. */
export function validateSessionText(v: unknown): string {
  if (typeof v !== 'string' || v.length > MAX_PROJECT)
    throw new IpcValidationError('a session must be JSON text of at most 512 MiB');
  sessionPaths(v);
  return v;
}

/** Whether text parses as a Stratify session (the JSON the app saves: { app: 'stratify', files }). */
function parsedSession(text: string): Record<string, unknown> | null {
  if (!/^\s*\{/.test(text)) return null;
  try {
    const doc = JSON.parse(text) as unknown;
    if (doc && typeof doc === 'object' && !Array.isArray(doc) && (doc as { app?: unknown }).app === 'stratify')
      return doc as Record<string, unknown>;
  } catch {
    return null;
  }
  return null;
}

/** Whether content written by saveFile would open as a session (so it must go through saveSession). */
export function isSessionContent(data: string | Uint8Array): boolean {
  if (typeof data === 'string') return parsedSession(data) !== null;
  // Bytes: only what begins like a JSON object is decoded (a PNG or a zip is not).
  let k = 0;
  while (k < data.length && (data[k] === 0x20 || data[k] === 0x0a || data[k] === 0x0d || data[k] === 0x09)) k++;
  if (data[k] === 0xef) k += 3; // a UTF-8 byte-order mark
  if (data[k] !== 0x7b) return false;
  return parsedSession(new TextDecoder().decode(data)) !== null;
}

/**
 * The files on disk a session lists (its data files, population file and sites file by path), in
 * order; throws IpcValidationError when the text is not a Stratify session or a path is malformed.
 */
export function sessionPaths(text: string): string[] {
  const doc = parsedSession(text);
  if (!doc) throw new IpcValidationError('not a Stratify session (JSON with "app": "stratify")');
  const files = doc.files;
  if (!Array.isArray(files)) throw new IpcValidationError('the session has no list of files');
  const listed = [...files, doc.populationFile, doc.sitesFile].filter((f) => f !== undefined);
  const paths: string[] = [];
  for (const f of listed) {
    const path = (f as { path?: unknown } | null)?.path;
    if (path === undefined) continue;
    paths.push(...validatePaths([path]));
  }
  return paths;
}

/** Checks an invoke call's arguments against its contract; throws IpcValidationError otherwise. */
export const VALIDATE_ARGS: { readonly [K in keyof InvokeContract]: (args: unknown[]) => InvokeContract[K]['args'] } = {
  openDialog: (args) => {
    if (args.length !== 0) throw new IpcValidationError('openDialog takes no arguments');
    return [];
  },
  grantDropped: (args) => {
    if (args.length !== 1) throw new IpcValidationError('grantDropped takes a list of paths');
    return [validatePaths(args[0])];
  },
  openSession: (args) => {
    if (args.length !== 0) throw new IpcValidationError('openSession takes no arguments');
    return [];
  },
  saveSession: (args) => {
    if (args.length !== 2) throw new IpcValidationError('saveSession takes a file name and the session');
    return [validateFileName(args[0]), validateSessionText(args[1])];
  },
  autosaveSession: (args) => {
    if (args.length !== 1) throw new IpcValidationError('autosaveSession takes the session');
    return [validateSessionText(args[0])];
  },
  restoreAutosave: (args) => {
    if (args.length !== 0) throw new IpcValidationError('restoreAutosave takes no arguments');
    return [];
  },
  saveFile: (args) => {
    if (args.length !== 2) throw new IpcValidationError('saveFile takes a file name and its content');
    const data = validateFileData(args[1]);
    if (isSessionContent(data))
      throw new IpcValidationError('a session is saved with saveSession, which checks the files it lists');
    return [validateFileName(args[0]), data];
  },
};

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

/** The part of ipcMain the handlers need. */
export interface MainIpc<E> {
  handle(channel: string, listener: (event: E, ...args: unknown[]) => Promise<unknown>): void;
}

/** Implementations of the invoke channels: the caller's event, then the arguments (already validated). */
export type InvokeHandlers<E> = {
  readonly [K in keyof InvokeContract]: (
    event: E,
    ...args: InvokeContract[K]['args']
  ) => Promise<InvokeContract[K]['result']>;
};

/**
 * Registers a handler for every invoke channel: a call from an untrusted frame or with arguments
 * that break the contract is refused before the implementation runs.
 */
export function registerInvokeHandlers<E>(
  ipc: MainIpc<E>,
  impl: InvokeHandlers<E>,
  trusted: (event: E) => boolean,
): void {
  for (const key of Object.keys(INVOKE_CHANNELS) as (keyof InvokeContract)[]) {
    ipc.handle(INVOKE_CHANNELS[key], async (event, ...args) => {
      if (!trusted(event)) throw new IpcValidationError('IPC from an untrusted frame was refused');
      const valid = VALIDATE_ARGS[key](args);
      return (impl[key] as (event: E, ...a: unknown[]) => Promise<unknown>)(event, ...valid);
    });
  }
}

/**
 * What the preload exposes to the page as `window.stratify`. Everything here crosses the context
 * bridge, which copies values and proxies functions: no MessagePort or other transferable may be
 * a parameter or a result (the engine's port reaches the page as a window message instead).
 */
export interface DesktopApi {
  readonly isDesktop: true;
  /**
   * Asks main for a port to the engine utility process; it arrives as a window 'message' event
   * from the page's own window with data { type: ENGINE_PORT_MESSAGE } and the port in `ports`.
   */
  requestEnginePort(): void;
  openFileDialog(): Promise<InvokeContract['openDialog']['result']>;
  /**
   * Grants the engine dropped or chosen File objects (the page never names a path): the preload
   * asks main with their paths from webUtils.getPathForFile; files without one (made in the page)
   * are left out, so the result may be shorter than `files`, or empty.
   */
  grantFiles(files: readonly File[]): Promise<FileGrant[]>;
  openSession(): Promise<InvokeContract['openSession']['result']>;
  saveSession(...args: InvokeContract['saveSession']['args']): Promise<InvokeContract['saveSession']['result']>;
  autosaveSession(...args: InvokeContract['autosaveSession']['args']): Promise<void>;
  restoreAutosave(): Promise<InvokeContract['restoreAutosave']['result']>;
  saveFile(...args: InvokeContract['saveFile']['args']): Promise<InvokeContract['saveFile']['result']>;
  onEngineCrashed(handler: (reason: EventContract['engineCrashed']) => void): void;
  onMenuCommand(handler: (command: EventContract['menuCommand']) => void): void;
  onOpenFiles(handler: (files: EventContract['openFiles']) => void): void;
}

/** The part of ipcRenderer the preload needs. */
export interface RendererIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): void;
}

/** The part of Electron's webUtils the preload needs (it throws for anything but a File). */
export interface FilePaths {
  getPathForFile(file: File): string;
}

/** The paths of File objects that have one on disk (dropped or chosen, not made in the page). */
export function pathsOfFiles(files: unknown, webUtils: FilePaths): string[] {
  if (!Array.isArray(files) || files.length > MAX_PATHS)
    throw new IpcValidationError(`grantFiles takes a list of at most ${MAX_PATHS} files`);
  return files.flatMap((f: unknown) => {
    if (typeof File === 'undefined' || !(f instanceof File))
      throw new IpcValidationError('grantFiles takes File objects');
    const path = webUtils.getPathForFile(f);
    return path ? [path] : [];
  });
}

/** The page's API over an ipcRenderer-like object: each call on its channel, each event validated. */
export function desktopApi(ipc: RendererIpc, files: FilePaths): DesktopApi {
  const on =
    <T>(channel: string, validate: (v: unknown) => T) =>
    (handler: (payload: T) => void) =>
      ipc.on(channel, (_e, payload) => handler(validate(payload)));
  return {
    isDesktop: true,
    requestEnginePort: () => ipc.send(ENGINE_CHANNELS.connect),
    openFileDialog: () => ipc.invoke(INVOKE_CHANNELS.openDialog) as Promise<FileGrant[] | null>,
    grantFiles: async (list) => {
      const paths = pathsOfFiles(list, files);
      return paths.length === 0 ? [] : ((await ipc.invoke(INVOKE_CHANNELS.grantDropped, paths)) as FileGrant[]);
    },
    openSession: () => ipc.invoke(INVOKE_CHANNELS.openSession) as Promise<OpenedSession | null>,
    saveSession: (name, text) => ipc.invoke(INVOKE_CHANNELS.saveSession, name, text) as Promise<string | null>,
    autosaveSession: async (text) => void (await ipc.invoke(INVOKE_CHANNELS.autosaveSession, text)),
    restoreAutosave: () => ipc.invoke(INVOKE_CHANNELS.restoreAutosave) as Promise<OpenedSession | null>,
    saveFile: (name, data) => ipc.invoke(INVOKE_CHANNELS.saveFile, name, data) as Promise<string | null>,
    onEngineCrashed: on(EVENT_CHANNELS.engineCrashed, (v) => String(v)),
    onMenuCommand: on(EVENT_CHANNELS.menuCommand, validateMenuCommand),
    onOpenFiles: on(EVENT_CHANNELS.openFiles, validateGrants),
  };
}
