// The preload's logic without Electron's modules, so tests run it against fakes of Electron's
// documented rules (tests/electron/fake-electron.ts). electron/preload.ts calls it.
import {
  desktopApi,
  ENGINE_CHANNELS,
  ENGINE_PORT_MESSAGE,
  type FilePaths,
  type RendererIpc,
} from '../shared/ipc-contract.ts';

/** The parts of Electron's renderer modules the preload uses. */
export interface PreloadElectron {
  readonly contextBridge: { exposeInMainWorld(apiKey: string, api: unknown): void };
  readonly ipcRenderer: RendererIpc;
  readonly webUtils: FilePaths;
}

/** The window as the isolated world sees it (shared with the page's main world). */
export interface PreloadWindow {
  postMessage(message: unknown, targetOrigin: string, transfer?: readonly unknown[]): void;
}

/**
 * Exposes the contract's API as `window.stratify` and forwards the engine's port to the page:
 * MessagePorts are not among the types the context bridge carries, so the port main sends is
 * posted to the page's window (the page checks the message came from its own window).
 */
export function installPreload(electron: PreloadElectron, win: PreloadWindow): void {
  electron.ipcRenderer.on(ENGINE_CHANNELS.port, (event) => {
    const ports = (event as { ports?: readonly unknown[] }).ports ?? [];
    if (ports.length === 1) win.postMessage({ type: ENGINE_PORT_MESSAGE }, '*', ports);
  });
  electron.contextBridge.exposeInMainWorld('stratify', desktopApi(electron.ipcRenderer, electron.webUtils));
}
