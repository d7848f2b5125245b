// Main's IPC without Electron's modules: the engine handshake and the invoke contract wired to
// injected dialogs, so tests run main's own wiring over fakes of ipcMain and WebContents.
import type { EngineHost, WindowContents } from './engine-host.ts';
import { ENGINE_CHANNELS, registerInvokeHandlers, type MainIpc } from '../shared/ipc-contract.ts';

/** ipcMain's parts main uses: invoke handlers and the handshake's one-way message. */
export interface MainIpcWithEvents<E> extends MainIpc<E> {
  on(channel: string, listener: (event: E) => void): unknown;
}

export interface MainIpcDeps<E> {
  readonly ipcMain: MainIpcWithEvents<E>;
  readonly engine: Pick<EngineHost, 'connect' | 'grantFiles'>;
  /** Calls only from the app's own main frame. */
  trusted(event: E): boolean;
  /** The window that sent an event. */
  contentsOf(event: E): WindowContents;
  /** The system's open dialog: the chosen paths, or null when cancelled. */
  showOpenDialog(): Promise<string[] | null>;
  /** The system's save dialog for a suggested name: the chosen path, or null when cancelled. */
  showSaveDialog(name: string): Promise<string | null>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** Adds a path to Open Recent. */
  rememberRecent(path: string): Promise<void>;
}

/** Registers the engine handshake and every invoke channel of the contract. */
export function registerMainIpc<E>(deps: MainIpcDeps<E>): void {
  deps.ipcMain.on(ENGINE_CHANNELS.connect, (e) => {
    if (deps.trusted(e)) deps.engine.connect(deps.contentsOf(e));
  });
  registerInvokeHandlers(
    deps.ipcMain,
    {
      openDialog: async () => {
        const paths = await deps.showOpenDialog();
        if (!paths || paths.length === 0) return null;
        const grants = await deps.engine.grantFiles(paths);
        await deps.rememberRecent(grants[0]!.path);
        return grants;
      },
      grantPaths: async (paths) => deps.engine.grantFiles(paths),
      saveFile: async (fileName, content) => {
        const path = await deps.showSaveDialog(fileName);
        if (!path) return null;
        await deps.writeFile(path, content);
        return path;
      },
    },
    deps.trusted,
  );
}
