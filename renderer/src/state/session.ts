import {
  ALGORITHM,
  ASSIGN_BY,
  CLASSIFIER,
  LEARNING,
  MODEL,
  STARTS_RULE,
  isAlgorithmChoice,
  isChoice,
  RANK_BY,
  SCORE,
  VARIABLES,
  type Model,
} from '../../../engine/util/choices.ts';
import type {
  AssignInfo,
  BootstrapInfo,
  FileInput,
  FitCheckInfo,
  OpenOptions,
  PcaInfo,
  ProjectionInfo,
  RunInfo,
} from '../../../engine/runtime/engine-protocol.ts';
import { isFileGrant } from '../../../engine/runtime/engine-protocol.ts';
import type { OpenedSession } from '../../../shared/ipc-contract.ts';
import type { AssignSettings } from './assign.svelte.ts';
import type { PcaSettings } from './pca.svelte.ts';
import type { FilterOptions } from '../../../engine/runtime/engine-protocol.ts';
import type { View } from './app.svelte.ts';
import type { Algorithm, RankBy, StartsRule } from '../../../engine/util/choices.ts';

/**
 * A file in a session: embedded (opened in the browser build, or a small side file), or, for a
 * file the desktop app read where it lives, its path (sessions do not copy large datasets).
 */
export type SavedFile =
  { readonly name: string; readonly base64: string } | { readonly name: string; readonly path: string };

/** A saved analysis: the data (embedded or by path), every setting and every result, as plain JSON. */
export interface SessionDoc {
  readonly version: 1;
  readonly app: 'stratify';
  readonly savedAt: string;
  readonly files: readonly SavedFile[];
  readonly populationFile?: SavedFile;
  /** A coordinates file of sampling sites applied after reading (the Map view). */
  readonly sitesFile?: SavedFile;
  readonly view: View;
  readonly openOptions?: Omit<OpenOptions, 'populationFile'>;
  readonly filters?: FilterOptions;
  readonly run: {
    algorithm: Algorithm;
    kFrom: number;
    kTo: number;
    starts: number;
    replicates: number;
    epsilon: number;
    seed: number;
    rankBy?: RankBy;
    /** Absent in sessions saved before the admixture model: the mixture model. */
    model?: Model;
    tolerance?: number;
    cvFolds?: number;
    /** Absent in sessions saved before adaptive starts: every start ran. */
    startsRule?: StartsRule;
    /** Supervised admixture's reference populations (absent: none). */
    references?: string[];
    /**
     * Saved while a sweep ran: its K values and replicates (`runs` then holds the runs it had
     * finished), so that a session closed mid-sweep can continue it.
     */
    interrupted?: { kValues: number[]; replicates: number };
  };
  readonly plot: {
    palette: string[];
    populationOrder: string[];
    shownK: number[];
    groupByRegion: boolean;
    /** Absent in sessions saved before per-row sorting: one order for all rows. */
    sortEachRow?: boolean;
    barHeight: number;
    /** Absent in sessions saved before the Map view. */
    mapK?: number;
  };
  readonly runs: readonly {
    K: number;
    replicate: number;
    logLik: number;
    completedStarts: number;
    Q: number[];
    weights: number[];
    informative: number[];
    independence: number[];
    theta: number[];
    /** Absent in sessions saved before the admixture model: the mixture model. */
    model?: Model;
    cvError?: number;
    /** Sweeps with --algorithm auto (absent in sessions saved before it). */
    algorithmChoice?: RunInfo['algorithmChoice'];
  }[];
  /** Absent in sessions saved before the PCA view. */
  readonly pca?: {
    settings: PcaSettings;
    result?: PcaInfo;
  };
  /**
   * The Structure view's bootstrap intervals and model-fit check, of the runs saved here (absent
   * in sessions saved before they were saved, or when none was computed).
   */
  readonly trust?: {
    readonly bootstrap?: EncodedBootstrap;
    readonly fitCheck?: EncodedFitCheck;
    readonly projection?: EncodedProjection;
  };
  /** Absent in sessions saved before the Assign view was saved. */
  readonly assign?: {
    settings: AssignSettings;
    result?: EncodedAssign;
    resultFolds?: number;
    resultBy?: AssignSettings['by'];
  };
}

/**
 * Bootstrap intervals as plain JSON; `shown`: the memberships of the bar-plot row whose columns
 * they follow, when whiskers were drawn (on reopening they are drawn on the row that shows them).
 */
