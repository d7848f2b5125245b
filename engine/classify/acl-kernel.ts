import { ACL_SCORE_WASM } from './generated/acl-score-wasm.ts';
import { compileBase64 } from '../util/wasm-module.ts';

/** The arrays of a LocalScorer the kernel reads. */
export interface AclScorerArrays {
  readonly N: number;
  readonly K: number;
  /** Feature-major columns, a missing value as the feature's states. */
  readonly cols: Int16Array;
  /** Per feature, its labelled rows where it is observed. */
  readonly rowsOf: readonly Int32Array[];
  readonly labels: Int32Array;
  /** States per feature (a missing value is one more). */
  readonly states: Int32Array;
  readonly lnInt: Float64Array;
  readonly restWeights: Float64Array;
  /** The most states of a feature. */
  readonly widest: number;
  /** Cells of the dense table at most. */
  readonly denseCells: number;
}

type AclScore = (...args: number[]) => number;

let compiled: WebAssembly.Module | null | undefined;

/**
 * ACL's local score with maximum-likelihood parameters for dense tables of at most two parents in
 * WebAssembly (scripts/kernels/assembly/acl-score.ts: LocalScorer.conditionalScore's written-out
 * case, the same bits), over a memory holding the scorer's arrays. Undefined where WebAssembly is
 * missing.
 */
export function aclKernel(a: AclScorerArrays): ((i: number, parents: readonly number[]) => number) | undefined {
  if (compiled === undefined) compiled = compileBase64(ACL_SCORE_WASM);
  if (!compiled) return undefined;
  const { N, K, cols, rowsOf, labels, states, lnInt, restWeights } = a;
  let bytes = 0;
  const place = (n: number) => {
    const at = bytes;
    bytes += Math.ceil(n / 16) * 16;
    return at;
  };
  const at = {
    cols: place(cols.byteLength),
    labels: place(labels.byteLength),
    lnInt: place(lnInt.byteLength),
    weights: place(restWeights.byteLength),
    rows: rowsOf.map((r) => place(r.byteLength)),
    table: place(4 * a.denseCells),
    counted: place(4 * a.denseCells),
    touched: place(4 * Math.max(1, N)),
    M: place(8 * Math.max(1, a.widest)),
  };
  // The module declares a maximum (scripts/kernels/wasm-acl-score.mjs: --maximumMemory 65536 pages).
  const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) + 1, maximum: 65536 });
  const buffer = memory.buffer;
  new Int16Array(buffer, at.cols, cols.length).set(cols);
  new Int32Array(buffer, at.labels, labels.length).set(labels);
  new Float64Array(buffer, at.lnInt, lnInt.length).set(lnInt);
  new Float64Array(buffer, at.weights, restWeights.length).set(restWeights);
  rowsOf.forEach((r, i) => new Int32Array(buffer, at.rows[i]!, r.length).set(r));
  const score = new WebAssembly.Instance(compiled, { env: { memory } }).exports['aclScore'] as AclScore;
  return (i, parents) => {
    const np = parents.length;
    const p0 = np > 0 ? parents[0]! : 0;
    const p1 = np > 1 ? parents[1]! : 0;
    return score(
      at.cols,
      N,
      at.rows[i]!,
      rowsOf[i]!.length,
      at.labels,
      at.lnInt,
      at.weights,
      at.table,
      at.counted,
      at.touched,
      at.M,
      i,
      np,
      p0,
      p1,
      np > 1 ? states[p1]! + 1 : 1,
      states[i]!,
      K,
    );
  };
}
