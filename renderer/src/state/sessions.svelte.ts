import type { AppState } from './app.svelte.ts';
import { placeSites, toShownError } from './app.svelte.ts';
import { tick } from 'svelte';
import type { PlotState } from './plot.svelte.ts';
import type { RunState } from './run.svelte.ts';
import type { AssignState } from './assign.svelte.ts';
import type { PcaState } from './pca.svelte.ts';
import { autosave, loadAutosave, openedSession, type RestorableSession } from './session-store.ts';
import { checkSession } from './session-check.ts';
import {
  decodeAssign,
  decodeBootstrap,
  decodeFitCheck,
  decodeProjection,
  encodeBootstrap,
  encodeFitCheck,
  encodeProjection,
  decodeFiles,
  decodeRuns,
  encodeAssign,
  encodeFile,
  encodeRuns,
} from './session-codec.ts';
import type { SessionDoc } from './session.ts';
import { saveFile } from '../export/save.ts';
import type { OpenOptions } from '../../../engine/runtime/engine-protocol.ts';

function withoutPopulationFile(o: OpenOptions): Omit<OpenOptions, 'populationFile'> {
  const { populationFile: _file, ...rest } = o;
  return rest;
}

/** Saving, opening and autosaving sessions; restoring a session restores every view. */
export class SessionState {
  lastSaved = $state<string | null>(null);
  /** Autosaves completed, and whether a change waits for one (shown beside Save session). */
  autosaves = $state(0);
  autosavePending = $state(false);
  private autosaveTurn = 0;
  restorable = $state.raw<RestorableSession | null>(null);
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly app: AppState,
    private readonly run: RunState,
    private readonly plot: PlotState,
    private readonly assign: AssignState,
    private readonly pca?: PcaState,
  ) {}

  build(): SessionDoc | null {
    const { app, run, plot, assign } = this;
    if (!app.dataset || app.files.length === 0) return null;
    return {
      version: 1,
      app: 'stratify',
      savedAt: new Date().toISOString(),
      files: app.files.map(encodeFile),
      ...(app.populationFile ? { populationFile: encodeFile(app.populationFile) } : {}),
      ...(app.sitesFile ? { sitesFile: encodeFile(app.sitesFile) } : {}),
      view: app.view,
      openOptions: withoutPopulationFile(app.openOptions),
      filters: app.filters,
      run: {
        algorithm: run.algorithm,
        kFrom: run.kFrom,
        kTo: run.kTo,
        starts: run.starts,
        replicates: run.replicates,
        epsilon: run.epsilon,
        seed: run.seed,
        rankBy: run.rankBy,
        model: run.model,
        tolerance: run.tolerance,
        cvFolds: run.cvFolds,
        startsRule: run.startsRule,
        references: [...run.references],
        // While a sweep runs, the runs it has finished and what it was running.
        ...(run.running ? { interrupted: { kValues: [...run.sweepK], replicates: run.replicates } } : {}),
      },
      plot: {
        palette: [...plot.palette],
        populationOrder: [...plot.populationOrder],
        shownK: [...plot.shownK],
        groupByRegion: plot.groupByRegion,
        sortEachRow: plot.sortEachRow,
        barHeight: plot.barHeight,
        mapK: plot.mapK,
      },
      runs: encodeRuns(run.runs),
      ...this.trust(),
      ...(this.pca
        ? {
            pca: {
              settings: {
                pcs: this.pca.pcs,
                xPc: this.pca.xPc,
                yPc: this.pca.yPc,
                colourBy: this.pca.colourBy,
                clusterK: this.pca.clusterK,
              },
              // The result only when it was computed on the dataset shown.
              ...(this.pca.result && this.pca.result.datasetId === app.dataset.datasetId
                ? { result: this.pca.result.pca }
                : {}),
            },
          }
        : {}),
      assign: {
        settings: {
          by: assign.by,
          classifier: assign.classifier,
          learning: assign.learning,
          score: assign.score,
          folds: assign.folds,
          variables: assign.variables,
          curve: assign.curve,
        },
        ...(assign.result
          ? { result: encodeAssign(assign.result), resultFolds: assign.resultFolds, resultBy: assign.resultBy }
          : {}),
      },
    };
  }

  /** The bootstrap intervals, fit check and projection of the runs shown (those of another sweep are not saved). */
  private trust(): Pick<SessionDoc, 'trust'> {
    const { plot } = this;
    const sweepId = this.run.analysis?.sweepId;
    const b = plot.bootstrap?.sweepId === sweepId ? plot.bootstrap?.info : undefined;
    const f = plot.fitCheck?.sweepId === sweepId ? plot.fitCheck?.info : undefined;
    const p = plot.projection?.sweepId === sweepId ? plot.projection?.info : undefined;
    if (sweepId === undefined || (!b && !f && !p)) return {};
    const whiskers = b && plot.intervals?.K === b.K ? plot.intervals.shown : undefined;
    return {
      trust: {
        ...(b ? { bootstrap: encodeBootstrap(b, whiskers) } : {}),
        ...(f ? { fitCheck: encodeFitCheck(f) } : {}),
        ...(p ? { projection: encodeProjection(p) } : {}),
      },
    };
  }

  /**
   * Puts saved bootstrap intervals and a fit check back beside the restored sweep; whiskers go on
   * the row of K whose shown memberships (major mode or another) are the ones they were drawn on.
   */
  private restoreTrust(
    analysis: NonNullable<RunState['analysis']>,
    bootstrap: ReturnType<typeof decodeBootstrap> | null,
    fitCheck: ReturnType<typeof decodeFitCheck> | null,
    projection: ReturnType<typeof decodeProjection> | null,
  ): void {
    const { plot } = this;
    const { sweepId } = analysis;
    plot.modesFor(analysis);
    plot.bootstrap = bootstrap ? { sweepId, info: bootstrap.info } : null;
    plot.fitCheck = fitCheck ? { sweepId, info: fitCheck } : null;
    // A projection onto a K the restored runs do not have is not shown.
    plot.projection =
      projection && analysis.perK.some((k) => k.K === projection.K) ? { sweepId, info: projection } : null;
    plot.intervals = null;
    const shown = bootstrap?.shown;
    const k = shown && analysis.perK.find((x) => x.K === bootstrap.info.K);
    if (!k) return;
    const same = (q: Float64Array) => q.length === shown.length && q.every((x, j) => x === shown[j]);
    const mode = k.modeQs.findIndex((m) => same(m.Q));
    const Q = mode >= 0 ? k.modeQs[mode]!.Q : same(k.Q) ? k.Q : undefined;
    if (!Q) return;
    if (mode >= 0) plot.modeOf = { ...plot.modeOf, [k.K]: mode };
    plot.intervals = { K: k.K, shown: Q, lower: bootstrap.info.lower, upper: bootstrap.info.upper };
  }

  async save(): Promise<void> {
    const doc = this.build();
    if (!doc) return;
    const name = `${(this.app.fileNames[0] ?? 'analysis').replace(/\.[^.]+$/, '')}.stratify.json`;
    const desktop = window.stratify;
    try {
      // The desktop app saves sessions through main, which checks the files they list.
      if (desktop?.isDesktop) {
        if ((await desktop.saveSession(name, JSON.stringify(doc))) === null) return;
      } else await saveFile(name, JSON.stringify(doc), 'application/json');
      this.lastSaved = doc.savedAt;
    } catch (e) {
      this.app.error = toShownError('Could not save the session', e);
    }
  }

  /** Schedules an autosave (debounced), so a crash loses nothing. */
  touch(): void {
    clearTimeout(this.timer);
    const turn = ++this.autosaveTurn;
    this.autosavePending = true;
    this.timer = setTimeout(() => {
      const doc = this.build();
      const done = () => {
        // Only the latest change's save clears "pending"; an earlier one may finish after it.
        if (turn === this.autosaveTurn) this.autosavePending = false;
      };
      if (!doc) return done();
      void autosave(doc)
        .then(() => {
          this.lastSaved = doc.savedAt;
          this.autosaves++;
        })
        .finally(done);
    }, 800);
  }

  async checkAutosave(): Promise<void> {
    this.restorable = await loadAutosave();
  }

  /** A session file chosen in the page (the browser build: its files must be embedded). */
  async openFile(file: File): Promise<void> {
    try {
      await this.restore({ doc: checkSession(JSON.parse(await file.text())) });
    } catch (e) {
      this.app.error = toShownError(`Could not open the session ${file.name}`, e);
    }
  }

  /** The desktop app: main's Open dialog reads the session and grants the files it lists. */
  async openFromDesktop(): Promise<void> {
    const desktop = window.stratify;
    if (!desktop?.isDesktop) return;
    let name = 'the session';
    try {
      const opened = await desktop.openSession();
      if (!opened) return;
      name = opened.name;
      await this.restore(openedSession(opened));
    } catch (e) {
      this.app.error = toShownError(`Could not open ${name}`, e);
    }
  }

  /**
   * Restores a session: everything is read, filtered, checked and analysed in the engine first,
   * and only then shown, so a session that does not fit its data changes nothing (the datasets
   * read for it are closed and the error says why).
   */
  async restore({ doc, opened }: RestorableSession): Promise<void> {
    const { app, run, plot, assign } = this;
    const client = app.client;
    if (!client) return;
    const read: number[] = [];
    app.loading = true;
    try {
      const files = decodeFiles(doc.files, opened);
      const population = doc.populationFile ? decodeFiles([doc.populationFile], opened) : [];
      const sitesFile = doc.sitesFile ? decodeFiles([doc.sitesFile], opened) : [];
      const options = {
        ...(doc.openOptions ?? {}),
        ...(population[0] ? { populationFile: population[0] } : {}),
      };
      const settings = doc.assign?.settings;
      let info = await app.read(files, options);
      read.push(info.datasetId);
      let filtered =
        doc.filters && Object.keys(doc.filters).length > 0
          ? await client.call('filterDataset', [info.datasetId, doc.filters]).result
          : undefined;
      if (filtered) read.push(filtered.datasetId);
      let sites = null;
      if (sitesFile[0]) {
        const placed = await placeSites(client, filtered ? [info, filtered] : [info], sitesFile[0]);
        info = placed[0]!.info;
        if (filtered) filtered = { ...filtered, individuals: placed[1]!.info.individuals };
        const { individuals: _i, ...summary } = placed.at(-1)!.sites;
        sites = summary;
      }
      const shown = filtered ?? info;
      const N = shown.individuals.length;
      const runs = decodeRuns(doc.runs, N);
      const assignResult = doc.assign?.result ? decodeAssign(doc.assign.result, N) : null;
      const bootstrap = doc.trust?.bootstrap ? decodeBootstrap(doc.trust.bootstrap, N) : null;
      const fitCheck = doc.trust?.fitCheck ? decodeFitCheck(doc.trust.fitCheck, N) : null;
      const projection = doc.trust?.projection ? decodeProjection(doc.trust.projection) : null;
      if (doc.pca?.result && doc.pca.result.vectors.length !== N * doc.pca.result.pcs)
        throw new Error('the saved PCA does not fit the dataset');
      let analysis = null;
      if (runs.length > 0) {
        const { sweepId } = await client.call('importSweep', [shown.datasetId, runs]).result;
        analysis = await client.call('analyzeSweep', [sweepId]).result;
      }
      // Everything fits: show it. The dataset first (its change clears the views' results), then those.
      app.adopt(info, files, options);
      if (filtered) {
        app.dataset = filtered;
        app.filters = doc.filters!;
        app.removed = { individuals: filtered.removedIndividuals, loci: filtered.removedLoci, steps: filtered.steps };
      }
      if (sitesFile[0]) {
        app.sitesFile = sitesFile[0];
        app.sites = sites;
      }
      await tick();
      // The model first: its setter would otherwise replace the saved starts with its defaults.
      run.model = doc.run.model ?? 'mixture';
      Object.assign(run, { startsRule: 'all' }, doc.run);
      plot.palette = [...doc.plot.palette];
      plot.populationOrder = [...doc.plot.populationOrder];
      plot.groupByRegion = doc.plot.groupByRegion;
      plot.sortEachRow = doc.plot.sortEachRow ?? false;
      plot.barHeight = doc.plot.barHeight;
      plot.mapK = doc.plot.mapK ?? 0;
      if (analysis) {
        run.runs = runs;
        run.analysis = analysis;
        plot.shownK = [...doc.plot.shownK];
        this.restoreTrust(analysis, bootstrap, fitCheck, projection);
      }
      if (settings) {
        Object.assign(assign, settings);
        assign.result = assignResult;
        assign.resultFolds = doc.assign!.resultFolds ?? settings.folds;
        assign.resultBy = doc.assign!.resultBy ?? settings.by;
      }
      if (doc.pca && this.pca) {
        Object.assign(this.pca, doc.pca.settings);
        this.pca.result = doc.pca.result ? { datasetId: shown.datasetId, pca: doc.pca.result } : null;
      }
      app.view = doc.view;
      this.restorable = null;
    } catch (e) {
      for (const id of read) void client.call('closeDataset', [id]).result;
      app.error = toShownError('Could not restore the session', e);
    } finally {
      app.loading = false;
    }
  }
}