export type EncodedBootstrap = Omit<BootstrapInfo, 'se' | 'lower' | 'upper'> & {
  se: number[];
  lower: number[];
  upper: number[];
  shown?: number[];
};

/**
 * A fit check as plain JSON: the population means (null where a population has no pair), and the
 * matrix of every pair as base64 of its float32 bytes up to FIT_MATRIX_SAVED individuals (beyond,
 * a reopened session shows the population means; a new check draws the pairs again).
 */
export type EncodedFitCheck = Omit<FitCheckInfo, 'matrix' | 'means'> & { means: (number | null)[]; matrix?: string };

/** The most individuals whose fit-check matrix a session keeps (1,000: 4 MB of float32). */
export const FIT_MATRIX_SAVED = 1000;

export function encodeBootstrap(b: BootstrapInfo, shown?: Float64Array): EncodedBootstrap {
  return {
    ...b,
    se: Array.from(b.se),
    lower: Array.from(b.lower),
    upper: Array.from(b.upper),
    ...(shown ? { shown: Array.from(shown) } : {}),
  };
}

/** Decodes saved intervals, checking that they fit `individuals`; throws a readable error if not. */
export function decodeBootstrap(
  e: EncodedBootstrap,
  individuals: number,
): { info: BootstrapInfo; shown?: Float64Array } {
  const size = individuals * e.K;
  if ([e.se, e.lower, e.upper, ...(e.shown ? [e.shown] : [])].some((a) => a.length !== size))
    throw new Error('the saved bootstrap intervals do not fit the dataset');
  const { se, lower, upper, shown, ...rest } = e;
  return {
    info: { ...rest, se: Float64Array.from(se), lower: Float64Array.from(lower), upper: Float64Array.from(upper) },
    ...(shown ? { shown: Float64Array.from(shown) } : {}),
  };
}

export function encodeFitCheck(f: FitCheckInfo): EncodedFitCheck {
  const { matrix, means, ...rest } = f;
  return {
    ...rest,
    means: Array.from(means, (x) => (Number.isFinite(x) ? x : null)),
    ...(matrix && f.N <= FIT_MATRIX_SAVED
      ? { matrix: toBase64(new Uint8Array(matrix.buffer, matrix.byteOffset, matrix.byteLength)) }
      : {}),
  };
}

/** Decodes a saved fit check, checking that it fits `individuals`; throws a readable error if not. */
export function decodeFitCheck(e: EncodedFitCheck, individuals: number): FitCheckInfo {
  const G = e.populations.length;
  if (e.N !== individuals || e.means.length !== G * G) throw new Error('the saved fit check does not fit the dataset');
  const { matrix, means, ...rest } = e;
  let decoded: Float32Array | undefined;
  if (matrix !== undefined) {
    const bytes = fromBase64(matrix);
    if (bytes.length !== individuals * individuals * 4) throw new Error('the saved fit check does not fit the dataset');
    decoded = new Float32Array(bytes.buffer, bytes.byteOffset, individuals * individuals);
  }
  return {
    ...rest,
    means: Float64Array.from(means, (x) => x ?? NaN),
    ...(decoded ? { matrix: decoded } : {}),
  };
}

/** New samples projected onto the saved runs, as plain JSON (the samples are not the dataset's). */
export type EncodedProjection = Omit<ProjectionInfo, 'Q' | 'copies'> & { Q: number[]; copies: number[] };

export function encodeProjection(p: ProjectionInfo): EncodedProjection {
  return { ...p, Q: Array.from(p.Q), copies: Array.from(p.copies) };
}

export function decodeProjection(e: EncodedProjection): ProjectionInfo {
  return { ...e, Q: Float64Array.from(e.Q), copies: Int32Array.from(e.copies) };
}

/** An assignment result as plain JSON (typed arrays as number arrays). */
export type EncodedAssign = Omit<AssignInfo, 'confusion' | 'posterior' | 'labels' | 'exclusion'> & {
  confusion: number[];
  posterior: number[];
  labels: number[];
  exclusion?: number[];
};

export function encodeAssign(a: AssignInfo): EncodedAssign {
  const { confusion, posterior, labels, exclusion, ...rest } = a;
  return {
    ...rest,
    confusion: Array.from(confusion),
    posterior: Array.from(posterior),
    labels: Array.from(labels),
    ...(exclusion ? { exclusion: Array.from(exclusion) } : {}),
  };
}

