import type { Port } from '../../../engine/runtime/port.ts';

/** A Port over a Worker (seen from the page). */
export function workerPort(w: Worker): Port {
  return {
    postMessage: (m, transfer) => w.postMessage(m, transfer ?? []),
    onMessage: (h) => {
      const l = (e: MessageEvent) => h(e.data);
      w.addEventListener('message', l);
      return () => w.removeEventListener('message', l);
    },
    close: () => w.terminate(),
  };
}

/** A Port over a worker's own scope (seen from inside the worker). */
export function workerScopePort(scope: DedicatedWorkerGlobalScope): Port {
  return {
    postMessage: (m, transfer) => scope.postMessage(m, transfer ?? []),
    onMessage: (h) => {
      const l = (e: MessageEvent) => h(e.data);
      scope.addEventListener('message', l);
      return () => scope.removeEventListener('message', l);
    },
    close: () => scope.close(),
  };
}

/** A Port over a MessagePort (Electron: renderer ↔ utility process). */
export function messagePortPort(p: MessagePort): Port {
  p.start();
  return {
    postMessage: (m, transfer) => p.postMessage(m, transfer ?? []),
    onMessage: (h) => {
      const l = (e: MessageEvent) => h(e.data);
      p.addEventListener('message', l);
      return () => p.removeEventListener('message', l);
    },
    close: () => p.close(),
  };
}
