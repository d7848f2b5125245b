import { alleleOffsets, type GenotypeData } from '../data/genotype-data.ts';
import { onReferenceMarkers, type MarkerMatchCounts, type ReferenceLocus } from '../data/marker-match.ts';
import { FormatError } from '../io/format-error.ts';
import { projectWork, unpackProjection, type ProjectTask } from './project-share.ts';
import type { StartRunner } from './start-runner.ts';
import { eStep, eStepBuffers } from '../model/mixture/e-step.ts';
import { buildPreparedData } from '../model/prepared/prepared-data.ts';
import { FREQUENCY_PRIOR, type Model } from '../util/choices.ts';
import { alignToReference, permuteColumns } from '../model/align.ts';
import { likeliestRunAtK, type SweepRun } from '../model/sweep.ts';

/** A fitted model to project onto: its markers and its frequencies per (marker, allele) and cluster. */
export interface Reference {
  readonly file: string;
  readonly K: number;
  /** What the frequencies came from: ancestry (admixture) or clusters of the mixture model. */
  readonly model: Model;
  readonly loci: readonly ReferenceLocus[];
  /** shape (Σ alleles, K). */
  readonly F: Float64Array;
  /** The mixture model's cluster weights (absent for the admixture model and .P files). */
  readonly weights?: Float64Array;
  /**
   * Allele copies of each cluster in the reference sample, ploidy × Σ_i q_ik (the weight of the
   * frequencies against a new individual's own copies; absent for .P files, which do not say their sample).
   */
  readonly clusterCopies?: Float64Array;
  /** Which run of the result file, in words. */
  readonly run: string;
  /** A result file's run: the individuals it was fitted to (ids), their Q (shape (N, K)), its ln L and the data's ploidy. */
  readonly fitted?: {
    readonly ids: readonly string[];
    readonly Q: Float64Array;
    readonly logLik: number;
    readonly ploidy: number;
  };
}

/** Which K of a result to project onto: a number, or 'cv', the K of the lowest CV error. */
export type ReferenceK = number | 'cv';

interface ResultJson {
  program?: string;
  dataset?: {
    individuals?: { id: string }[];
    loci?: { name: string; alleles: string[]; chrom?: string | null; pos?: number | null }[];
    ploidy?: number;
  };
  runs?: {
    K: number;
    replicate: number;
    logLik: number;
    model?: string;
    weights: number[];
    frequencies: number[][];
    Q?: number[][];
    cvError?: number;
  }[];
}

/** ploidy × Σ_i Q_ik: each cluster's allele copies in the sample Q (shape (N, K)) was fitted to. */
export function clusterCopies(Q: Float64Array, K: number, ploidy: number): Float64Array {
  const n = new Float64Array(K);
  for (let x = 0; x < Q.length; x++) n[x % K]! += ploidy * Q[x]!;
  return n;
}

/**
 * Reads a reference: a `stratify.json` of run or sweep (the run at K with the highest ln L over
 * replicates; K may be left out when the file holds one K, or be 'cv': the K whose likeliest run
 * has the lowest CV error) or a Stratify `.P` file (columns locus,
 * allele, cluster1..K; read as ancestral frequencies).
 */
export function readReference(file: string, text: string, K?: ReferenceK): Reference {
  if (text.trimStart().startsWith('{')) return resultReference(file, text, K);
  if (K === 'cv') throw new RangeError(`${file}: a .P file has no CV errors to choose K by (give --k)`);
  return pFileReference(file, text, K);
}

