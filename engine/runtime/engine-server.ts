import { isFormatError, type FormatError } from '../io/format-error.ts';
import type { Port } from './port.ts';
import type { StartPool } from './pool.ts';
import type { EngineApi, EngineProgress, FromEngine, ToEngine } from './engine-protocol.ts';
import { ENGINE_METHODS } from './engine-protocol.ts';
import { engineCall, EngineState, type EngineServerOptions } from './engine-state.ts';
import { dataCalls } from './calls/data-calls.ts';
import { runCalls } from './calls/run-calls.ts';
import { analysisCalls } from './calls/analysis-calls.ts';
import { assignmentCalls } from './calls/assignment-calls.ts';
import { projectionCalls } from './calls/projection-calls.ts';

/**
 * The engine behind the typed client: holds datasets, runs calls, streams progress and honours
 * cancellation. The same code serves a Web Worker, an Electron utility process and tests. The
 * calls themselves live in calls/, one module per concern, over one EngineState.
 */
export class EngineServer {
  private readonly state: EngineState;
  private readonly aborts = new Map<number, AbortController>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly port: Port,
    pool: (threads?: number) => StartPool,
    options: EngineServerOptions = {},
  ) {
    this.state = new EngineState(pool, options);
    this.unsubscribe = port.onMessage((m) => void this.handle(m as ToEngine));
  }

  /** Ends this server: running calls are cancelled, datasets and sweeps freed, the port closed. */
  dispose(): void {
    for (const a of this.aborts.values()) a.abort();
    this.aborts.clear();
    this.state.clear();
    this.unsubscribe();
    this.port.close();
  }

  private send(m: FromEngine): void {
    this.port.postMessage(m);
  }

  /** Every call of the protocol, for request `id`. */
  private api(id: number, signal: AbortSignal): EngineApi {
    const call = engineCall(this.state, (value: EngineProgress) => this.send({ id, op: 'progress', value }), signal);
    const s = this.state;
    return {
      ...dataCalls(s, call),
      ...runCalls(s, call),
      ...analysisCalls(s, call),
      ...assignmentCalls(s, call),
      ...projectionCalls(s, call),
    };
  }

  private async handle(msg: ToEngine): Promise<void> {
    if (msg.op === 'cancel') {
      this.aborts.get(msg.id)?.abort();
      return;
    }
    const controller = new AbortController();
    this.aborts.set(msg.id, controller);
    try {
      if (!ENGINE_METHODS.includes(msg.method)) throw new TypeError(`unknown engine method "${String(msg.method)}"`);
      const api = this.api(msg.id, controller.signal);
      const fn = api[msg.method] as (...a: unknown[]) => Promise<unknown>;
      const value = await fn(...msg.args);
      this.send({ id: msg.id, op: 'ok', value });
    } catch (e) {
      if (isFormatError(e)) {
        const fe = e as FormatError;
        this.send({
          id: msg.id,
          op: 'err',
          name: 'FormatError',
          message: fe.message,
          file: fe.file,
          line: fe.line,
          column: fe.column,
        });
      } else {
        const err = e instanceof Error ? e : new Error(String(e));
        this.send({ id: msg.id, op: 'err', name: err.name, message: err.message });
      }
    } finally {
      this.aborts.delete(msg.id);
    }
  }
}
