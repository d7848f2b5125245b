import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSweep, type SweepProgress } from '../../engine/service/cluster-sweep.ts';
import { type SweepOptions } from '../../engine/model/sweep.ts';
import { StartPool } from '../../engine/runtime/pool.ts';
import type { StartRunner } from '../../engine/service/start-runner.ts';
import { spawnInProcess } from '../../engine/runtime/in-process.ts';
import { nodeStartPool } from '../../engine/node/worker-pool.ts';
import { DEFAULT_FIT } from '../../engine/model/fit-options.ts';
import { admixedData, selectiveNaiveBayesData } from '../model/synthetic.ts';
import { withCvErrors } from '../../engine/service/cross-validate.ts';
import { preparedData } from '../../engine/model/prepared/prepared-data.ts';
import { IN_FLIGHT_PER_WORKER } from '../../engine/runtime/pool.ts';

const { data } = selectiveNaiveBayesData(3, { N: 150, n: 12, relevant: 6, r: 3, K: 3, P: 2 });
const options: SweepOptions = { kValues: [2, 3], replicates: 2, starts: 6, policy: 'best', seed: 42, fit: DEFAULT_FIT };

function fingerprint(runs: Awaited<ReturnType<typeof runSweep>>['runs']) {
  return runs.map((r) => ({
    K: r.K,
    rep: r.replicate,
    ll: r.clustering.logLik,
    q: Array.from(r.clustering.Q),
    starts: r.clustering.starts.map((s) => [s.seed, s.logLik, s.iterations]),
  }));
}

test('same seed ⇒ the same sweep, bit for bit, in-process and on 1, 2 or 3 worker threads', async () => {
  const inProcess = new StartPool(spawnInProcess, 1);
  const reference = fingerprint((await runSweep(data, options, inProcess)).runs);
  inProcess.close();
  assert.equal(reference.length, 4);
  for (const threads of [2, 3]) {
    const pool = nodeStartPool(threads);
    try {
      const got = fingerprint((await runSweep(data, options, pool)).runs);
      assert.deepEqual(got, reference, `${threads} threads`);
    } finally {
      pool.close();
    }
  }
  const other = new StartPool(spawnInProcess, 2);
  const differentSeed = fingerprint((await runSweep(data, { ...options, seed: 43 }, other)).runs);
  other.close();
  assert.notDeepEqual(
    differentSeed.map((r) => r.starts),
    reference.map((r) => r.starts),
  );
});

test('worker threads get the genotype data only for tasks that read them: EMA-TAN on 2 threads is the in-process sweep', async () => {
  const tan: SweepOptions = {
    ...options,
    kValues: [2],
    replicates: 1,
    starts: 3,
    fit: { ...DEFAULT_FIT, algorithm: 'ema-tan' },
  };
  const inProcess = new StartPool(spawnInProcess, 1);
  const reference = fingerprint((await runSweep(data, tan, inProcess)).runs);
  inProcess.close();
  const pool = nodeStartPool(2);
  try {
    assert.deepEqual(fingerprint((await runSweep(data, tan, pool)).runs), reference);
  } finally {
    pool.close();
  }
});

test('progress reports iterations, starts and runs; results appear per (K, replicate); the largest K is handed out first', async () => {
  const pool = new StartPool(spawnInProcess, 2);
  const handedOut: number[] = [];
  const runner: StartRunner = {
    run: (d, tasks, fit, hooks, signal) => {
      handedOut.push(...tasks.map((t) => t.K));
      return pool.run(d, tasks, fit, hooks, signal);
    },
  };
  const kinds = new Map<string, number>();
  let lastStart = 0;
  const res = await runSweep(data, options, runner, (p) => {
    kinds.set(p.kind, (kinds.get(p.kind) ?? 0) + 1);
    if (p.kind === 'start') {
      assert.equal(p.total, 24);
      assert.ok(p.completed > lastStart);
      lastStart = p.completed;
    }
  });
  pool.close();
  assert.equal(kinds.get('start'), 24);
  assert.equal(kinds.get('run'), 4);
  assert.equal(res.cancelled, false);
  assert.deepEqual(handedOut, [...Array(12).fill(3), ...Array(12).fill(2)]);
  assert.deepEqual(
    res.runs.map((r) => r.K),
    [2, 2, 3, 3],
  );
});

test('cancel stops within a second and keeps completed starts', async () => {
  const { data: big } = selectiveNaiveBayesData(4, { N: 2000, n: 200, relevant: 20, r: 4, K: 4, P: 2 });
  const pool = nodeStartPool(2);
  const controller = new AbortController();
  let completed = 0;
  let afterCancel = 0;
  const promise = runSweep(
    big,
    { ...options, kValues: [4], replicates: 1, starts: 200, fit: { ...DEFAULT_FIT, epsilon: 1e-9, maxIterations: 40 } },
    pool,
    (p) => {
      if (p.kind !== 'start') return;
      if (controller.signal.aborted) afterCancel++;
      if (++completed === 2) controller.abort();
    },
    controller.signal,
  );
  const res = await promise;
  pool.close();
  assert.equal(res.cancelled, true);
  // Nothing new is handed out after the cancel: at most the starts then in flight finish.
  assert.ok(afterCancel <= 2 * IN_FLIGHT_PER_WORKER, `${afterCancel} starts finished after the cancel`);
  assert.equal(res.runs.length, 1);
  assert.ok(
    res.runs[0]!.completedStarts >= 2 && res.runs[0]!.completedStarts < 200,
    `kept ${res.runs[0]!.completedStarts} starts`,
  );
});

