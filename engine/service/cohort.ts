// Use cases "cohort plan" and "cohort combine": a cohort too large for one fit is fitted on a
// reference drawn from it, the others are projected onto that fit in shards (each a job of its
// own, reading only its individuals), and the pieces are combined into one result in the input's
// order (docs/scale.md; the workflow's cohort rules run the three steps).
import type { Individual } from '../data/genotype-data.ts';
import { drawReference, splitShards } from '../data/reference-draw.ts';
import { writeP, writeQ } from '../formats/q-files.ts';
import { toText } from '../formats/writers.ts';
import type { ReferenceDraw } from '../util/choices.ts';
import { VERSION } from '../util/version.ts';
import type { Reference } from './project.ts';
import type { ResultFile } from './sweep-files.ts';
import { r, rows } from './result-json.ts';

/** Which individuals are fitted (the reference) and which each shard projects (indices, ascending). */
export interface CohortPlan {
  readonly reference: readonly number[];
  readonly shards: readonly (readonly number[])[];
}

export interface CohortPlanOptions {
  /** The reference's size, drawn with `seed` as `draw` says; or `referenceIds`, the reference given. */
  readonly referenceSize?: number;
  readonly referenceIds?: readonly number[];
  readonly draw: ReferenceDraw;
  readonly seed: number;
  /** Jobs the individuals outside the reference are projected in (consecutive runs, in input order). */
  readonly shards: number;
}

/** Use case "cohort plan": the reference and the shards of a cohort's individuals. */
export function planCohort(individuals: readonly Individual[], o: CohortPlanOptions): CohortPlan {
  const reference = o.referenceIds
    ? [...o.referenceIds]
    : drawReference(individuals, o.referenceSize ?? 0, o.seed, o.draw);
  if (reference.length >= individuals.length)
    throw new RangeError(`the reference holds all ${individuals.length} individuals: none is left to project`);
  const fitted = new Set(reference);
  const rest = individuals.map((_, i) => i).filter((i) => !fitted.has(i));
  return { reference, shards: splitShards(rest, o.shards) };
}

/** A plan as --keep lists: reference.ids, projected.ids (every shard's) and shard.S.ids (1-based). */
export function cohortPlanFiles(individuals: readonly Individual[], plan: CohortPlan): ResultFile[] {
  const ids = (list: readonly number[]) => list.map((i) => `${individuals[i]!.id}\n`).join('');
  return [
    { name: 'reference.ids', text: ids(plan.reference) },
    { name: 'projected.ids', text: ids(plan.shards.flat()) },
    ...plan.shards.map((s, k) => ({ name: `shard.${k + 1}.ids`, text: ids(s) })),
  ];
}

/** A shard's projection.json (of `stratify project`), with the file it came from. */
export interface ProjectionPiece {
  readonly file: string;
  readonly text: string;
}

interface PieceJson {
  program?: string;
  reference?: { K?: number; run?: string };
  individuals?: { id: string; copies?: number; logLik?: number; Q: number[] }[];
}

/**
 * Use case "cohort combine": the reference's fitted ancestry and the shards' projections as one
 * result over `individuals` (the cohort, in the input's order): `stratify.cohort.K{K}.Q`, the
 * reference's frequencies as `.P`, `cohort.tsv` (each individual's source, copies and Q) and a
 * `stratify.json` with one run at K over every individual. Every individual must come from exactly
 * one source; pieces must have been projected onto this reference.
 */
