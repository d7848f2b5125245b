// Threads sharing one WebAssembly pass: the thread that runs a fit (a start worker) and helper
// threads that run the same module's kernels on the same shared memory, each on its share of a pass
// (a range of individuals or of loci, whose results the shares write to different places). Each
// helper waits on its own control block in the memory (Atomics.wait) and is told what to run there;
// no message crosses while a pass runs. A share computes exactly what it computes when one thread
// runs the whole pass, so results do not depend on how many helpers run (or are ready yet): the
// fit's thread runs any share no helper can take.
//
// Creating a helper thread is the platform's: engine/node/kernel-helper.ts registers a spawner
// (worker_threads) in the start workers; without one, passes run on one thread.

/** Int32 words of a control block (then ARGS_MAX float64 arguments from byte CONTROL_ARGS). */
const READY = 0;
const SEQ = 1;
const DONE = 2;
const KERNEL = 3;
const ARGC = 4;
const FAILED = 5;
/** Byte offset of the arguments in a control block, and how many a kernel may take. */
const CONTROL_ARGS = 32;
const ARGS_MAX = 24;
/** Bytes of one helper's control block (16-byte aligned). */
const CONTROL_BYTES = CONTROL_ARGS + ARGS_MAX * 8;
/** The most helper threads one team runs (a start on up to 32 threads). */
export const MAX_HELPERS = 31;
/** Bytes of the control blocks a team needs in its memory. */
export const TEAM_CONTROL_BYTES = MAX_HELPERS * CONTROL_BYTES;

/**
 * What a helper thread is given: the modules (each instantiated on the shared memory), the memory,
 * its control block, and the kernels by index (a module's index and the kernel's export name).
 */
export interface HelperStart {
  readonly modules: readonly WebAssembly.Module[];
  readonly memory: WebAssembly.Memory;
  readonly control: number;
  readonly kernels: readonly (readonly [number, string])[];
}

/** Starts a helper thread running serveKernels(start); close() ends it. */
export type HelperSpawner = (start: HelperStart) => { close(): void };

let spawner: HelperSpawner | undefined;
let helpers = 0;
/** Where the pool updates this thread's helpers while a task runs (setKernelHelperCell). */
let helperCell: { readonly cells: Int32Array; readonly index: number } | undefined;
let helperShares = 0;
let sharedMs = 0;

/** How many shares of passes helper threads have run for this thread (for tests and diagnostics). */
export function helperRuns(): number {
  return helperShares;
}

/** Seconds this thread has spent in passes a team may share, helpers or not (for bench/: the parallel part). */
export function sharedPassSeconds(): number {
  return sharedMs / 1000;
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
  helpers = Math.min(MAX_HELPERS, Math.max(0, Math.floor(n)));
}

/**
 * From now on, the helpers a pass may use are `cells[index]` at the time of the pass (a shared
 * Int32Array the start pool updates as the run's tasks start and end), not setKernelHelpers's.
 */
export function setKernelHelperCell(cells: Int32Array | undefined, index = 0): void {
  helperCell = cells ? { cells, index } : undefined;
}

/** The helpers a pass may use now. */
function helpersNow(): number {
  if (!helperCell) return helpers;
  return Math.min(MAX_HELPERS, Math.max(0, Atomics.load(helperCell.cells, helperCell.index)));
}

/** Whether this thread can have helpers: a spawner registered and shared memory (passes then make theirs shared). */
export function helpersPossible(): boolean {
  return spawner !== undefined && typeof SharedArrayBuffer !== 'undefined';
}

/**
 * The helper's side: instantiates the module on the memory, says it is ready, then runs each
 * kernel it is told to until told to stop (a negative kernel). Self-contained (no imports, no
 * closure): a platform may start it from its source text.
 */
