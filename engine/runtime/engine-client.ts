import type { Port } from './port.ts';
import type { EngineApi, EngineMethod, EngineProgress, FromEngine, ToEngine } from './engine-protocol.ts';

/** The error a failed engine call rejects with; a FormatError keeps its file, line and column. */
export class EngineError extends Error {
  constructor(
    override readonly name: string,
    message: string,
    readonly file?: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

/** A call in progress: its result, and a way to cancel it. */
export interface EngineCall<T> {
  readonly result: Promise<T>;
  cancel(): void;
}

type Args<M extends EngineMethod> = Parameters<EngineApi[M]>;
type Result<M extends EngineMethod> = Awaited<ReturnType<EngineApi[M]>>;

/**
 * The one typed client through which a UI (or test) talks to the engine, whatever carries the
 * messages. `call` returns the result and a cancel handle; progress arrives on `onProgress`.
 */
export class EngineClient {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; onProgress?: (p: EngineProgress) => void }
  >();
  private readonly off: () => void;

  constructor(private readonly port: Port) {
    this.off = port.onMessage((raw) => {
      const m = raw as FromEngine;
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.op === 'progress') p.onProgress?.(m.value);
      else {
        this.pending.delete(m.id);
        if (m.op === 'ok') p.resolve(m.value);
        else p.reject(new EngineError(m.name, m.message, m.file, m.line, m.column));
      }
    });
  }

  call<M extends EngineMethod>(
    method: M,
    args: Args<M>,
    onProgress?: (p: EngineProgress) => void,
  ): EngineCall<Result<M>> {
    const id = this.nextId++;
    const result = new Promise<Result<M>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress });
    });
    this.port.postMessage({ id, op: 'call', method, args } satisfies ToEngine);
    return { result, cancel: () => this.port.postMessage({ id, op: 'cancel' } satisfies ToEngine) };
  }

  /** Rejects every pending call (e.g. when the engine process died) and detaches. */
  fail(reason: string): void {
    for (const p of this.pending.values()) p.reject(new EngineError('EngineStopped', reason));
    this.pending.clear();
  }

  dispose(): void {
    this.off();
    this.fail('the engine client was closed');
  }
}
