// A session's results to and from plain JSON: typed arrays as base64, files embedded or by path.
import type {
  AssignInfo,
  BootstrapInfo,
  FileInput,
  FitCheckInfo,
  ProjectionInfo,
  RunInfo,
} from '../../../engine/runtime/engine-protocol.ts';
import { isFileGrant } from '../../../engine/runtime/engine-protocol.ts';
import type { OpenedSession } from '../../../shared/ipc-contract.ts';

import type {
  SavedFile,
  SessionDoc,
  EncodedBootstrap,
  EncodedFitCheck,
  EncodedProjection,
  EncodedAssign,
} from './session.ts';

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

export function encodeProjection(p: ProjectionInfo): EncodedProjection {
  return { ...p, Q: Array.from(p.Q), copies: Array.from(p.copies) };
}

export function decodeProjection(e: EncodedProjection): ProjectionInfo {
  return { ...e, Q: Float64Array.from(e.Q), copies: Int32Array.from(e.copies) };
}

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