function resultReference(file: string, text: string, K?: ReferenceK): Reference {
  let json: ResultJson;
  try {
    json = JSON.parse(text) as ResultJson;
  } catch {
    throw new RangeError(`${file}: not JSON`);
  }
  const loci = json.dataset?.loci;
  if (json.program !== 'stratify' || !Array.isArray(json.runs) || json.runs.length === 0 || !Array.isArray(loci))
    throw new RangeError(`${file}: not a Stratify result with runs (stratify.json of run, sweep or merge)`);
  const ks = [...new Set(json.runs.map((r) => r.K))].sort((a, b) => a - b);
  if (K === undefined && ks.length > 1) throw new RangeError(`${file}: holds K = ${ks.join(', ')}; choose one (--k)`);
  const likeliest = (k: number) => json.runs!.filter((r) => r.K === k).reduce((a, b) => (b.logLik > a.logLik ? b : a));
  let k: number;
  if (K === 'cv') {
    const scored = ks.map((x) => ({ K: x, cv: likeliest(x).cvError })).filter((x) => typeof x.cv === 'number');
    if (scored.length === 0)
      throw new RangeError(`${file}: no CV errors to choose K by (run the sweep with --cv, or give --k)`);
    k = scored.reduce((a, b) => (b.cv! < a.cv! ? b : a)).K;
  } else k = K ?? ks[0]!;
  const runs = json.runs.filter((r) => r.K === k);
  if (runs.length === 0) throw new RangeError(`${file}: no run at K = ${k} (it holds K = ${ks.join(', ')})`);
  const best = likeliest(k);
  const rows = loci.reduce((s, l) => s + Math.max(1, l.alleles.length), 0);
  if (best.frequencies.length !== rows || best.frequencies.some((r) => r.length !== k))
    throw new RangeError(`${file}: the frequencies of K = ${k} do not fit its ${loci.length} loci`);
  const model: Model = best.model === 'admixture' ? 'admixture' : 'mixture';
  const ploidy = json.dataset?.ploidy;
  const sample =
    model === 'admixture' &&
    typeof ploidy === 'number' &&
    ploidy > 0 &&
    Array.isArray(best.Q) &&
    best.Q.every((row) => Array.isArray(row) && row.length === k && row.every((q) => Number.isFinite(q) && q >= 0))
      ? { clusterCopies: clusterCopies(Float64Array.from(best.Q.flat()), k, ploidy) }
      : {};
  return {
    file,
    K: k,
    model,
    loci,
    F: Float64Array.from(best.frequencies.flat()),
    ...(model === 'mixture' ? { weights: Float64Array.from(best.weights) } : {}),
    ...sample,
    run: `K = ${k}, replicate ${best.replicate + 1} of ${runs.length} (highest ln L, ${best.logLik.toFixed(2)})`,
    ...fittedIndividuals(json, best.Q, k, best.logLik),
  };
}

/** The individuals a result's run was fitted to and their Q, where the file has both in shape. */
function fittedIndividuals(
  json: ResultJson,
  Q: number[][] | undefined,
  K: number,
  logLik: number,
): { fitted?: Reference['fitted'] } {
  const ids = json.dataset?.individuals?.map((i) => i.id);
  if (!ids || !Q || Q.length !== ids.length || Q.some((row) => !Array.isArray(row) || row.length !== K)) return {};
  return { fitted: { ids, Q: Float64Array.from(Q.flat()), logLik, ploidy: json.dataset?.ploidy ?? 2 } };
}

function pFileReference(file: string, text: string, K?: number): Reference {
  const lines = text.split(/\r?\n/);
  const header = lines[0]?.split('\t') ?? [];
  if (header[0] !== 'locus' || header[1] !== 'allele' || header.length < 4)
    throw new FormatError(file, 1, 1, 'not a Stratify .P file', 'a header: locus, allele, cluster1, cluster2, …');
  const k = header.length - 2;
  if (K !== undefined && K !== k) throw new RangeError(`${file}: has K = ${k}, not ${K}`);
  const loci: { name: string; alleles: string[] }[] = [];
  const F: number[] = [];
  for (let n = 1; n < lines.length; n++) {
    if (lines[n]!.trim() === '') continue;
    const cells = lines[n]!.split('\t');
    if (cells.length !== k + 2)
      throw new FormatError(file, n + 1, 1, `${cells.length} columns`, `${k + 2} as in the header`);
    const [name, allele] = cells as [string, string];
    const last = loci.at(-1);
    if (last?.name === name) last.alleles.push(allele);
    else loci.push({ name, alleles: [allele] });
    let column = name.length + allele.length + 3;
    for (let c = 0; c < k; c++) {
      const v = Number(cells[c + 2]);
      if (!(v >= 0 && v <= 1))
        throw new FormatError(file, n + 1, column, `frequency "${cells[c + 2]}"`, 'a number from 0 to 1');
      F.push(v);
      column += cells[c + 2]!.length + 1;
    }
  }
  if (loci.length === 0) throw new FormatError(file, 2, 1, 'no frequencies', 'one row per locus and allele');
  return { file, K: k, model: 'admixture', loci, F: Float64Array.from(F), run: `K = ${k}` };
}

