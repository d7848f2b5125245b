// Checks a session file before anything is restored: a damaged or foreign file is refused with
// the field at fault, and changes nothing.
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
import type { PcaInfo } from '../../../engine/runtime/engine-protocol.ts';
import type { AssignSettings } from './assign.svelte.ts';
import type { PcaSettings } from './pca.svelte.ts';
import type { View } from './app.svelte.ts';
import type { Algorithm, RankBy } from '../../../engine/util/choices.ts';

import type { SessionDoc } from './session.ts';

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
