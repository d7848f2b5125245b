/**
 * The IPC contract between main, preload and renderer: every channel with its request and
 * response types, the validation main applies before a handler runs, and the builders of both
 * ends (pure functions over ipcMain/ipcRenderer-like objects, so they are tested without
 * Electron). The renderer imports the types from here; main and preload import the builders.
 */
import type { FileBytes } from '../engine/runtime/engine-protocol.ts';

export type { FileBytes };

/** The engine's MessagePort handshake (outside the invoke/event contract: it carries a port). */
export const ENGINE_CHANNELS = {
  connect: 'stratify:engine-connect',
  port: 'stratify:engine-port',
} as const;

/** Renderer → main calls (ipcRenderer.invoke → ipcMain.handle): arguments and result. */
export interface InvokeContract {
  /** The system's open dialog; the chosen files' bytes, or null when cancelled. */
  openDialog: { args: []; result: FileBytes[] | null };
  /** The system's save dialog for a suggested name; the path written, or null when cancelled. */
  saveFile: { args: [name: string, data: string | Uint8Array]; result: string | null };
}

/** Main → renderer events (webContents.send → ipcRenderer.on): the payload. */
export interface EventContract {
  /** The engine process stopped (it restarts); the reason. */
  engineCrashed: string;
  /** A menu item was chosen. */
  menuCommand: MenuCommand;
  /** Files to open: Open Recent, a double-clicked associated file, or a path on the command line. */
  openFiles: FileBytes[];
}

export const INVOKE_CHANNELS: { readonly [K in keyof InvokeContract]: string } = {
  openDialog: 'stratify:open-dialog',
  saveFile: 'stratify:save-file',
};

export const EVENT_CHANNELS: { readonly [K in keyof EventContract]: string } = {
  engineCrashed: 'stratify:engine-crashed',
  menuCommand: 'stratify:menu-command',
  openFiles: 'stratify:open-files',
};

/** What the application menu can ask the page to do. */
export const MENU_COMMANDS = ['open', 'save-project', 'open-project', 'export-plot', 'run', 'cancel'] as const;
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

/** Files sent to the page: a non-empty list of { name, bytes }. */
export function validateFiles(v: unknown): FileBytes[] {
  if (!Array.isArray(v) || v.length === 0) throw new IpcValidationError('files must be a non-empty list');
  return v.map((f: unknown) => {
    const x = f as { name?: unknown; bytes?: unknown } | null;
    if (!x || typeof x.name !== 'string' || !(x.bytes instanceof Uint8Array))
      throw new IpcValidationError('each file must have a name and bytes');
    return { name: x.name, bytes: x.bytes };
  });
}

/** Checks an invoke call's arguments against its contract; throws IpcValidationError otherwise. */
export const VALIDATE_ARGS: { readonly [K in keyof InvokeContract]: (args: unknown[]) => InvokeContract[K]['args'] } = {
  openDialog: (args) => {
    if (args.length !== 0) throw new IpcValidationError('openDialog takes no arguments');
    return [];
  },
  saveFile: (args) => {
    if (args.length !== 2) throw new IpcValidationError('saveFile takes a file name and its content');
    return [validateFileName(args[0]), validateFileData(args[1])];
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

/** Implementations of the invoke channels (arguments already validated). */
export type InvokeHandlers = {
  readonly [K in keyof InvokeContract]: (...args: InvokeContract[K]['args']) => Promise<InvokeContract[K]['result']>;
};

/**
 * Registers a handler for every invoke channel: a call from an untrusted frame or with arguments
 * that break the contract is refused before the implementation runs.
 */
export function registerInvokeHandlers<E>(ipc: MainIpc<E>, impl: InvokeHandlers, trusted: (event: E) => boolean): void {
  for (const key of Object.keys(INVOKE_CHANNELS) as (keyof InvokeContract)[]) {
    ipc.handle(INVOKE_CHANNELS[key], async (event, ...args) => {
      if (!trusted(event)) throw new IpcValidationError('IPC from an untrusted frame was refused');
      const valid = VALIDATE_ARGS[key](args);
      return (impl[key] as (...a: unknown[]) => Promise<unknown>)(...valid);
    });
  }
}

/** What the preload exposes to the page as `window.stratify`. */
export interface DesktopApi {
  readonly isDesktop: true;
  /** Resolves with a MessagePort connected to the engine utility process. */
  connectEngine(): Promise<MessagePort>;
  openFileDialog(): Promise<InvokeContract['openDialog']['result']>;
  saveFile(...args: InvokeContract['saveFile']['args']): Promise<InvokeContract['saveFile']['result']>;
  onEngineCrashed(handler: (reason: EventContract['engineCrashed']) => void): void;
  onMenuCommand(handler: (command: EventContract['menuCommand']) => void): void;
  onOpenFiles(handler: (files: EventContract['openFiles']) => void): void;
}

/** The part of ipcRenderer the preload needs. */
export interface RendererIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): void;
}

/** The page's API over an ipcRenderer-like object: each call on its channel, each event validated. */
export function desktopApi(ipc: RendererIpc, connectEngine: () => Promise<MessagePort>): DesktopApi {
  const on =
    <T>(channel: string, validate: (v: unknown) => T) =>
    (handler: (payload: T) => void) =>
      ipc.on(channel, (_e, payload) => handler(validate(payload)));
  return {
    isDesktop: true,
    connectEngine,
    openFileDialog: () => ipc.invoke(INVOKE_CHANNELS.openDialog) as Promise<FileBytes[] | null>,
    saveFile: (name, data) => ipc.invoke(INVOKE_CHANNELS.saveFile, name, data) as Promise<string | null>,
    onEngineCrashed: on(EVENT_CHANNELS.engineCrashed, (v) => String(v)),
    onMenuCommand: on(EVENT_CHANNELS.menuCommand, validateMenuCommand),
    onOpenFiles: on(EVENT_CHANNELS.openFiles, validateFiles),
  };
}