test('cross-validation folds run on the worker threads give the same CV error per K as in this thread, bit for bit', async () => {
  const { data: admixed } = admixedData(3, { N: 60, L: 120, K: 2, alpha: 0.5, fst: 0.15 });
  const o: SweepOptions = {
    kValues: [2, 3],
    replicates: 2,
    starts: 1,
    policy: 'best',
    seed: 5,
    cvFolds: 3,
    fit: { ...DEFAULT_FIT, model: 'admixture', tolerance: 1e-4 },
  };
  const pool = nodeStartPool(2);
  try {
    const events: SweepProgress[] = [];
    const res = await runSweep(admixed, o, pool, (p) => events.push(p));
    // The CV stage is reported after the runs: 0, then each fold of 3 folds × 2 K as it finishes.
    const cv = events.flatMap((p, at) => (p.kind === 'cv' ? [{ ...p, at }] : []));
    assert.deepEqual(
      cv.map((p) => [p.completed, p.total]),
      [0, 1, 2, 3, 4, 5, 6].map((c) => [c, 6]),
    );
    const lastRun = events.map((p) => p.kind).lastIndexOf('run');
    assert.ok(cv[0]!.at > lastRun, 'the CV stage follows the runs');
    const withCv = res.runs.filter((r) => r.cvError !== undefined);
    assert.equal(withCv.length, 2, 'one run per K carries the CV error');
    const plain = res.runs.map(({ cvError: _cv, ...r }) => r);
    const here = withCvErrors(preparedData(admixed), plain, o);
    assert.deepEqual(
      here.map((r) => r.cvError),
      res.runs.map((r) => r.cvError),
    );
    assert.ok(withCv.every((r) => Number.isFinite(r.cvError) && r.cvError! > 0));
  } finally {
    pool.close();
  }
});

test('a pool hands each worker a start to run before it queues a second on any: two starts on two workers run side by side', async () => {
  const started: number[] = [];
  const pool = new StartPool(() => {
    const port = spawnInProcess();
    const index = started.push(0) - 1;
    return {
      postMessage(message: unknown, transfer?: Transferable[]) {
        if ((message as { op?: string }).op === 'start') started[index]!++;
        port.postMessage(message, transfer);
      },
      onMessage: (handler) => port.onMessage(handler),
      close: () => port.close(),
      sameThread: port.sameThread,
    };
  }, 2);
  await runSweep(data, { ...options, kValues: [2], replicates: 1, starts: 2 }, pool);
  pool.close();
  assert.deepEqual(started, [1, 1]);
});

test('a pool starts no more workers than tasks and gives the threads no task uses to the tasks as helpers: one start on three threads gets two, more tasks than threads none', async () => {
  const helpers: number[] = [];
  let spawned = 0;
  const pool = new StartPool(() => {
    spawned++;
    const port = spawnInProcess();
    return {
      postMessage(message: unknown, transfer?: Transferable[]) {
        const m = message as { op?: string; helpers?: number };
        if (m.op === 'start') helpers.push(m.helpers ?? -1);
        port.postMessage(message, transfer);
      },
      onMessage: (handler) => port.onMessage(handler),
      close: () => port.close(),
      sameThread: port.sameThread,
    };
  }, 3);
  try {
    await runSweep(data, { ...options, kValues: [2], replicates: 1, starts: 1 }, pool);
    assert.deepEqual(helpers, [2]);
    assert.equal(spawned, 1);
    helpers.length = 0;
    await runSweep(data, { ...options, kValues: [2], replicates: 1, starts: 4 }, pool);
    assert.deepEqual(helpers, [0, 0, 0, 0]);
    assert.equal(spawned, 3);
  } finally {
    pool.close();
  }
});

test('threads a finished task leaves idle join the tasks still running: the helper cells follow the running tasks', async () => {
  // Workers that hold their tasks until told to finish one, and read their helper cell as they would at a pass.
  const ports: { cells?: Int32Array; index: number; tasks: number[]; reply?: (m: unknown) => void }[] = [];
  const pool = new StartPool(() => {
    const worker: (typeof ports)[number] = { index: ports.length, tasks: [] };
    ports.push(worker);
    return {
      postMessage(message: unknown) {
        const m = message as { op: string; cells?: Int32Array; index?: number; taskId?: number };
        if (m.op === 'helper-cell') {
          worker.cells = m.cells;
          assert.equal(m.index, worker.index);
        }
        if (m.op === 'start') worker.tasks.push(m.taskId!);
      },
      onMessage(handler) {
        worker.reply = handler;
        return () => undefined;
      },
      close: () => undefined,
    };
  }, 4);
  const cells = () => ports.map((p) => Atomics.load(p.cells!, p.index));
  const finishOne = (w: number) => ports[w]!.reply!({ op: 'done', taskId: ports[w]!.tasks.shift(), result: {} });
  const tasks = [0, 1, 2].map((index) => ({ K: 2, replicate: 1, index, seed: index + 1 }));
  const run = pool.run(data, tasks, DEFAULT_FIT);
  // Three tasks on four threads: the spare thread goes to the first task.
  assert.deepEqual(cells(), [1, 0, 0]);
  finishOne(0);
  assert.deepEqual(cells(), [0, 1, 1]);
  finishOne(1);
  assert.deepEqual(cells(), [0, 0, 3]);
  finishOne(2);
  assert.deepEqual(cells(), [0, 0, 0]);
  const { results, cancelled } = await run;
  assert.equal(cancelled, false);
  assert.equal(results.length, 3);
});