export function combineCohort(
  individuals: readonly Individual[],
  reference: Reference,
  pieces: readonly ProjectionPiece[],
  datasetFile: string,
): { files: ResultFile[]; fitted: number; projected: number } {
  const fit = reference.fitted;
  if (!fit)
    throw new RangeError(
      `${reference.file}: not the reference's fit (a stratify.json of run, sweep or merge is needed)`,
    );
  const K = reference.K;
  // Per individual: its Q and where it came from.
  const source = new Map<string, { Q: ArrayLike<number>; from: string; copies?: number }>();
  const add = (id: string, Q: ArrayLike<number>, from: string, copies?: number) => {
    const before = source.get(id);
    if (before) throw new RangeError(`individual "${id}" is in ${before.from} and in ${from}`);
    source.set(id, { Q, from, ...(copies !== undefined ? { copies } : {}) });
  };
  fit.ids.forEach((id, d) => add(id, fit.Q.subarray(d * K, (d + 1) * K), 'reference'));
  for (const piece of pieces) {
    let json: PieceJson;
    try {
      json = JSON.parse(piece.text) as PieceJson;
    } catch {
      throw new RangeError(`${piece.file}: not JSON`);
    }
    if (json.program !== 'stratify' || !Array.isArray(json.individuals) || json.reference?.K === undefined)
      throw new RangeError(`${piece.file}: not a projection.json of stratify project`);
    if (json.reference.K !== K || json.reference.run !== reference.run)
      throw new RangeError(
        `${piece.file}: projected onto ${json.reference.run ?? `K = ${json.reference.K}`}, not onto ${reference.file}'s ${reference.run}`,
      );
    for (const ind of json.individuals) {
      if (!Array.isArray(ind.Q) || ind.Q.length !== K)
        throw new RangeError(`${piece.file}: ${ind.id} has no Q of K = ${K}`);
      add(ind.id, ind.Q, piece.file, ind.copies);
    }
  }
  const missing = individuals.filter((ind) => !source.has(ind.id));
  if (missing.length > 0)
    throw new RangeError(
      `${missing.length} individual(s) of ${datasetFile} are in neither the reference nor a projection: ${missing
        .slice(0, 5)
        .map((i) => i.id)
        .join(', ')}${missing.length > 5 ? ', …' : ''}`,
    );
  const known = new Set(individuals.map((i) => i.id));
  const stray = [...source.keys()].find((id) => !known.has(id));
  if (stray !== undefined)
    throw new RangeError(`individual "${stray}" of ${source.get(stray)!.from} is not in ${datasetFile}`);

  const N = individuals.length;
  const Q = new Float64Array(N * K);
  individuals.forEach((ind, d) => Q.set(source.get(ind.id)!.Q, d * K));
  const clusters = Array.from({ length: K }, (_, k) => `cluster${k + 1}`);
  const table = [
    ['id', 'population', 'source', 'copies', ...clusters].join('\t'),
    ...individuals.map((ind, d) => {
      const s = source.get(ind.id)!;
      const row = Array.from(Q.subarray(d * K, (d + 1) * K), (x) => x.toFixed(6));
      return [ind.id, ind.population ?? '', s.from, s.copies ?? '', ...row].join('\t');
    }),
  ];
  const weights = new Float64Array(K);
  for (let x = 0; x < Q.length; x++) weights[x % K]! += Q[x]! / N;
  const result = {
    program: 'stratify',
    version: VERSION,
    dataset: {
      file: datasetFile,
      individuals: individuals.map((i) => ({ id: i.id, population: i.population ?? null, group: i.group ?? null })),
      loci: reference.loci.map((l) => ({ name: l.name, alleles: l.alleles })),
      ploidy: fit.ploidy,
    },
    options: null,
    cancelled: false,
    cohort: { reference: reference.file, run: reference.run, fitted: fit.ids.length, projected: N - fit.ids.length },
    runs: [
      {
        K,
        replicate: 0,
        /** The reference fit's ln L (of its individuals only). */
        logLik: r(fit.logLik),
        completedStarts: 1,
        model: reference.model,
        weights: Array.from(weights, r),
        Q: rows(Q, K),
        frequencies: rows(reference.F, K),
        informative: reference.loci.map(() => 1),
      },
    ],
  };
  const stem = `stratify.cohort.K${K}`;
  return {
    files: [
      { name: `${stem}.Q`, text: toText(writeQ(Q, N, K)) },
      { name: `${stem}.P`, text: toText(writeP(reference, { K, theta: reference.F })) },
      { name: 'cohort.tsv', text: table.join('\n') + '\n' },
      { name: 'stratify.json', text: JSON.stringify(result) },
    ],
    fitted: fit.ids.length,
    projected: N - fit.ids.length,
  };
}