/** The new individuals' ancestry (or cluster memberships) on a reference, with how markers matched. */
export interface ProjectionResult {
  readonly reference: { readonly file: string; readonly K: number; readonly model: Model; readonly run: string };
  readonly counts: MarkerMatchCounts;
  /** shape (N, K): ancestry proportions (admixture) or memberships p(cluster | genotypes) (mixture). */
  readonly Q: Float64Array;
  /** Allele copies on matched markers per individual. */
  readonly copies: Int32Array;
  /** ln L per individual at its Q (admixture only). */
  readonly logLik?: Float64Array;
  /**
   * The Dirichlet prior λ of the frequencies the ancestry was scored with (the reference's copies
   * and the individual's own, own-copies.ts); 0: the reference's frequencies as they are (asked
   * for, or a .P file, which has no sample sizes).
   * Absent for a mixture reference.
   */
  readonly frequencyPrior?: number;
}

/**
 * Use case "project": the individuals of `data` placed on a fitted reference without refitting it.
 * For an admixture reference, each individual's ancestry proportions with the frequencies fixed
 * (ADMIXTURE's -P), scored by default with frequencies that hold the reference's copies, the
 * individual's own and a Dirichlet prior of weight `frequencyPrior` per allele, as if the individual
 * alone had been added to the reference's fit with the reference's ancestry held (own-copies.ts;
 * 0: the fitted frequencies as they are, ADMIXTURE's -P exactly); for a mixture reference, each individual's cluster memberships under the
 * fitted model (its E step). Markers are matched by name, else chromosome and position, with the
 * allele checks of onReferenceMarkers; a reference sharing no marker with the data is refused with
 * the counts.
 */
export function projectOnto(
  data: GenotypeData,
  reference: Reference,
  frequencyPrior: number = FREQUENCY_PRIOR,
): ProjectionResult {
  const plan = projectionPlan(data, reference, frequencyPrior);
  if ('result' in plan) return plan.result;
  return { ...plan.head, ...projectHere(plan.data, plan.task) };
}

/** A share of a projection run in this thread (projectWork, unpacked); `onProgress`: individuals done. */
function projectHere(
  data: GenotypeData,
  task: ProjectTask,
  onProgress?: (done: number) => void,
): { Q: Float64Array; logLik: Float64Array; copies: Int32Array } {
  const steps = projectWork(data, task);
  for (;;) {
    const r = steps.next();
    if (r.done) return unpackProjection(r.value, task.count, task.K);
    onProgress?.(r.value.iteration);
  }
}

/**
 * {@link projectOnto} with the individuals shared among `runner`'s workers (a share each, in
 * order; the same numbers as in one thread, which runners without projection use);
 * `onProgress` gets the individuals projected so far and the total.
 */
export async function projectOntoWith(
  runner: StartRunner | undefined,
  data: GenotypeData,
  reference: Reference,
  frequencyPrior: number = FREQUENCY_PRIOR,
  signal?: AbortSignal,
  onProgress?: (done: number, total: number) => void,
): Promise<ProjectionResult> {
  const plan = projectionPlan(data, reference, frequencyPrior);
  if ('result' in plan) return plan.result;
  const N = plan.data.individuals.length;
  const shares = runner?.runProjection ? Math.min(runner.size ?? 1, N) : 1;
  if (shares <= 1 || !runner?.runProjection)
    return { ...plan.head, ...projectHere(plan.data, plan.task, (done) => onProgress?.(done, N)) };
  const tasks: ProjectTask[] = Array.from({ length: shares }, (_, s) => {
    const first = Math.floor((s * N) / shares);
    return { ...plan.task, first, count: Math.floor(((s + 1) * N) / shares) - first };
  });
  const run = await runner.runProjection(plan.data, tasks, signal, (done) => onProgress?.(done, N));
  if (run.cancelled) throw new DOMException('the projection was cancelled', 'AbortError');
  const { K } = plan.task;
  const Q = new Float64Array(N * K);
  const copies = new Int32Array(N);
  const logLik = new Float64Array(N);
  tasks.forEach((t, s) => {
    const share = unpackProjection(run.results[s]!, t.count, K);
    Q.set(share.Q, t.first * K);
    copies.set(share.copies, t.first);
    logLik.set(share.logLik, t.first);
  });
  return { ...plan.head, Q, copies, logLik };
}

