import type { EngineClient } from '../../../engine/runtime/engine-client.ts';
import { EngineError } from '../../../engine/runtime/engine-client.ts';
import type {
  DatasetInfo,
  FileBytes,
  FileInput,
  OpenOptions,
  SitesInfo,
} from '../../../engine/runtime/engine-protocol.ts';
import { mainFileFirst } from '../../../engine/runtime/engine-protocol.ts';
import type { FilterOptions, FilterStep, Removed } from '../../../engine/runtime/engine-protocol.ts';
import type {} from '../engine/desktop-port.ts';
import type { View } from './ui-choices.ts';

export interface ShownError {
  readonly title: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
}

export type { View };

/** Application state: the open dataset, what is loading, and the last error. */
export class AppState {
  client = $state.raw<EngineClient | null>(null);
  dataset = $state.raw<DatasetInfo | null>(null);
  fileNames = $state.raw<string[]>([]);
  /**
   * The open files: bytes in the browser build (kept so a session can embed them), grants in the
   * desktop app, where the engine reads the files where they live and the page never holds them.
   */
  files = $state.raw<FileInput[]>([]);
  populationFile = $state.raw<FileInput | null>(null);
  /** A coordinates file whose sampling sites the open dataset carries, and what it matched. */
  sitesFile = $state.raw<FileInput | null>(null);
  sites = $state.raw<Omit<SitesInfo, 'individuals'> | null>(null);
  openOptions = $state.raw<OpenOptions>({});
  /** The dataset as read, before filters (filters always start from it). */
  unfiltered = $state.raw<DatasetInfo | null>(null);
  filters = $state.raw<FilterOptions>({});
  /** A filter is being applied (the engine is making the filtered dataset). */
  filtering = $state(false);
  removed = $state.raw<{
    individuals: readonly Removed[];
    loci: readonly Removed[];
    steps: readonly FilterStep[];
  } | null>(null);
  view = $state<View>('data');
  loading = $state(false);
  parseFraction = $state(0);
  error = $state.raw<ShownError | null>(null);
  engineDown = $state(false);

  async open(files: FileInput[], options: OpenOptions = {}): Promise<void> {
    if (!this.client) return;
    this.loading = true;
    this.parseFraction = 0;
    this.error = null;
    try {
      this.adopt(await this.read(files, options), files, options);
      // Sex and organelle chromosomes leave clustering and PCA by default, as in the CLI (Filters keeps them).
      if (this.unfiltered?.summary.chromosomes.some((c) => c.sex))
        await applyFilters(this, { dropSexChromosomes: true });
    } catch (e) {
      this.error = toShownError('Could not read the file', e);
    } finally {
      this.loading = false;
    }
  }

  /** Reads files into the engine without changing what the app shows (progress aside). */
  async read(files: FileInput[], options: OpenOptions): Promise<DatasetInfo> {
    const call = this.client!.call('openDataset', [files, options], (p) => {
      if (p.kind === 'parse' && p.totalBytes) this.parseFraction = p.bytesRead / p.totalBytes;
    });
    return call.result;
  }

  /** Shows a dataset the engine has read, replacing (and closing) the open one and its filtered version. */
  adopt(info: DatasetInfo, files: FileInput[], options: OpenOptions): void {
    for (const old of new Set([this.dataset?.datasetId, this.unfiltered?.datasetId]))
      if (old !== undefined && old !== info.datasetId) void this.client?.call('closeDataset', [old]).result;
    this.dataset = info;
    this.unfiltered = info;
    this.fileNames = files.map((f) => f.name);
    this.files = files;
    this.populationFile = options.populationFile ?? null;
    this.sitesFile = null;
    this.sites = null;
    this.openOptions = options;
    this.filters = {};
    this.removed = null;
    this.view = 'data';
  }
}

/**
 * Gives the open dataset, and the dataset it was filtered from, the sampling sites of a
 * coordinates file; nothing changes when the file is refused.
 */
