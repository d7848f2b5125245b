import { inProcessPair, type Port } from './port.ts';
import { serveStarts } from './start-server.ts';

/** A start "worker" running in this thread (tests, single-threaded runs, fallbacks). */
export function spawnInProcess(): Port {
  const [client, server] = inProcessPair();
  serveStarts(server);
  return client;
}
