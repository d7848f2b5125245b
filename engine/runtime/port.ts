/**
 * The smallest message channel every transport provides: a Node worker thread, a browser
 * (Web) Worker, an Electron MessagePort, or an in-process pair for single-threaded runs.
 */
export interface Port {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  /** Registers a handler; returns a function that removes it. */
  onMessage(handler: (message: unknown) => void): () => void;
  /** Ends the channel (terminates a worker). */
  close(): void;
}

let channel: MessageChannel | undefined;
const waiting: (() => void)[] = [];

/**
 * Yields to the event loop (a macrotask), so pending messages such as a cancel can arrive.
 * Uses a MessageChannel where there is one (browsers, workers, Node): unlike setTimeout(0) it
 * is not clamped to a millisecond or more.
 */
export function yieldToEventLoop(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
    (channel.port1 as { unref?: () => void }).unref?.();
    (channel.port2 as { unref?: () => void }).unref?.();
  }
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel!.port2.postMessage(0);
  });
}

/** Two connected in-process ports; messages are delivered asynchronously, like a worker's. */
export function inProcessPair(): [Port, Port] {
  const handlers: [Set<(m: unknown) => void>, Set<(m: unknown) => void>] = [new Set(), new Set()];
  let closed = false;
  const make = (self: 0 | 1): Port => ({
    postMessage(message) {
      if (closed) return;
      const other = handlers[self === 0 ? 1 : 0];
      setTimeout(() => {
        for (const h of other) h(message);
      }, 0);
    },
    onMessage(handler) {
      handlers[self].add(handler);
      return () => handlers[self].delete(handler);
    },
    close() {
      closed = true;
    },
  });
  return [make(0), make(1)];
}
