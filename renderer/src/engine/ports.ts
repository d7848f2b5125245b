import type { Port } from '../../../engine/runtime/port.ts';

interface MessageSource {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (e: MessageEvent) => void): void;
}

/** A Port over anything that posts and dispatches 'message' events. */
function eventPort(target: MessageSource, close: () => void): Port {
  return {
    postMessage: (m, transfer) => target.postMessage(m, transfer ?? []),
    onMessage: (h) => {
      const l = (e: MessageEvent) => h(e.data);
      target.addEventListener('message', l);
      return () => target.removeEventListener('message', l);
    },
    close,
  };
}

/** A Port over a Worker (seen from the page). */
export function workerPort(w: Worker): Port {
  return eventPort(w, () => w.terminate());
}

/** A Port over a worker's own scope (seen from inside the worker). */
export function workerScopePort(scope: MessageSource & { close(): void }): Port {
  return eventPort(scope, () => scope.close());
}

/** A Port over a MessagePort (Electron: renderer ↔ utility process). */
export function messagePortPort(p: MessagePort): Port {
  p.start();
  return eventPort(p, () => p.close());
}
