import type { EngineCall, EngineClient } from '../../../engine/runtime/engine-client.ts';
import type { RunInfo, SweepAnalysis } from '../../../engine/runtime/engine-protocol.ts';
import {
  adaptiveStarts,
  APP_MIXTURE_SWEEP,
  CLUSTER_DEFAULTS,
  LIMITS,
  PUECHMAILLE_THRESHOLD,
  runSettingProblem,
  SWEEP_DEFAULTS,
  type Algorithm,
  type Model,
  type RankBy,
  type RunSetting,
  type StartsRule,
} from '../../../engine/util/choices.ts';
import type { KProgress } from './eta.ts';

/** The app's starts, replicates, CV folds and starts rule for each model (engine/util/choices.ts). */
export const APP_SWEEP_DEFAULTS = { mixture: APP_MIXTURE_SWEEP, admixture: SWEEP_DEFAULTS.admixture } as const;

/** The Run view's settings, the running sweep and its results. */
export class RunState {
  #model = $state<Model>(CLUSTER_DEFAULTS.model);
  algorithm = $state<Algorithm>(CLUSTER_DEFAULTS.algorithm);
  /** Admixture model: stop when ln L changes by less than this. */
  tolerance = $state<number>(CLUSTER_DEFAULTS.tolerance);
  /** Admixture model: cross-validation folds for the CV error per K (0: none). */
  cvFolds = $state<number>(APP_SWEEP_DEFAULTS[CLUSTER_DEFAULTS.model].cvFolds);
  kFrom = $state(2);
  kTo = $state(4);
  /** The most starts a multi-start runs (with the rule 'agree', it may stop earlier). */
  starts = $state<number>(APP_SWEEP_DEFAULTS[CLUSTER_DEFAULTS.model].starts);
  replicates = $state<number>(APP_SWEEP_DEFAULTS[CLUSTER_DEFAULTS.model].replicates);
  startsRule = $state<StartsRule>(APP_SWEEP_DEFAULTS[CLUSTER_DEFAULTS.model].startsRule);
  /** The first start of each multi-start begins from the data's structure (PCA, Ward, k-means). */
  structuredStart = $state<boolean>(SWEEP_DEFAULTS[CLUSTER_DEFAULTS.model].structuredStart);

  /** What the bars will mean: memberships (mixture model) or ancestry proportions (admixture model). */
  get model(): Model {
    return this.#model;
  }

