// Fakes of the Electron seams the desktop shell crosses, each enforcing the rule Electron
// documents for it, so the shell's own code (preload-install.ts, main-ipc.ts, engine-host.ts,
// engine-host-serve.ts and the page's handshake) runs end to end in Node:
// - contextBridge (docs/api/context-bridge.md, "Parameter / Error / Return Type support"): values
//   are copied and frozen, functions proxied, promises proxied only as an exact parameter or return
//   value, symbols dropped, other cloneable types structured-cloned *without* transfer, so a
//   MessagePort (or any transferable) fails to cross, as it does in Electron;
// - IPC (docs/api/ipc-renderer.md): arguments and results structured-cloned, so functions,
//   promises and ports cannot be sent; ports travel only through webContents.postMessage's transfer;
// - window.postMessage: the message cloned with its transfer list, delivered as a later task with
//   `source` set to the posting window;
// - MessageChannelMain / MessagePortMain ('message' events carry { data, ports }) over Node's
//   MessageChannel; utilityProcess.fork with a parentPort, its logic run in this thread.

type Listener = (...args: unknown[]) => void;

/** Every Node port the fakes made or delivered: started ports keep Node alive until closed. */
const ports = new Set<MessagePort>();
const track = <T extends MessagePort>(p: T): T => {
  ports.add(p);
  return p;
};

/** Closes every port the fakes made (a test file's `after`), so its process can end. */
export function closeAllPorts(): void {
  for (const p of ports) p.close();
  ports.clear();
}

/** The error a bridged function throws in the other world: message copied, the rest dropped. */
function copiedError(e: unknown): Error {
  return new Error(e instanceof Error ? e.message : String(e));
}

/**
 * A value as the other world receives it over the context bridge. `exact`: the value is itself a
 * parameter or return value (the only place a promise survives).
 */
export function acrossBridge(value: unknown, exact = true): unknown {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return value;
    case 'symbol':
      return undefined;
    case 'function': {
      const fn = value as (...a: unknown[]) => unknown;
      return (...args: unknown[]) => {
        let result: unknown;
        try {
          result = fn(...args.map((a) => acrossBridge(a)));
        } catch (e) {
          throw copiedError(e);
        }
        return acrossBridge(result);
      };
    }
  }
  if (value === null) return null;
  if (value instanceof Promise) {
    if (!exact) return undefined;
    return value.then(
      (v) => acrossBridge(v),
      (e) => {
        throw copiedError(e);
      },
    );
  }
  if (value instanceof Error) return copiedError(value);
  // A File crosses as the same file (Electron keeps its backing file, which webUtils.getPathForFile reads).
  if (typeof File !== 'undefined' && value instanceof File) return value;
  if (Array.isArray(value)) return Object.freeze(value.map((v) => acrossBridge(v, false)));
  if (Object.prototype.toString.call(value) === '[object Object]') {
    // Plain objects and custom classes: own keys copied, the prototype dropped.
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = acrossBridge(v, false);
    return Object.freeze(out);
  }
  // Cloneable types (typed arrays, Blob and File, Date, Map, …): structured-cloned without transfer;
  // a MessagePort throws DataCloneError here, as nothing carries it across the bridge.
  return structuredClone(value);
}

/** Electron's contextBridge over two worlds; `mainWorld` is what the page's `window` holds. */
export function fakeContextBridge() {
  const mainWorld: Record<string, unknown> = {};
  return {
    mainWorld,
    contextBridge: {
      exposeInMainWorld(apiKey: string, api: unknown) {
        if (apiKey in mainWorld) throw new Error(`Cannot bind an API on top of an existing property: ${apiKey}`);
        mainWorld[apiKey] = acrossBridge(api);
      },
    },
  };
}

/** A later task (as postMessage and IPC deliver). */
/** Deliveries queued by the fakes and not yet run. */
let queued = 0;
/** Electron delivers IPC and window messages asynchronously; the fakes queue each as a macrotask. */
const later = (f: () => void) => {
  queued++;
  setImmediate(() => {
    queued--;
    f();
  });
};

/** Resolves once every delivery the fakes queued (and any it queued in turn) has run, with the
 * promise callbacks it started: the condition a test waits for before asserting that nothing came. */
export async function deliveriesDone(): Promise<void> {
  do await new Promise((r) => setImmediate(r));
  while (queued > 0);
}

/** Clones a message with its transfer list, as postMessage does: the receiver gets new ports. */
function transferred(message: unknown, transfer: readonly unknown[]): { data: unknown; ports: MessagePort[] } {
  const nodePorts = transfer.map((p) => (p instanceof FakeMessagePortMain ? p.port : p)) as MessagePort[];
  const out = structuredClone({ data: message, ports: nodePorts }, { transfer: nodePorts as Transferable[] }) as {
    data: unknown;
    ports: MessagePort[];
  };
  out.ports.forEach(track);
  return out;
}