/**
 * What projecting `data` onto `reference` takes: the data on the reference's markers and, for an
 * admixture reference, the task (the whole range) and the result's head; a mixture reference's
 * result at once (one E step).
 */
function projectionPlan(
  data: GenotypeData,
  reference: Reference,
  frequencyPrior: number,
):
  | { readonly result: ProjectionResult }
  | {
      readonly data: GenotypeData;
      readonly task: ProjectTask;
      readonly head: Omit<ProjectionResult, 'Q' | 'copies' | 'logLik'>;
    } {
  const { data: onRef, counts } = onReferenceMarkers(data, reference.loci);
  if (counts.matched === 0)
    throw new RangeError(
      `${reference.file}: none of its ${counts.reference} markers is usable in the data (${counts.data} markers matched by ${counts.by}; ` +
        `${counts.ambiguousDropped} A/T or C/G dropped, ${counts.mismatched} with other alleles dropped)`,
    );
  const { K } = reference;
  const ref = { file: reference.file, K, model: reference.model, run: reference.run };
  if (reference.model === 'mixture') {
    const prepared = buildPreparedData(onRef);
    const buf = eStepBuffers(prepared, K, { resident: false });
    eStep(prepared, { K, weights: reference.weights!, theta: reference.F }, buf);
    const copies = new Int32Array(onRef.individuals.length);
    const N = onRef.individuals.length;
    const P = onRef.ploidy;
    for (let x = 0; x < onRef.calls.length; x++) if (onRef.calls[x]! >= 0) copies[Math.floor(x / P) % N]!++;
    return { result: { reference: ref, counts, Q: buf.posterior, copies } };
  }
  const offsets = alleleOffsets(onRef);
  const sample = reference.clusterCopies;
  const prior = sample ? frequencyPrior : 0;
  const N = onRef.individuals.length;
  return {
    data: onRef,
    task: {
      K,
      F: reference.F,
      offsets,
      ...(sample && prior > 0 ? { sample: { clusterCopies: sample, prior } } : {}),
      first: 0,
      count: N,
    },
    head: { reference: ref, counts, frequencyPrior: prior },
  };
}

/** A run of an open sweep as a reference (its data's markers, its frequencies and weights). */
export function referenceFromRun(data: GenotypeData, run: SweepRun, file: string): Reference {
  const model: Model = run.model ?? 'mixture';
  const c = run.clustering;
  return {
    file,
    K: run.K,
    model,
    loci: data.loci,
    F: c.model.theta,
    ...(model === 'mixture' ? { weights: c.model.weights } : { clusterCopies: clusterCopies(c.Q, run.K, data.ploidy) }),
    run: `K = ${run.K}, replicate ${run.replicate + 1} (ln L ${c.logLik.toFixed(2)})`,
  };
}

/**
 * Use case "project onto a sweep": new individuals on the run at K with the highest ln L, their
 * clusters in the order of `shown` (the memberships a view draws at K, shape (N, K)) when given,
 * so the new bars take the colours of the plot they stand beside; `frequencyPrior` as projectOnto's;
 * the individuals shared among `runner`'s workers as projectOntoWith.
 */
export async function projectOntoSweep(
  runner: StartRunner | undefined,
  data: GenotypeData,
  runs: readonly SweepRun[],
  K: number,
  samples: GenotypeData,
  shown?: Float64Array,
  frequencyPrior: number = FREQUENCY_PRIOR,
  signal?: AbortSignal,
  onProgress?: (done: number, total: number) => void,
): Promise<ProjectionResult> {
  const run = likeliestRunAtK(runs, K);
  const result = await projectOntoWith(
    runner,
    samples,
    referenceFromRun(data, run, data.source?.file ?? 'the open dataset'),
    frequencyPrior,
    signal,
    onProgress,
  );
  const N = data.individuals.length;
  if (!shown) return result;
  if (shown.length !== N * K) throw new RangeError(`the memberships shown are not (${N}, ${K})`);
  const perm = alignToReference(shown, run.clustering.Q, N, K);
  return { ...result, Q: permuteColumns(result.Q, samples.individuals.length, K, perm) };
}
