import { ENGINE_PORT_MESSAGE, type DesktopApi } from '../../../shared/ipc-contract.ts';

declare global {
  interface Window {
    /** The Electron preload's API (shared/ipc-contract.ts); absent in a browser. */
    stratify?: DesktopApi;
  }
}

/** The page's window as the handshake needs it. */
export interface MessageWindow {
  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (e: MessageEvent) => void): void;
}

/**
 * A MessagePort to the engine utility process. The preload cannot hand a port over the context
 * bridge; it posts it to this window, so the page takes it from its own 'message' event, only
 * from its own window (not a frame's or another origin's message) and only with one port.
 */
export function desktopEnginePort(
  api: Pick<DesktopApi, 'requestEnginePort'>,
  win: MessageWindow,
): Promise<MessagePort> {
  return new Promise((resolve) => {
    const onMessage = (e: MessageEvent) => {
      const data = e.data as { type?: unknown } | null;
      if (e.source !== win || data?.type !== ENGINE_PORT_MESSAGE || e.ports.length !== 1) return;
      win.removeEventListener('message', onMessage);
      resolve(e.ports[0]!);
    };
    win.addEventListener('message', onMessage);
    api.requestEnginePort();
  });
}