export function serveKernels(start: HelperStart): void {
  const instances = start.modules.map(
    (module) =>
      new WebAssembly.Instance(module, { env: { memory: start.memory } }).exports as Record<
        string,
        (...args: number[]) => void
      >,
  );
  const kernels = start.kernels.map(([m, name]) => instances[m]![name]!);
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

/** One helper thread of a team, through its control block. */
class Helper {
  readonly ctl: Int32Array;
  readonly args: Float64Array;
  private thread: { close(): void } | undefined;
  private seq = 0;

  constructor(readonly start: HelperStart) {
    this.ctl = new Int32Array(start.memory.buffer, start.control, 8);
    this.args = new Float64Array(start.memory.buffer, start.control + CONTROL_ARGS, ARGS_MAX);
  }

  /** Whether the thread runs and is ready (started on the first call). */
  ready(): boolean {
    this.thread ??= spawner!(this.start);
    return Atomics.load(this.ctl, READY) === 1;
  }

  /** Tells the thread to run `kernel` on `args` (returns at once). */
  post(kernel: number, args: readonly number[]): void {
    if (args.length > ARGS_MAX) throw new RangeError('KernelTeam: too many arguments');
    this.args.set(args);
    this.ctl[KERNEL] = kernel;
    this.ctl[ARGC] = args.length;
    Atomics.store(this.ctl, SEQ, ++this.seq);
    Atomics.notify(this.ctl, SEQ);
  }

  /** Waits until the thread has run what it was last told to. */
  join(): void {
    for (let done = Atomics.load(this.ctl, DONE); done !== this.seq; done = Atomics.load(this.ctl, DONE))
      Atomics.wait(this.ctl, DONE, done);
    if (Atomics.load(this.ctl, FAILED) !== 0) throw new Error('a helper thread failed in a WebAssembly pass');
  }

  close(): void {
    if (!this.thread) return;
    this.ctl[KERNEL] = -1;
    Atomics.store(this.ctl, SEQ, ++this.seq);
    Atomics.notify(this.ctl, SEQ);
    this.thread.close();
    this.thread = undefined;
  }
}

/**
 * The fit's side of a team over one module instance's shared memory (control blocks of
 * TEAM_CONTROL_BYTES at `control`): `width` says into how many shares to cut a pass now, `run` runs
 * the first share here and the others on the helpers.
 */
export class KernelTeam {
  private readonly threads: Helper[];
  /** The helpers that took the last width()'s shares, in share order. */
  private taking: Helper[] = [];

  constructor(
    start: HelperStart,
    private readonly local: readonly ((...args: number[]) => void)[],
  ) {
    this.threads = Array.from(
      { length: MAX_HELPERS },
      (_, h) => new Helper({ ...start, control: start.control + h * CONTROL_BYTES }),
    );
  }

  /**
   * Threads a pass may use now: this one and every helper allowed (setKernelHelpers) that is ready
   * (helpers not yet started are started, and join once ready).
   */
  width(): number {
    this.taking = [];
    const allowed = helpersNow();
    if (allowed === 0 || !helpersPossible()) return 1;
    for (const helper of this.threads.slice(0, allowed)) if (helper.ready()) this.taking.push(helper);
    return 1 + this.taking.length;
  }

  /** Kernel `kernel` (an index into the names) on each share's arguments: the first here, one a helper (as many as width() said). */
  run(kernel: number, shares: readonly (readonly number[])[]): void {
    const t0 = performance.now();
    const posted = this.taking.slice(0, shares.length - 1);
    posted.forEach((helper, h) => helper.post(kernel, shares[h + 1]!));
    this.local[kernel]!(...shares[0]!);
    for (const rest of shares.slice(posted.length + 1)) this.local[kernel]!(...rest);
    for (const helper of posted) helper.join();
    helperShares += posted.length;
    sharedMs += performance.now() - t0;
  }

  /** Ends the helpers (those started). */
  close(): void {
    for (const helper of this.threads) helper.close();
    this.taking = [];
  }
}
