import type { Model } from '../../../engine/util/choices.ts';
import type { AssignInfo, FileBytes, OpenOptions, RunInfo } from '../../../engine/runtime/engine-protocol.ts';
import type { AssignSettings } from './assign.svelte.ts';
import type { FilterOptions } from '../../../engine/runtime/engine-protocol.ts';
import type { View } from './app.svelte.ts';
import type { Algorithm, RankBy } from '../../../engine/util/choices.ts';

/** A saved analysis: the data (embedded), every setting and every result, as plain JSON. */
export interface ProjectDoc {
  readonly version: 1;
  readonly app: 'stratify';
  readonly savedAt: string;
  readonly files: readonly { name: string; base64: string }[];
  readonly populationFile?: { name: string; base64: string };
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
    /** Absent in projects saved before the admixture model: the mixture model. */
    model?: Model;
    tolerance?: number;
    cvFolds?: number;
  };
  readonly plot: {
    palette: string[];
    populationOrder: string[];
    shownK: number[];
    groupByRegion: boolean;
    /** Absent in projects saved before per-row sorting: one order for all rows. */
    sortEachRow?: boolean;
    barHeight: number;
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
    /** Absent in projects saved before the admixture model: the mixture model. */
    model?: Model;
    cvError?: number;
  }[];
  /** Absent in projects saved before the Assign view was saved. */
  readonly assign?: {
    settings: AssignSettings;
    result?: EncodedAssign;
    resultFolds?: number;
    resultBy?: AssignSettings['by'];
  };
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

export function encodeFile(f: FileBytes): { name: string; base64: string } {
  return { name: f.name, base64: toBase64(f.bytes) };
}

export function decodeFile(f: { name: string; base64: string }): FileBytes {
  return { name: f.name, bytes: fromBase64(f.base64) };
}

export function encodeRuns(runs: readonly RunInfo[]): ProjectDoc['runs'] {
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
  }));
}

export function decodeRuns(runs: ProjectDoc['runs']): RunInfo[] {
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

/** Checks that a parsed JSON document is a Stratify project; throws a readable error if not. */
export function checkProject(doc: unknown): ProjectDoc {
  const d = doc as Partial<ProjectDoc> | null;
  if (!d || d.app !== 'stratify' || d.version !== 1) throw new Error('not a Stratify project (version 1) file');
  if (!Array.isArray(d.files) || d.files.length === 0) throw new Error('the project holds no dataset');
  if (!Array.isArray(d.runs) || !d.run || !d.plot) throw new Error('the project is incomplete');
  return d as ProjectDoc;
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

/** Keeps the latest project in IndexedDB (one transaction: the old copy stays until the new one commits). */
export async function autosave(doc: ProjectDoc): Promise<void> {
  const d = await db();
  await new Promise<void>((resolve, reject) => {
    const tx = d.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(JSON.stringify(doc), 'latest');
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  d.close();
}

export async function loadAutosave(): Promise<ProjectDoc | null> {
  try {
    const d = await db();
    const text = await new Promise<string | undefined>((resolve, reject) => {
      const req = d.transaction(STORE, 'readonly').objectStore(STORE).get('latest');
      req.onsuccess = () => resolve(req.result as string | undefined);
      req.onerror = () => reject(req.error);
    });
    d.close();
    return text ? checkProject(JSON.parse(text)) : null;
  } catch {
    return null;
  }
}