/** The page's window (one DOM window, seen by the preload's isolated world and the main world). */
export class FakeWindow {
  private readonly listeners = new Set<(e: MessageEvent) => void>();
  readonly origin = 'app://stratify';
  /** Every message event delivered, for tests that count what the page received. */
  readonly delivered: { data: unknown; ports: readonly MessagePort[] }[] = [];

  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void {
    if (type === 'message') this.listeners.add(listener);
  }

  removeEventListener(type: 'message', listener: (e: MessageEvent) => void): void {
    if (type === 'message') this.listeners.delete(listener);
  }

  postMessage(message: unknown, targetOrigin: string, transfer: readonly unknown[] = []): void {
    this.dispatch(message, targetOrigin, transfer, this);
  }

  /** A message from another window or frame (`source`), e.g. a hostile iframe's. */
  dispatch(message: unknown, targetOrigin: string, transfer: readonly unknown[], source: unknown): void {
    if (targetOrigin !== '*' && targetOrigin !== this.origin) return;
    const { data, ports } = transferred(message, transfer);
    later(() => {
      this.delivered.push({ data, ports });
      const event = { data, ports, source, origin: this.origin } as unknown as MessageEvent;
      for (const l of [...this.listeners]) l(event);
    });
  }
}

/** Electron's MessagePortMain over a Node MessagePort. */
export class FakeMessagePortMain {
  private readonly wrapped = new Map<Listener, (e: Event) => void>();
  constructor(readonly port: MessagePort) {}

  on(event: 'message', handler: (e: { data: unknown; ports: MessagePort[] }) => void): this {
    const l = (e: Event) => {
      const m = e as MessageEvent;
      handler({ data: m.data, ports: [...m.ports] });
    };
    this.wrapped.set(handler as Listener, l);
    this.port.addEventListener(event, l);
    return this;
  }

  off(event: 'message', handler: (e: { data: unknown; ports: MessagePort[] }) => void): this {
    const l = this.wrapped.get(handler as Listener);
    if (l) this.port.removeEventListener(event, l);
    return this;
  }

  postMessage(message: unknown, transfer: readonly FakeMessagePortMain[] = []): void {
    this.port.postMessage(
      message,
      transfer.map((p) => p.port),
    );
  }

  start(): void {
    this.port.start();
  }

  close(): void {
    this.port.close();
  }
}

export function fakeMessageChannelMain(): { port1: FakeMessagePortMain; port2: FakeMessagePortMain } {
  const { port1, port2 } = new MessageChannel();
  return { port1: new FakeMessagePortMain(track(port1)), port2: new FakeMessagePortMain(track(port2)) };
}

/** The main frame of the one window, and events as ipcMain delivers them. */
export interface FakeIpcEvent {
  readonly sender: FakeWebContents;
  readonly senderFrame: { readonly url: string };
}

/**
 * Electron's webUtils in the preload (docs/api/web-utils.md): getPathForFile throws for anything
 * but a File and returns '' for a File made in JavaScript; only files the user dropped or chose
 * (`drop`) have a path.
 */
export function fakeWebUtils() {
  const onDisk = new WeakMap<File, string>();
  return {
    /** A File as a drop or a file input gives it to the page: backed by `path` on disk. */
    drop(path: string): File {
      const f = new File([], path.split(/[\\/]/).pop()!);
      onDisk.set(f, path);
      return f;
    },
    webUtils: {
      getPathForFile(file: File): string {
        if (!(file instanceof File)) throw new TypeError('Error processing argument at index 0, conversion failure');
        return onDisk.get(file) ?? '';
      },
    },
  };
}