export async function applySitesFile(app: AppState, file: FileInput): Promise<void> {
  if (!app.client || !app.dataset || !app.unfiltered) return;
  try {
    const placed = await placeSites(app.client, [app.unfiltered, app.dataset], file);
    app.unfiltered = placed[0]!.info;
    app.dataset = placed[1]!.info;
    const { individuals: _i, ...summary } = placed[1]!.sites;
    app.sitesFile = file;
    app.sites = summary;
  } catch (e) {
    app.error = toShownError(`Could not read the sampling sites in ${file.name}`, e);
  }
}

/** Datasets with the sites of a file applied in the engine (one call for a dataset given twice). */
export async function placeSites(
  client: EngineClient,
  datasets: readonly DatasetInfo[],
  file: FileInput,
): Promise<{ info: DatasetInfo; sites: SitesInfo }[]> {
  const done = new Map<number, SitesInfo>();
  const out: { info: DatasetInfo; sites: SitesInfo }[] = [];
  for (const info of datasets) {
    let sites = done.get(info.datasetId);
    if (!sites) {
      sites = await client.call('applySites', [info.datasetId, file]).result;
      done.set(info.datasetId, sites);
    }
    out.push({ info: { ...info, individuals: sites.individuals }, sites });
  }
  return out;
}

/** Applies filters to the dataset as read; an empty filter set restores it. */
export async function applyFilters(app: AppState, filters: FilterOptions): Promise<void> {
  if (!app.client || !app.unfiltered) return;
  const active = Object.values(filters).some((v) => v !== undefined && v !== false);
  // A filtered dataset lives until the next filter change replaces it (the unfiltered one stays).
  const previous = app.dataset && app.dataset !== app.unfiltered ? app.dataset.datasetId : undefined;
  const closePrevious = () => {
    if (previous !== undefined) void app.client!.call('closeDataset', [previous]).result;
  };
  try {
    if (!active) {
      app.dataset = app.unfiltered;
      app.filters = {};
      app.removed = null;
      closePrevious();
      return;
    }
    app.filtering = true;
    const r = await app.client.call('filterDataset', [app.unfiltered.datasetId, filters]).result;
    app.dataset = r;
    app.filters = filters;
    app.removed = { individuals: r.removedIndividuals, loci: r.removedLoci, steps: r.steps };
    closePrevious();
  } catch (e) {
    app.error = toShownError('Could not apply the filters', e);
  } finally {
    app.filtering = false;
  }
}

/**
 * Asks before an action that starts over from the data (re-reading it, filtering it, opening
 * another dataset) and so clears the clustering results or stops a running sweep; true when there
 * is nothing to lose or the user agrees.
 */
export function confirmStartOver(results: number, action: string, running = false): boolean {
  if (results === 0 && !running) return true;
  const lost = [
    ...(running ? ['the sweep that is running will be stopped'] : []),
    ...(results > 0 ? [`the clustering results (${results} run${results === 1 ? '' : 's'}) will be cleared`] : []),
  ].join(' and ');
  return window.confirm(`${action} starts a new analysis: ${lost}. Continue?`);
}

export function toShownError(title: string, e: unknown): ShownError {
  if (e instanceof EngineError) return { title, message: e.message, file: e.file, line: e.line, column: e.column };
  return { title, message: e instanceof Error ? e.message : String(e) };
}

/**
 * Dropped or chosen File objects as the engine takes them: in the desktop app granted by main
 * (read where they live; the page hands over the File objects, never a path), in a browser — or
 * for files without a place on disk — read into bytes.
 */
export async function readFiles(files: FileList | File[]): Promise<FileInput[]> {
  const desktop = window.stratify;
  if (desktop?.isDesktop) {
    const granted = await desktop.grantFiles(Array.from(files));
    if (granted.length > 0) return granted;
  }
  return readFileBytes(files);
}

/** Reads browser File objects into the engine's FileBytes. */
export async function readFileBytes(files: FileList | File[]): Promise<FileBytes[]> {
  const list = mainFileFirst(Array.from(files), (f) => f.name);
  return Promise.all(list.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
}
