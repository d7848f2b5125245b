import { randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import { mainFileFirst, type FileGrant } from '../engine/runtime/engine-protocol.ts';
import { unpackedPath, type FromEngineHost, type ToEngineHost } from './engine-host-protocol.ts';
import { ENGINE_CHANNELS, EVENT_CHANNELS, type RefusedFile } from '../shared/ipc-contract.ts';

/** The parts of Electron's UtilityProcess the host uses. */
export interface UtilityProcessLike {
  postMessage(message: ToEngineHost, transfer?: unknown[]): void;
  on(event: 'message', listener: (message: FromEngineHost) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

/** The parts of a window's WebContents the host uses. */
export interface WindowContents {
  readonly id: number;
  isDestroyed(): boolean;
  /** Electron's 'destroyed' event: the window's grants end with it. */
  once(event: 'destroyed', listener: () => void): unknown;
  send(channel: string, ...args: unknown[]): void;
  postMessage(channel: string, message: unknown, transfer?: unknown[]): void;
}

/** Electron's utilityProcess.fork and MessageChannelMain (faked in tests). */
export interface EngineHostElectron {
  fork(modulePath: string): UtilityProcessLike;
  channel(): { port1: unknown; port2: unknown };
}

/**
 * The engine's utility process, seen from main: started on demand, connected to each window by
 * a MessagePort, told which files each window's server may read (grants, which end with the
 * window), and restarted if it dies, with the windows told and the grants given again.
 */
export class EngineHost {
  private child: UtilityProcessLike | undefined;
  private stopping = false;
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: FromEngineHost) => void>();
  /** Per window id: grant token → path. */
  private readonly grants = new Map<number, Map<string, string>>();
  private readonly windows = new Map<number, WindowContents>();

  constructor(
    private readonly electron: EngineHostElectron,
    private readonly dir: string,
  ) {}

  /** The script the utility process runs (unpacked from the asar in a packaged app). */
  get entry(): string {
    return unpackedPath(join(this.dir, 'engine-host-entry.mjs'));
  }

  private ensure(): UtilityProcessLike {
    if (this.child) return this.child;
    const child = this.electron.fork(this.entry);
    child.on('message', (reply) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
    child.on('exit', (code) => {
      if (this.child !== child) return;
      this.child = undefined;
      for (const w of this.waiting.values()) w({ type: 'refused', id: 0, message: 'the engine process stopped' });
      this.waiting.clear();
      if (this.stopping) return;
      for (const contents of this.windows.values())
        if (!contents.isDestroyed())
          contents.send(EVENT_CHANNELS.engineCrashed, `the engine process exited with code ${code}`);
    });
    this.child = child;
    // A restarted engine may read what the windows had opened.
    for (const [window, grants] of this.grants)
      for (const [grant, path] of grants) child.postMessage({ type: 'grant', id: 0, window, grant, path });
    return child;
  }

  /** Tracks a window once: when it is destroyed its grants end, here and in the engine. */
  private track(contents: WindowContents): void {
    if (this.windows.has(contents.id)) return;
    this.windows.set(contents.id, contents);
    contents.once('destroyed', () => {
      this.windows.delete(contents.id);
      this.grants.delete(contents.id);
      this.child?.postMessage({ type: 'revoke', window: contents.id });
    });
  }

  /** Gives `contents` a fresh port to the engine. */
  connect(contents: WindowContents): void {
    const child = this.ensure();
    this.track(contents);
    const { port1, port2 } = this.electron.channel();
    child.postMessage({ type: 'connect', window: contents.id }, [port1]);
    contents.postMessage(ENGINE_CHANNELS.port, null, [port2]);
  }

  /**
   * Lets window `contents`'s engine server read one file where it lives; the grant the page hands
   * the engine. Called only for files the user chose (main's dialogs, a drop, Open Recent, a session).
   */
  async grant(path: string, contents: WindowContents): Promise<FileGrant> {
    const r = await this.tryGrant(path, contents);
    if ('refused' in r) throw new Error(`${path}: ${r.refused}`);
    return r;
  }

  /** grant, with a refusal ("no such file", "not a file", the window has closed…) as a value. */
  private async tryGrant(path: string, contents: WindowContents): Promise<FileGrant | { refused: string }> {
    if (contents.isDestroyed()) return { refused: 'the window has closed' };
    this.track(contents);
    const child = this.ensure();
    const id = this.nextId++;
    const grant = randomUUID();
    const reply = new Promise<FromEngineHost>((resolve) => this.waiting.set(id, resolve));
    child.postMessage({ type: 'grant', id, window: contents.id, grant, path });
    const r = await reply;
    if (r.type === 'refused') return { refused: r.message };
    if (!this.grants.has(contents.id)) this.grants.set(contents.id, new Map());
    this.grants.get(contents.id)!.set(grant, path);
    return { name: basename(path), path, size: r.size, grant };
  }

  /** Grants a dataset's files to a window, the main file first (PLINK companions after it). */
  async grantFiles(paths: readonly string[], contents: WindowContents): Promise<FileGrant[]> {
    const out: FileGrant[] = [];
    for (const p of mainFileFirst(paths, (path) => path)) out.push(await this.grant(p, contents));
    return out;
  }

  /** Grants each path that is an existing regular file (in order); the others are refused with the reason. */
  async grantExisting(
    paths: readonly string[],
    contents: WindowContents,
  ): Promise<{ grants: FileGrant[]; refused: RefusedFile[] }> {
    const grants: FileGrant[] = [];
    const refused: RefusedFile[] = [];
    for (const path of paths) {
      const r = await this.tryGrant(path, contents);
      if ('refused' in r) refused.push({ path, reason: r.refused });
      else grants.push(r);
    }
    return { grants, refused };
  }

  /** The paths a window was granted (and may therefore list in a session it saves). */
  grantedPaths(contents: WindowContents): ReadonlySet<string> {
    return new Set(this.grants.get(contents.id)?.values() ?? []);
  }

  dispose(): void {
    this.stopping = true;
    this.child?.kill();
    this.child = undefined;
  }
}
