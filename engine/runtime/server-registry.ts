import { EngineServer } from './engine-server.ts';
import type { EngineServerOptions } from './engine-state.ts';
import type { StartPool } from './pool.ts';
import type { Port } from './port.ts';

/**
 * One engine server per window: a window that connects again (a page reload) replaces its old
 * server, which is disposed with everything it held, so reloads do not pile up datasets.
 */
export class ServerRegistry {
  private readonly servers = new Map<number, EngineServer>();

  /** `options`: the same for every window, or each window's own (e.g. the files it may read). */
  constructor(
    private readonly pool: (threads?: number) => StartPool,
    private readonly options: EngineServerOptions | ((windowId: number) => EngineServerOptions) = {},
  ) {}

  connect(windowId: number, port: Port): EngineServer {
    this.servers.get(windowId)?.dispose();
    const options = typeof this.options === 'function' ? this.options(windowId) : this.options;
    const server = new EngineServer(port, this.pool, options);
    this.servers.set(windowId, server);
    return server;
  }

  /** A window closed: its server and what it held are disposed. */
  close(windowId: number): void {
    this.servers.get(windowId)?.dispose();
    this.servers.delete(windowId);
  }

  /** Servers alive (one per connected window). */
  get size(): number {
    return this.servers.size;
  }
}
