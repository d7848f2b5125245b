// The engine utility process's logic without Electron: every window port gets an EngineServer,
// clustering starts run on worker threads, and files are read from disk where main granted them.
import { statSync } from 'node:fs';
import { datasetFiles } from '../engine/node/file-source.ts';
import type { StartPool } from '../engine/runtime/pool.ts';
import { ServerRegistry } from '../engine/runtime/server-registry.ts';
import type { FileGrant } from '../engine/runtime/engine-protocol.ts';
import type { FromEngineHost, ToEngineHost } from './engine-host-protocol.ts';

/** Electron's MessagePortMain as the utility process receives it. */
export interface MessagePortMainLike {
  on(event: 'message', handler: (e: { data: unknown }) => void): unknown;
  off(event: 'message', handler: (e: { data: unknown }) => void): unknown;
  postMessage(message: unknown, transfer?: unknown[]): void;
  start(): void;
  close(): void;
}

/** Electron's process.parentPort in a utility process. */
export interface ParentPortLike {
  on(event: 'message', handler: (e: { data: unknown; ports: MessagePortMainLike[] }) => void): unknown;
  postMessage(message: FromEngineHost): void;
}

/** How the host touches the disk (injected by tests that count what is opened). */
export interface HostFiles {
  stat(path: string): { isFile(): boolean; size: number };
  /** A dataset's files: the path and its PLINK companions beside it. */
  dataset(path: string): ReturnType<typeof datasetFiles>;
}

const DISK: HostFiles = { stat: statSync, dataset: datasetFiles };

/**
 * Serves windows' engine requests arriving on `parentPort`; returns the servers' registry. A
 * window's server reads only the paths main granted to that window, by the grant's token (the
 * path a page writes into a FileGrant is never read).
 */
export function serveEngineHost(
  parentPort: ParentPortLike,
  pool: (threads?: number) => StartPool,
  cores?: number,
  files: HostFiles = DISK,
): ServerRegistry {
  const grants = new Map<number, Map<string, string>>();
  const grantedTo = (window: number) => (f: FileGrant) => {
    const path = typeof f?.grant === 'string' ? grants.get(window)?.get(f.grant) : undefined;
    if (path === undefined)
      throw new RangeError(`${String(f?.name)}: the app did not open this file in this window; open it again`);
    return files.dataset(path);
  };
  const servers = new ServerRegistry(pool, (window) => ({ granted: grantedTo(window), ...(cores ? { cores } : {}) }));
  parentPort.on('message', (e) => {
    const m = e.data as ToEngineHost;
    if (m?.type === 'revoke') {
      grants.delete(m.window);
      servers.close(m.window);
      return;
    }
    if (m?.type === 'grant') {
      let reply: FromEngineHost;
      try {
        const st = files.stat(m.path);
        if (!st.isFile()) throw new Error('not a file');
        if (!grants.has(m.window)) grants.set(m.window, new Map());
        grants.get(m.window)!.set(m.grant, m.path);
        reply = { type: 'granted', id: m.id, size: st.size };
      } catch (err) {
        const message = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
        reply = { type: 'refused', id: m.id, message };
      }
      parentPort.postMessage(reply);
      return;
    }
    const port = e.ports[0];
    if (m?.type !== 'connect' || !port) return;
    port.start();
    // A window that connects again (a reload) replaces its old server and what it held.
    servers.connect(typeof m.window === 'number' ? m.window : -1, {
      postMessage: (msg) => port.postMessage(msg),
      onMessage: (h) => {
        const l = (ev: { data: unknown }) => h(ev.data);
        port.on('message', l);
        return () => port.off('message', l);
      },
      close: () => port.close(),
    });
  });
  return servers;
}