  /**
   * Another model: its starts, replicates, CV folds and starts rule become the fields' values,
   * unless the user had changed them from the previous model's defaults.
   */
  set model(m: Model) {
    if (m === this.#model) return;
    const was = APP_SWEEP_DEFAULTS[this.#model];
    const next = APP_SWEEP_DEFAULTS[m];
    if (this.starts === was.starts) this.starts = next.starts;
    if (this.replicates === was.replicates) this.replicates = next.replicates;
    if (this.cvFolds === was.cvFolds) this.cvFolds = next.cvFolds;
    if (this.startsRule === was.startsRule) this.startsRule = next.startsRule;
    if (this.structuredStart === SWEEP_DEFAULTS[this.#model].structuredStart)
      this.structuredStart = SWEEP_DEFAULTS[m].structuredStart;
    this.#model = m;
  }
  epsilon = $state<number>(CLUSTER_DEFAULTS.epsilon);
  /** What best choice ranks a multi-start's starts by. */
  rankBy = $state<RankBy>(CLUSTER_DEFAULTS.rankBy);
  seed = $state<number>(CLUSTER_DEFAULTS.seed);
  threads = $state(Math.max(1, Math.min(8, typeof navigator === 'undefined' ? 2 : navigator.hardwareConcurrency || 2)));
  running = $state(false);
  /** When the running (or last) sweep began and, once over, ended (ms since the epoch). */
  sweepStartedAt = $state(0);
  sweepEndedAt = $state(0);
  cancelled = $state(false);
  progress = $state<KProgress[]>([]);
  /** The admixture model's cross-validation after the starts: folds done of all, and when it began. */
  cv = $state<{ completed: number; total: number; startedAt: number } | null>(null);
  /**
   * The latest iteration reported by a running start (K, replicate, start from 0, iteration, ln L):
   * shows a long start at work before any start has finished and a time left can be measured.
   */
  latest = $state<{
    K: number;
    replicate: number;
    start: number;
    iteration: number;
    logLik: number;
    /** The loci ln L is over in a subset stage (absent: every locus). */
    loci?: number;
  } | null>(null);
  /**
   * Before the first start finishes: the engine's estimate of the seconds the starts still need
   * (from the starts at work) and when it came (ms since the epoch).
   */
  early = $state<{ seconds: number; at: number } | null>(null);
  runs = $state.raw<RunInfo[]>([]);
  analysis = $state.raw<SweepAnalysis | null>(null);
  /** Puechmaille's membership threshold the analysis was made with (Choose K's field). */
  membershipThreshold = $state(PUECHMAILLE_THRESHOLD);
  error = $state<string | null>(null);
  private call: EngineCall<unknown> | null = null;

  /**
   * Supervised admixture: the populations whose individuals are references (cluster k =
   * references[k]); in effect with the admixture model and two or more of them.
   */
  references = $state<string[]>([]);
  /**
   * A sweep that stopped before it finished (the page was closed or reloaded while it ran): its K
   * values and replicates, restored from the autosave with the runs it had finished.
   */
  interrupted = $state<{ kValues: number[]; replicates: number } | null>(null);
  /** The K values of the sweep running (or last run). */
  sweepK = $state<number[]>([]);

  /** Whether the next run is supervised (the admixture model with two or more reference populations). */
  get supervised(): boolean {
    return this.model === 'admixture' && this.references.length >= 2;
  }

  get kValues(): number[] {
    if (this.supervised) return [this.references.length];
    const a = Math.max(1, Math.min(this.kFrom, this.kTo));
    const b = Math.max(this.kFrom, this.kTo);
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  }

  /** The machine's cores: more start workers than this only share them and multiply the memory held. */
  readonly cores = Math.max(1, typeof navigator === 'undefined' ? 2 : navigator.hardwareConcurrency || 2);

  /** The first setting out of its range, as a message naming it and the range; null when all are fine. */
  validate(nIndividuals: number): string | null {
    for (const [name, K] of this.supervised
      ? []
      : ([
          ['K from', this.kFrom],
          ['K to', this.kTo],
        ] as const)) {
      if (!(Number.isInteger(K) && K >= 1 && K <= nIndividuals))
        return `${name} must be a whole number from 1 to ${nIndividuals} (the number of individuals), got ${K}`;
    }
    const settings: [RunSetting, number][] = [
      ['starts', this.starts],
      ['replicates', this.replicates],
      // Each model's own convergence setting, the one its form shows.
      this.model === 'admixture' ? ['tolerance', this.tolerance] : ['epsilon', this.epsilon],
    ];
    for (const [name, value] of settings) {
      const problem = runSettingProblem(name, value);
      if (problem) return problem;
    }
    if (
      this.model === 'admixture' &&
      !(
        this.cvFolds === 0 ||
        (Number.isInteger(this.cvFolds) && this.cvFolds >= 2 && this.cvFolds <= LIMITS.maxCvFolds)
      )
    )
      return `CV folds must be 0 (none) or a whole number from 2 to ${LIMITS.maxCvFolds}, got ${this.cvFolds}`;
    return runSettingProblem('threads', this.threads, this.cores, "this machine's cores");
  }

  /**
   * The K of an interrupted sweep whose replicates did not all finish, and the runs it finished
   * at the other K.
   */
  get unfinished(): { kValues: number[]; keep: RunInfo[] } | null {
    const i = this.interrupted;
    if (!i) return null;
    const done = (K: number) => this.runs.filter((r) => r.K === K).length >= i.replicates;
    return { kValues: i.kValues.filter((K) => !done(K)), keep: this.runs.filter((r) => done(r.K)) };
  }

  /**
   * Runs the K an interrupted sweep did not finish, with its settings, and shows them with the
   * runs it had finished as one sweep: every start's seed derives from (seed, K, replicate,
   * start), so the result is the uninterrupted sweep's.
   */
  async continueSweep(client: EngineClient, datasetId: number, nIndividuals: number): Promise<void> {
    const u = this.unfinished;
    if (!u) return;
    this.interrupted = null;
    if (u.kValues.length === 0) return;
    await this.start(client, datasetId, nIndividuals, u);
  }

  async start(
    client: EngineClient,
    datasetId: number,
    nIndividuals: number,
    continued?: { kValues: number[]; keep: RunInfo[] },
  ): Promise<void> {
    const problem = this.validate(nIndividuals);
    if (problem) {
      this.error = problem;
      return;
    }
    // "K from 5 to 2" means 2..5: the fields are put in order so that they show what runs.
    if (this.kFrom > this.kTo) [this.kFrom, this.kTo] = [this.kTo, this.kFrom];
    this.error = null;
    this.running = true;
    this.cancelled = false;
    this.interrupted = null;
    // A continued sweep keeps the runs finished before (and autosaves them with the new ones).
    this.runs = continued ? [...continued.keep] : [];
    this.analysis = null;
    this.sweepStartedAt = Date.now();
    this.sweepEndedAt = 0;
    const ks = continued ? continued.kValues : this.kValues;
    this.sweepK = continued ? [...new Set([...continued.keep.map((r) => r.K), ...ks])].sort((a, b) => a - b) : ks;
    const adaptive = adaptiveStarts(this.startsRule);
    this.progress = ks.map((K) => ({
      K,
      done: 0,
      total: this.starts * this.replicates,
      ...(adaptive ? { round: Math.min(this.starts, adaptive.round) * this.replicates } : {}),
    }));
    this.cv = null;
    this.latest = null;
    this.early = null;
    const call = client.call(
      'runSweep',
      [
        {
          datasetId,
          kValues: ks,
          replicates: this.replicates,
          starts: this.starts,
          policy: CLUSTER_DEFAULTS.policy,
          rankBy: this.rankBy,
          seed: this.seed,
          threads: this.threads,
          fit:
            this.model === 'admixture'
              ? { model: 'admixture', algorithm: 'em', tolerance: this.tolerance }
              : { algorithm: this.algorithm, epsilon: this.epsilon },
          ...(this.model === 'admixture' && this.cvFolds > 0 ? { cvFolds: this.cvFolds } : {}),
          ...(adaptive ? { adaptive } : {}),
          structuredStart: this.structuredStart,
          ...(this.supervised ? { references: [...this.references] } : {}),
        },
      ],
      (p) => {
        if (p.kind === 'start') {
          const row = this.progress.find((r) => r.K === p.K);
          if (row) {
            row.startedAt ??= Date.now();
            row.done++;
            if (row.done === row.total) row.finishedAt = Date.now();
          }
        } else if (p.kind === 'run') {
          this.runs = [...this.runs, p.run];
          // Adaptive starts: a K is over when all its replicates are; its total is what it ran.
          const row = this.progress.find((r) => r.K === p.run.K);
          if (row?.round && this.runs.filter((r) => r.K === p.run.K).length === this.replicates) {
            row.total = row.done;
            row.finishedAt ??= Date.now();
          }
        } else if (p.kind === 'iteration') this.latest = p;
        else if (p.kind === 'estimate') this.early = { seconds: p.seconds, at: Date.now() };
        else if (p.kind === 'cv')
          this.cv = { completed: p.completed, total: p.total, startedAt: this.cv?.startedAt ?? Date.now() };
      },
    );
    this.call = call;
    try {
      const res = await call.result;
      this.cancelled = res.cancelled;
      if (continued) {
        // One sweep of the runs kept and the new ones, in (K, replicate) order.
        this.runs = [...continued.keep, ...res.runs].sort((a, b) => a.K - b.K || a.replicate - b.replicate);
        const { sweepId } = await client.call('importSweep', [datasetId, this.runs]).result;
        this.analysis = await this.analyze(client, sweepId);
      } else {
        this.runs = res.runs;
        if (res.runs.length > 0) this.analysis = await this.analyze(client, res.sweepId);
      }
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      this.running = false;
      this.sweepEndedAt = Date.now();
      this.call = null;
    }
  }

  /**
   * Opens a result file (stratify.json written by `stratify run`, `sweep` or `merge`, e.g. from a
   * cluster's workflow) as the results of the open dataset.
   */
  async importResult(client: EngineClient, datasetId: number, file: File): Promise<void> {
    this.error = null;
    try {
      const text = await file.text();
      const res = await client.call('importResult', [datasetId, file.name, text]).result;
      this.progress = [];
      this.cv = null;
      this.latest = null;
      this.cancelled = false;
      this.runs = res.runs;
      this.analysis = await this.analyze(client, res.sweepId);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  /** The engine's Choose K analysis of a sweep, at this state's membership threshold. */
  analyze(client: EngineClient, sweepId: number): Promise<SweepAnalysis> {
    return client.call('analyzeSweep', [sweepId, this.membershipThreshold]).result;
  }

  /**
   * A new membership threshold for Puechmaille's estimators: the analysis is made again (the
   * engine refuses a value outside 0..1; the error is shown and the analysis kept).
   */
  async setMembershipThreshold(client: EngineClient, threshold: number): Promise<void> {
    const sweepId = this.analysis?.sweepId;
    this.error = null;
    const previous = this.membershipThreshold;
    this.membershipThreshold = threshold;
    if (sweepId === undefined) return;
    try {
      this.analysis = await this.analyze(client, sweepId);
    } catch (e) {
      this.membershipThreshold = previous;
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  /** Forgets results (a new dataset was opened). */
  reset(): void {
    this.cancel();
    this.interrupted = null;
    this.runs = [];
    this.analysis = null;
    this.membershipThreshold = PUECHMAILLE_THRESHOLD;
    this.progress = [];
    this.cv = null;
    this.latest = null;
    this.error = null;
    this.cancelled = false;
  }

  cancel(): void {
    this.call?.cancel();
  }
}