/** A window's WebContents: send() and postMessage() reach the renderer's ipcRenderer listeners. */
export class FakeWebContents {
  readonly mainFrame: { url: string };
  destroyed = false;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  private readonly onDestroyed: (() => void)[] = [];
  constructor(
    url: string,
    private readonly renderer: Map<string, Set<Listener>>,
    readonly id = 1,
  ) {
    this.mainFrame = { url };
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  once(event: 'destroyed', listener: () => void): this {
    if (event === 'destroyed') this.onDestroyed.push(listener);
    return this;
  }

  /** The window closes: 'destroyed' is emitted once. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const l of this.onDestroyed.splice(0)) l();
  }

  send(channel: string, ...args: unknown[]): void {
    const cloned = structuredClone(args);
    this.sent.push({ channel, args: cloned });
    later(() => {
      for (const l of this.renderer.get(channel) ?? []) l({ ports: [] }, ...cloned);
    });
  }

  postMessage(channel: string, message: unknown, transfer: readonly unknown[] = []): void {
    const { data, ports } = transferred(message, transfer);
    later(() => {
      for (const l of this.renderer.get(channel) ?? []) l({ ports }, data);
    });
  }
}

/** ipcMain and ipcRenderer of one window, with Electron's cloning of arguments and results. */
export function fakeIpc(pageUrl = 'app://stratify/index.html', windowId = 1) {
  const mainListeners = new Map<string, Set<Listener>>();
  const handlers = new Map<string, (event: FakeIpcEvent, ...args: unknown[]) => Promise<unknown>>();
  const rendererListeners = new Map<string, Set<Listener>>();
  const webContents = new FakeWebContents(pageUrl, rendererListeners, windowId);
  let frameUrl = pageUrl;
  const event = (): FakeIpcEvent => ({ sender: webContents, senderFrame: { url: frameUrl } });
  const add = (m: Map<string, Set<Listener>>, channel: string, l: Listener) => {
    if (!m.has(channel)) m.set(channel, new Set());
    m.get(channel)!.add(l);
  };
  return {
    webContents,
    /** Makes the next calls come from another page (e.g. remote content that was navigated to). */
    setFrameUrl(url: string) {
      frameUrl = url;
      webContents.mainFrame.url = url;
    },
    ipcMain: {
      on(channel: string, listener: (event: FakeIpcEvent) => void) {
        add(mainListeners, channel, listener as Listener);
      },
      handle(channel: string, handler: (event: FakeIpcEvent, ...args: unknown[]) => Promise<unknown>) {
        if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        handlers.set(channel, handler);
      },
    },
    ipcRenderer: {
      send(channel: string, ...args: unknown[]) {
        const cloned = structuredClone(args);
        const e = event();
        later(() => {
          for (const l of mainListeners.get(channel) ?? []) l(e, ...cloned);
        });
      },
      async invoke(channel: string, ...args: unknown[]) {
        const cloned = structuredClone(args);
        const handler = handlers.get(channel);
        if (!handler) throw new Error(`Error invoking remote method '${channel}': No handler registered`);
        try {
          return structuredClone(await handler(event(), ...cloned));
        } catch (e) {
          throw new Error(`Error invoking remote method '${channel}': ${String(e)}`);
        }
      },
      on(channel: string, listener: (event: unknown, payload: unknown) => void) {
        add(rendererListeners, channel, listener as Listener);
      },
    },
  };
}

/** The utility process's side: Electron's process.parentPort. */
export interface FakeParentPort {
  on(event: 'message', handler: (e: { data: unknown; ports: FakeMessagePortMain[] }) => void): unknown;
  postMessage(message: unknown): void;
}

/**
 * utilityProcess.fork: `run` is the process's logic (its entry's code, given the parentPort);
 * messages both ways are cloned and delivered as later tasks; kill() ends it with an exit event.
 */
export function fakeUtilityProcess(run: (modulePath: string, parentPort: FakeParentPort) => void) {
  const forked: string[] = [];
  const children: { kill(): boolean }[] = [];
  const fork = (modulePath: string) => {
    forked.push(modulePath);
    const toMain = new Map<string, Set<Listener>>();
    const toChild = new Set<(e: { data: unknown; ports: FakeMessagePortMain[] }) => void>();
    let alive = true;
    const parentPort: FakeParentPort = {
      on: (_event, handler) => toChild.add(handler),
      postMessage: (message) => {
        if (!alive) return;
        const data = structuredClone(message);
        later(() => {
          for (const l of toMain.get('message') ?? []) l(data);
        });
      },
    };
    const child = {
      postMessage(message: unknown, transfer: readonly unknown[] = []) {
        if (!alive) throw new Error('the utility process has exited');
        const { data, ports } = transferred(message, transfer);
        later(() => {
          if (alive) for (const l of toChild) l({ data, ports: ports.map((p) => new FakeMessagePortMain(p)) });
        });
      },
      on(event: string, listener: (value: never) => void) {
        if (!toMain.has(event)) toMain.set(event, new Set());
        toMain.get(event)!.add(listener as Listener);
        return child;
      },
      kill() {
        if (!alive) return false;
        alive = false;
        later(() => {
          for (const l of toMain.get('exit') ?? []) l(137);
        });
        return true;
      },
    };
    children.push(child);
    run(modulePath, parentPort);
    return child;
  };
  return { fork, forked, children };
}
