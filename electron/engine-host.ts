import { utilityProcess, MessageChannelMain, type UtilityProcess, type WebContents } from 'electron';
import { join } from 'node:path';
import { ENGINE_CHANNELS, EVENT_CHANNELS } from './ipc-schema.ts';

/**
 * The engine's utility process: started on demand, connected to a window by a MessagePort, and
 * restarted (with the window told) if it dies.
 */
export class EngineHost {
  private child: UtilityProcess | undefined;
  private stopping = false;

  constructor(private readonly dir: string) {}

  private ensure(onCrash: (reason: string) => void): UtilityProcess {
    if (this.child) return this.child;
    const child = utilityProcess.fork(join(this.dir, 'engine-host-entry.mjs'), [], {
      serviceName: 'Stratify engine',
      stdio: 'inherit',
    });
    child.on('exit', (code) => {
      if (this.child === child) this.child = undefined;
      if (!this.stopping) onCrash(`the engine process exited with code ${code}`);
    });
    this.child = child;
    return child;
  }

  /** Gives `contents` a fresh port to the engine. */
  connect(contents: WebContents): void {
    const child = this.ensure((reason) => {
      if (!contents.isDestroyed()) contents.send(EVENT_CHANNELS.engineCrashed, reason);
    });
    const { port1, port2 } = new MessageChannelMain();
    child.postMessage({ type: 'connect', window: contents.id }, [port1]);
    contents.postMessage(ENGINE_CHANNELS.port, null, [port2]);
  }

  dispose(): void {
    this.stopping = true;
    this.child?.kill();
    this.child = undefined;
  }
}