/** Decodes a saved assignment, checking that its tables fit `individuals`; throws a readable error if not. */
export function decodeAssign(e: EncodedAssign, individuals: number): AssignInfo {
  const K = Array.isArray(e.classes) ? e.classes.length : 0;
  if (
    K < 2 ||
    !Array.isArray(e.confusion) ||
    e.confusion.length !== K * K ||
    !Array.isArray(e.posterior) ||
    e.posterior.length !== individuals * K ||
    !Array.isArray(e.labels) ||
    e.labels.length !== individuals ||
    !Array.isArray(e.unlabelled) ||
    (e.exclusion !== undefined && e.exclusion.length !== e.unlabelled.length * K)
  )
    throw new Error('the saved assignment does not fit the dataset');
  const { confusion, posterior, labels, exclusion, ...rest } = e;
  return {
    ...rest,
    confusion: Int32Array.from(confusion),
    posterior: Float64Array.from(posterior),
    labels: Int32Array.from(labels),
    ...(exclusion ? { exclusion: Float64Array.from(exclusion) } : {}),
  };
}

export function toBase64(bytes: Uint8Array): string {
  let s = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) s += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(s);
}

export function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export function encodeFile(f: FileInput): SavedFile {
  return isFileGrant(f) ? { name: f.name, path: f.path } : { name: f.name, base64: toBase64(f.bytes) };
}

/**
 * The saved files as the engine takes them: embedded ones decoded, files by path matched to the
 * grants main made when it opened the session (`opened`: its own dialog or its autosave). A file
 * by path without a grant is refused: in a browser (only the desktop app reads from disk), or when
 * main could not grant it (its reason said: "no such file", "not a file"…).
 */
export function decodeFiles(
  saved: readonly SavedFile[],
  opened?: Pick<OpenedSession, 'grants' | 'refused'>,
): FileInput[] {
  const byPath = new Map((opened?.grants ?? []).map((g) => [g.path, g]));
  const reasons = new Map((opened?.refused ?? []).map((r) => [r.path, r.reason]));
  const lost = saved.flatMap((f) => ('path' in f && !byPath.has(f.path) ? [f.path] : []));
  if (lost.length > 0) {
    if (!opened)
      throw new Error(
        `the session reads ${lost.join(', ')} from disk, which only the desktop app can do; open it there`,
      );
    const said = lost.filter((p) => reasons.has(p));
    throw new Error(
      said.length > 0
        ? `the session reads ${said.map((p) => `${p} (${reasons.get(p)!})`).join(', ')}, which the app cannot open`
        : `the session reads ${lost.join(', ')}, which the app did not open for it`,
    );
  }
  return saved.map((f) => ('path' in f ? byPath.get(f.path)! : { name: f.name, bytes: fromBase64(f.base64) }));
}

export function encodeRuns(runs: readonly RunInfo[]): SessionDoc['runs'] {
  return runs.map((r) => ({
    K: r.K,
    replicate: r.replicate,
    logLik: r.logLik,
    completedStarts: r.completedStarts,
    Q: Array.from(r.Q),
    weights: Array.from(r.weights),
    informative: Array.from(r.informative),
    independence: Array.from(r.independence),
    theta: Array.from(r.theta),
    model: r.model,
    ...(r.cvError !== undefined ? { cvError: r.cvError } : {}),
    ...(r.algorithmChoice ? { algorithmChoice: r.algorithmChoice } : {}),
  }));
}

/** The saved runs as the engine takes them; each must have one row of Q per individual (`individuals`). */
export function decodeRuns(runs: SessionDoc['runs'], individuals: number): RunInfo[] {
  runs.forEach((r, k) => {
    if (r.Q.length !== individuals * r.K)
      throw new Error(
        `the session's runs[${k}] has ${r.Q.length / r.K} individuals, the dataset ${individuals}: the results do not belong to this data`,
      );
  });
  return runs.map((r) => ({
    ...r,
    Q: Float64Array.from(r.Q),
    weights: Float64Array.from(r.weights),
    informative: Float64Array.from(r.informative),
    independence: Float64Array.from(r.independence),
    theta: Float64Array.from(r.theta),
    model: r.model === 'admixture' ? 'admixture' : 'mixture',
  }));
}

