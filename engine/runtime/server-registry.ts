import { EngineServer, type EngineServerOptions } from './engine-server.ts';
import type { StartPool } from './pool.ts';
import type { Port } from './port.ts';

/**
 * One engine server per window: a window that connects again (a page reload) replaces its old
 * server, which is disposed with everything it held, so reloads do not pile up datasets.
 */
export class ServerRegistry {
  private readonly servers = new Map<number, EngineServer>();

  constructor(
    private readonly pool: (threads?: number) => StartPool,
    private readonly options: EngineServerOptions = {},
  ) {}

  connect(windowId: number, port: Port): EngineServer {
    this.servers.get(windowId)?.dispose();
    const server = new EngineServer(port, this.pool, this.options);
    this.servers.set(windowId, server);
    return server;
  }

  /** Servers alive (one per connected window). */
  get size(): number {
    return this.servers.size;
  }
}
