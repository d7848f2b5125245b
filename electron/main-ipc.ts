// Main's IPC without Electron's modules: the engine handshake and the invoke contract wired to
// injected dialogs and files, so tests run main's own wiring over fakes of ipcMain and WebContents.
// Main alone decides what the engine may read: the files of its own dialogs, of a drop the preload
// resolved, and those listed by a session the user opened in main's dialog (or main's own
// autosave, which holds only files the window had been granted).
import { basename } from 'node:path';
import type { EngineHost, WindowContents } from './engine-host.ts';
import {
  ENGINE_CHANNELS,
  IpcValidationError,
  sessionPaths,
  registerInvokeHandlers,
  type FileGrant,
  type InvokeHandlers,
  type MainIpc,
  type OpenedSession,
} from '../shared/ipc-contract.ts';

/** ipcMain's parts main uses: invoke handlers and the handshake's one-way message. */
export interface MainIpcWithEvents<E> extends MainIpc<E> {
  on(channel: string, listener: (event: E) => void): unknown;
}

export interface MainIpcDeps<E> {
  readonly ipcMain: MainIpcWithEvents<E>;
  readonly engine: Pick<EngineHost, 'connect' | 'grantFiles' | 'grantExisting' | 'grantedPaths'>;
  /** Calls only from the app's own main frame. */
  trusted(event: E): boolean;
  /** The window that sent an event. */
  contentsOf(event: E): WindowContents;
  /** The system's open dialog: the chosen paths, or null when cancelled. */
  showOpenDialog(): Promise<string[] | null>;
  /** The system's open dialog for a session file: the chosen path, or null when cancelled. */
  showOpenSessionDialog(): Promise<string | null>;
  /** The system's save dialog for a suggested name: the chosen path, or null when cancelled. */
  showSaveDialog(name: string): Promise<string | null>;
  /** Reads a session file the user chose (main's own read: the engine is not involved). */
  readSession(path: string): Promise<string>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** Main's autosave file in its user-data folder: read (null when none) and written. */
  readonly autosave: { read(): Promise<string | null>; write(text: string): Promise<void> };
  /** Adds a path to Open Recent. */
  rememberRecent(path: string): Promise<void>;
}

/** Refuses a session that lists a file the window was not granted (the page cannot widen its grants). */
function checkListedGranted(text: string, granted: ReadonlySet<string>): void {
  const foreign = sessionPaths(text).filter((p) => !granted.has(p));
  if (foreign.length > 0)
    throw new IpcValidationError(
      `the session lists ${foreign.length === 1 ? 'a file' : 'files'} this window did not open: ${foreign.join(', ')}`,
    );
}

/** Registers the engine handshake and every invoke channel of the contract. */
export function registerMainIpc<E>(deps: MainIpcDeps<E>): void {
  const { engine } = deps;
  deps.ipcMain.on(ENGINE_CHANNELS.connect, (e) => {
    if (deps.trusted(e)) engine.connect(deps.contentsOf(e));
  });
  /** The session's listed files granted to the window that asked; the others reported with the reason. */
  const opened = async (e: E, name: string, text: string): Promise<OpenedSession> => {
    const { grants, refused } = await engine.grantExisting(sessionPaths(text), deps.contentsOf(e));
    return { name, text, grants, refused };
  };
  const handlers: InvokeHandlers<E> = {
    openDialog: async (e: E): Promise<FileGrant[] | null> => {
      const paths = await deps.showOpenDialog();
      if (!paths || paths.length === 0) return null;
      const grants = await engine.grantFiles(paths, deps.contentsOf(e));
      await deps.rememberRecent(grants[0]!.path);
      return grants;
    },
    grantDropped: async (e: E, paths: string[]) => engine.grantFiles(paths, deps.contentsOf(e)),
    openSession: async (e: E) => {
      const path = await deps.showOpenSessionDialog();
      if (!path) return null;
      return opened(e, basename(path), await deps.readSession(path));
    },
    saveSession: async (e: E, name: string, text: string) => {
      checkListedGranted(text, engine.grantedPaths(deps.contentsOf(e)));
      const path = await deps.showSaveDialog(name);
      if (!path) return null;
      await deps.writeFile(path, text);
      return path;
    },
    autosaveSession: async (e: E, text: string) => {
      checkListedGranted(text, engine.grantedPaths(deps.contentsOf(e)));
      await deps.autosave.write(text);
    },
    restoreAutosave: async (e: E) => {
      const text = await deps.autosave.read();
      if (text === null) return null;
      try {
        return await opened(e, 'autosave', text);
      } catch {
        return null; // a damaged autosave is no session to restore
      }
    },
    saveFile: async (_e: E, fileName: string, content: string | Uint8Array) => {
      const path = await deps.showSaveDialog(fileName);
      if (!path) return null;
      await deps.writeFile(path, content);
      return path;
    },
  };
  registerInvokeHandlers(deps.ipcMain, handlers, deps.trusted);
}
