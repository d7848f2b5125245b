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
  /** Messages reach the other end by reference, not by structured clone (an in-process "worker"). */
  readonly sameThread?: boolean;
}

let channel: MessageChannel | undefined;
const waiting: (() => void)[] = [];

/** Node's setImmediate, where the runtime has one (a global, not an import: the engine also runs in browsers). */
const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;

/**
 * Yields to the event loop (a macrotask), so pending messages such as a cancel can arrive.
 * In Node, setImmediate runs after the poll phase that delivers worker messages. A private
 * MessageChannel must not be used there: its message can be handled before the parent port's in
 * every turn, so a cancel waited for the whole start (about a second in the cancel test). In
 * browsers a MessageChannel, which unlike setTimeout(0) is not clamped to a millisecond or more.
 */
export function yieldToEventLoop(): Promise<void> {
  if (immediate) return new Promise((resolve) => immediate(resolve));
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
    sameThread: true,
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
