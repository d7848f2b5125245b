// Two threads sharing one WebAssembly pass: the thread that runs a fit (a start worker) and a helper
// thread that runs the same module's kernels on the same shared memory, on its half of a pass
// (half the individuals or half the loci, whose results the two halves write to different places).
// The helper waits on a control block in the memory (Atomics.wait) and is told what to run there;
// no message crosses while a pass runs. Each half computes exactly what it computes alone, so
// results do not depend on whether the helper runs (or is ready yet): the fit's thread then runs
// both halves itself, one after the other.
//
// Creating the helper thread is the platform's: engine/node/kernel-helper.ts registers a spawner
// (worker_threads) in the start workers; without one, passes run on one thread.

/** Int32 words of the control block (then ARGS_MAX float64 arguments from byte CONTROL_ARGS). */
const READY = 0;
const SEQ = 1;
const DONE = 2;
const KERNEL = 3;
const ARGC = 4;
const FAILED = 5;
/** Byte offset of the arguments in the control block, and how many a kernel may take. */
const CONTROL_ARGS = 32;
const ARGS_MAX = 24;
/** Bytes of the control block a team needs in its memory (16-byte aligned). */
export const CONTROL_BYTES = CONTROL_ARGS + ARGS_MAX * 8;

/** What a helper thread is given: the module, the shared memory, the control block, the kernels by index. */
export interface HelperStart {
  readonly module: WebAssembly.Module;
  readonly memory: WebAssembly.Memory;
  readonly control: number;
  readonly names: readonly string[];
}

/** Starts a helper thread running serveKernels(start); close() ends it. */
export type HelperSpawner = (start: HelperStart) => { close(): void };

let spawner: HelperSpawner | undefined;
let helpers = 0;
let helperHalves = 0;

/** How many halves of passes helper threads have run for this thread (for tests and diagnostics). */
export function helperRuns(): number {
  return helperHalves;
}

/** Registers how this platform starts a helper thread (engine/node/kernel-helper.ts). */
export function setHelperSpawner(spawn: HelperSpawner | undefined): void {
  spawner = spawn;
}

/** The spawner registered now (a caller may wrap it, e.g. to learn when a helper is ready). */
export function helperSpawner(): HelperSpawner | undefined {
  return spawner;
}

/** Atomics.waitAsync (ES2024; Node 16+, Chromium), typed here for the engine's older library. */
type WaitAsync = (a: Int32Array, index: number, value: number) => { async: boolean; value: unknown };

/** Resolves once the helper given `start` says it is ready (at once if it already has). */
export async function helperReady(start: HelperStart): Promise<void> {
  const ctl = new Int32Array(start.memory.buffer, start.control, 8);
  const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;
  // A pending waitAsync does not keep an event loop alive (nor does the unreferenced helper): an idle
  // timer does, until the helper is ready.
  const alive = setInterval(() => undefined, 1 << 30);
  try {
    while (Atomics.load(ctl, READY) !== 1) {
      const wait = waitAsync?.(ctl, READY, 0);
      // Without waitAsync, look again after the event loop's next turn.
      await (wait?.async ? wait.value : new Promise((r) => setTimeout(r, 0)));
    }
  } finally {
    clearInterval(alive);
  }
}

/**
 * How many helper threads a pass of this thread may use from now on (0: none): the start pool
 * gives each start the cores no other start of the run is using.
 */
export function setKernelHelpers(n: number): void {
  helpers = Math.max(0, Math.floor(n));
}

/** Whether this thread can have helpers: a spawner registered and shared memory (passes then make theirs shared). */
export function helpersPossible(): boolean {
  return spawner !== undefined && typeof SharedArrayBuffer !== 'undefined';
}

/** Whether a pass may be shared with a helper now. */
export function helpersAllowed(): boolean {
  return helpers > 0 && helpersPossible();
}

/**
 * The helper's side: instantiates the module on the memory, says it is ready, then runs each
 * kernel it is told to until told to stop (a negative kernel). Self-contained (no imports, no
 * closure): a platform may start it from its source text.
 */
export function serveKernels(start: HelperStart): void {
  const instance = new WebAssembly.Instance(start.module, { env: { memory: start.memory } });
  const exports = instance.exports as Record<string, (...args: number[]) => void>;
  const kernels = start.names.map((name) => exports[name]!);
  const ctl = new Int32Array(start.memory.buffer, start.control, 8);
  const args = new Float64Array(start.memory.buffer, start.control + 32, 24);
  Atomics.store(ctl, 0, 1);
  Atomics.notify(ctl, 0);
  let seen = 0;
  for (;;) {
    Atomics.wait(ctl, 1, seen);
    const seq = Atomics.load(ctl, 1);
    if (seq === seen) continue;
    seen = seq;
    const kernel = ctl[3]!;
    if (kernel < 0) return;
    const given: number[] = [];
    for (let a = 0; a < ctl[4]!; a++) given.push(args[a]!);
    try {
      kernels[kernel]!(...given);
    } catch {
      Atomics.store(ctl, 5, 1);
    } finally {
      Atomics.store(ctl, 2, seq);
      Atomics.notify(ctl, 2);
    }
  }
}

/**
 * The fit's side of a team over one module instance's shared memory: `split` runs one half of a
 * pass here and the other on the helper when it is ready, else both here.
 */
export class KernelTeam {
  private readonly ctl: Int32Array;
  private readonly args: Float64Array;
  private helper: { close(): void } | undefined;
  private seq = 0;

  constructor(
    private readonly start: HelperStart,
    private readonly local: readonly ((...args: number[]) => void)[],
  ) {
    this.ctl = new Int32Array(start.memory.buffer, start.control, 8);
    this.args = new Float64Array(start.memory.buffer, start.control + CONTROL_ARGS, ARGS_MAX);
  }

  /** Whether the helper is running and ready (started on the first call where helpers are allowed). */
  private ready(): boolean {
    if (!helpersAllowed()) return false;
    if (!this.helper) this.helper = spawner!(this.start);
    return Atomics.load(this.ctl, READY) === 1;
  }

  /** Kernel `kernel` (an index into the names) with `mine` here and `theirs` on the helper. */
  split(kernel: number, mine: readonly number[], theirs: readonly number[]): void {
    if (!this.ready()) {
      this.local[kernel]!(...mine);
      this.local[kernel]!(...theirs);
      return;
    }
    if (theirs.length > ARGS_MAX) throw new RangeError('KernelTeam: too many arguments');
    this.args.set(theirs);
    this.ctl[KERNEL] = kernel;
    this.ctl[ARGC] = theirs.length;
    const seq = ++this.seq;
    Atomics.store(this.ctl, SEQ, seq);
    Atomics.notify(this.ctl, SEQ);
    this.local[kernel]!(...mine);
    for (let done = Atomics.load(this.ctl, DONE); done !== seq; done = Atomics.load(this.ctl, DONE))
      Atomics.wait(this.ctl, DONE, done);
    if (Atomics.load(this.ctl, FAILED) !== 0) throw new Error('a helper thread failed in a WebAssembly pass');
    helperHalves++;
  }

  /** Ends the helper (if one was started). */
  close(): void {
    if (!this.helper) return;
    this.ctl[KERNEL] = -1;
    Atomics.store(this.ctl, SEQ, ++this.seq);
    Atomics.notify(this.ctl, SEQ);
    this.helper.close();
    this.helper = undefined;
  }
}