/** The views a session can reopen on. */
const VIEWS: readonly View[] = ['data', 'run', 'structure', 'k', 'markers', 'assign', 'pca', 'map'];

/** A readable refusal: what is wrong and where in the session file. */
function bad(where: string, what: string): never {
  throw new Error(`the session file is damaged or from another version: ${where} ${what}`);
}
const isInt = (v: unknown, min: number) => typeof v === 'number' && Number.isInteger(v) && v >= min;
const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const numbers = (v: unknown) => Array.isArray(v) && v.every(isNum);
const isBase64 = (v: unknown) => typeof v === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(v);

function checkFile(f: unknown, where: string): void {
  const x = f as { name?: unknown; base64?: unknown; path?: unknown } | null;
  if (!x || typeof x.name !== 'string') bad(where, 'is not a file');
  if (typeof x.path === 'string' && x.base64 === undefined) return;
  if (typeof x.base64 !== 'string') bad(where, 'is not a file');
  if (!isBase64(x.base64)) bad(where, 'is not base64');
}

/**
 * Checks that a parsed JSON document is a whole Stratify session, field by field (types, allowed
 * values, table shapes), so that a tampered or foreign file is refused with a readable error
 * before anything is restored.
 */
export function checkSession(doc: unknown): SessionDoc {
  const d = doc as Partial<SessionDoc> | null;
  if (!d || typeof d !== 'object' || d.app !== 'stratify' || d.version !== 1)
    throw new Error('not a Stratify session (version 1) file');
  if (!Array.isArray(d.files) || d.files.length === 0) throw new Error('the session holds no dataset');
  d.files.forEach((f, k) => checkFile(f, `files[${k}]`));
  if (d.populationFile !== undefined) checkFile(d.populationFile, 'populationFile');
  if (d.sitesFile !== undefined) checkFile(d.sitesFile, 'sitesFile');
  if (!VIEWS.includes(d.view as View)) bad('view', `"${String(d.view)}" is not a view`);
  const r = d.run as Record<string, unknown> | undefined;
  if (!r || typeof r !== 'object') bad('run', 'is missing');
  if (!ALGORITHM.values.includes(r.algorithm as Algorithm)) bad('run.algorithm', 'is not an algorithm');
  for (const k of ['kFrom', 'kTo', 'starts', 'replicates'] as const)
    if (!isInt(r[k], 1)) bad(`run.${k}`, 'is not a positive whole number');
  if (!(isNum(r.epsilon) && (r.epsilon as number) > 0 && (r.epsilon as number) < 1))
    bad('run.epsilon', 'is not between 0 and 1');
  if (!isNum(r.seed)) bad('run.seed', 'is not a number');
  if (r.rankBy !== undefined && !RANK_BY.values.includes(r.rankBy as RankBy)) bad('run.rankBy', 'is not a ranking');
  if (r.model !== undefined && !MODEL.values.includes(r.model as Model)) bad('run.model', 'is not a model');
  if (r.tolerance !== undefined && !(isNum(r.tolerance) && (r.tolerance as number) > 0))
    bad('run.tolerance', 'is not positive');
  if (r.cvFolds !== undefined && !isInt(r.cvFolds, 0)) bad('run.cvFolds', 'is not a whole number');
  if (r.startsRule !== undefined && !isChoice(STARTS_RULE, r.startsRule)) bad('run.startsRule', 'is not a starts rule');
  if (r.references !== undefined && !(Array.isArray(r.references) && r.references.every((x) => typeof x === 'string')))
    bad('run.references', 'is not a list of names');
  if (r.interrupted !== undefined) {
    const i = r.interrupted as Record<string, unknown>;
    if (!i || typeof i !== 'object' || !Array.isArray(i.kValues) || !i.kValues.every((k) => isInt(k, 1)))
      bad('run.interrupted.kValues', 'is not a list of K');
    if (!isInt(i.replicates, 1)) bad('run.interrupted.replicates', 'is not a positive whole number');
  }
  const p = d.plot as Record<string, unknown> | undefined;
  if (!p || typeof p !== 'object') bad('plot', 'is missing');
  if (!Array.isArray(p.palette) || !p.palette.every((c) => typeof c === 'string' && /^#[0-9a-fA-F]{6}$/.test(c)))
    bad('plot.palette', 'is not a list of colours');
  if (!Array.isArray(p.populationOrder) || !p.populationOrder.every((x) => typeof x === 'string'))
    bad('plot.populationOrder', 'is not a list of names');
  if (!Array.isArray(p.shownK) || !p.shownK.every((k) => isInt(k, 1))) bad('plot.shownK', 'is not a list of K');
  if (typeof p.groupByRegion !== 'boolean') bad('plot.groupByRegion', 'is not true or false');
  if (p.sortEachRow !== undefined && typeof p.sortEachRow !== 'boolean')
    bad('plot.sortEachRow', 'is not true or false');
  if (!(isNum(p.barHeight) && (p.barHeight as number) >= 10 && (p.barHeight as number) <= 1000))
    bad('plot.barHeight', 'is out of range');
  if (p.mapK !== undefined && !isInt(p.mapK, 0)) bad('plot.mapK', 'is not a whole number');
  if (!Array.isArray(d.runs)) bad('runs', 'is not a list');
  d.runs.forEach((run, k) => {
    const x = run as unknown as Record<string, unknown>;
    const where = `runs[${k}]`;
    if (!isInt(x.K, 1) || !isInt(x.replicate, 0) || !isNum(x.logLik) || !isInt(x.completedStarts, 0))
      bad(where, 'lacks K, replicate, log-likelihood or starts');
    for (const t of ['Q', 'weights', 'informative', 'independence', 'theta'])
      if (!numbers(x[t])) bad(`${where}.${t}`, 'is not a list of numbers');
    if ((x.Q as number[]).length % (x.K as number) !== 0 || (x.weights as number[]).length !== x.K)
      bad(where, 'has tables that do not fit its K');
    if (x.model !== undefined && !MODEL.values.includes(x.model as Model)) bad(`${where}.model`, 'is not a model');
    if (x.algorithmChoice !== undefined && !isAlgorithmChoice(x.algorithmChoice))
      bad(`${where}.algorithmChoice`, 'is not an algorithm choice');
  });
  if (d.pca !== undefined) {
    const s = d.pca.settings as Partial<PcaSettings> | undefined;
    if (
      !s ||
      !isInt(s.pcs, 1) ||
      !isInt(s.xPc, 1) ||
      !isInt(s.yPc, 1) ||
      !(s.colourBy === 'population' || s.colourBy === 'group' || s.colourBy === 'cluster' || s.colourBy === 'pies') ||
      (s.clusterK !== undefined && !isInt(s.clusterK, 0))
    )
      bad('pca.settings', 'are not valid PCA settings');
    const r = d.pca.result as Partial<PcaInfo> | undefined;
    if (
      r !== undefined &&
      !(
        isInt(r.pcs, 1) &&
        numbers(r.eigenvalues) &&
        (r.eigenvalues as number[]).length === r.pcs &&
        numbers(r.varianceFraction) &&
        (r.varianceFraction as number[]).length === r.pcs &&
        numbers(r.vectors) &&
        (r.vectors as number[]).length % (r.pcs as number) === 0 &&
        (r.method === 'exact' || r.method === 'randomized') &&
        isInt(r.columns, 1) &&
        isInt(r.loci, 1) &&
        isInt(r.iterations, 0) &&
        typeof r.converged === 'boolean'
      )
    )
      bad('pca.result', 'is not a PCA result');
  }
  if (d.trust !== undefined) checkTrust(d.trust);
  if (d.assign !== undefined) {
    const a = d.assign.settings as Partial<AssignSettings> | undefined;
    const ok =
      !!a &&
      ASSIGN_BY.values.includes(a.by!) &&
      CLASSIFIER.values.includes(a.classifier!) &&
      LEARNING.values.includes(a.learning!) &&
      (a.score === '' || SCORE.values.includes(a.score!)) &&
      VARIABLES.values.includes(a.variables!) &&
      isInt(a.folds, 2) &&
      typeof a.curve === 'boolean';
    if (!ok) bad('assign.settings', 'are not valid Assign settings');
  }
  return d as SessionDoc;
}

function checkTrust(t: unknown): void {
  if (!t || typeof t !== 'object') bad('trust', 'is not an object');
  const {
    bootstrap: b,
    fitCheck: f,
    projection: p,
  } = t as {
    bootstrap?: Record<string, unknown>;
    fitCheck?: Record<string, unknown>;
    projection?: Record<string, unknown>;
  };
  if (p !== undefined) {
    const individuals = p?.['individuals'];
    const m = p?.['markers'] as Record<string, unknown> | undefined;
    const n = Array.isArray(individuals) ? individuals.length : -1;
    const ok =
      !!p &&
      isInt(p.K, 1) &&
      MODEL.values.includes(p.model as Model) &&
      typeof p.file === 'string' &&
      typeof p.run === 'string' &&
      n >= 1 &&
      (individuals as unknown[]).every(
        (i) =>
          !!i &&
          typeof (i as { id?: unknown }).id === 'string' &&
          ['population', 'group'].every((k) => {
            const v = (i as Record<string, unknown>)[k];
            return v === undefined || typeof v === 'string';
          }),
      ) &&
      numbers(p.Q) &&
      (p.Q as number[]).length === n * (p.K as number) &&
      Array.isArray(p.copies) &&
      p.copies.every((c) => isInt(c, 0)) &&
      p.copies.length === n &&
      (p.frequencyPrior === undefined || (isNum(p.frequencyPrior) && (p.frequencyPrior as number) >= 0)) &&
      !!m &&
      typeof m === 'object' &&
      Object.values(m).every((v) => typeof v === 'string' || isInt(v, 0));
    if (!ok) bad('trust.projection', 'is not a projection');
  }
  if (b !== undefined) {
    const ok =
      !!b &&
      isInt(b.K, 1) &&
      isInt(b.replicate, 0) &&
      isInt(b.B, 2) &&
      (b.blocks === undefined || isInt(b.blocks, 1)) &&
      ['se', 'lower', 'upper'].every((k) => numbers(b[k])) &&
      (b.shown === undefined || numbers(b.shown));
    if (!ok) bad('trust.bootstrap', 'is not a set of bootstrap intervals');
  }
  if (f !== undefined) {
    const ok =
      !!f &&
      isInt(f.K, 1) &&
      isInt(f.replicate, 0) &&
      MODEL.values.includes(f.model as Model) &&
      isInt(f.N, 1) &&
      Array.isArray(f.populations) &&
      f.populations.every((p) => typeof p === 'string') &&
      Array.isArray(f.means) &&
      f.means.every((x) => x === null || isNum(x)) &&
      isInt(f.loci, 0) &&
      isInt(f.lociTotal, 0) &&
      isInt(f.iterations, 0) &&
      (f.note === undefined || typeof f.note === 'string') &&
      (f.matrix === undefined || isBase64(f.matrix));
    if (!ok) bad('trust.fitCheck', 'is not a fit check');
  }
}

const DB = 'stratify';
const STORE = 'autosave';

function db(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * Keeps the latest session: in the desktop app in main's own folder (main checks it lists only
 * files this window opened), in a browser in IndexedDB (one transaction: the old copy stays until
 * the new one commits).
 */
export async function autosave(doc: SessionDoc): Promise<void> {
  const desktop = window.stratify;
  if (desktop?.isDesktop) return desktop.autosaveSession(JSON.stringify(doc));
  const d = await db();
  await new Promise<void>((resolve, reject) => {
    const tx = d.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(JSON.stringify(doc), 'latest');
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  d.close();
}

/** A session to restore, with what main granted for it in the desktop app. */
export interface RestorableSession {
  readonly doc: SessionDoc;
  readonly opened?: Pick<OpenedSession, 'grants' | 'refused'>;
}

/** A session main opened (its dialog or its autosave), checked; throws with the field at fault. */
export function openedSession(opened: OpenedSession): RestorableSession {
  return { doc: checkSession(JSON.parse(opened.text)), opened };
}

export async function loadAutosave(): Promise<RestorableSession | null> {
  const desktop = window.stratify;
  try {
    if (desktop?.isDesktop) {
      const opened = await desktop.restoreAutosave();
      return opened ? openedSession(opened) : null;
    }
    const d = await db();
    const text = await new Promise<string | undefined>((resolve, reject) => {
      const req = d.transaction(STORE, 'readonly').objectStore(STORE).get('latest');
      req.onsuccess = () => resolve(req.result as string | undefined);
      req.onerror = () => reject(req.error);
    });
    d.close();
    return text ? { doc: checkSession(JSON.parse(text)) } : null;
  } catch {
    return null;
  }
}
