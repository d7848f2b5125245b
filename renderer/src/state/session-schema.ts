// The session file's schema, declared once (JSON Schema, draft 7): scripts/gen-session-validator.ts
// compiles it with ajv into a standalone validator (generated/session-validator.ts: plain code, no
// eval, so the page's CSP allows it); session-check.ts runs that validator, then the few checks a
// schema cannot state (tables whose lengths must agree). The allowed values are engine/util/
// choices.ts's lists, the ones the CLI and the Run view use.
import {
  ALGORITHM,
  ASSIGN_BY,
  CLASSIFIER,
  LEARNING,
  MODEL,
  RANK_BY,
  SCORE,
  START_ALGORITHMS,
  STARTS_RULE,
  VARIABLES,
} from '../../../engine/util/choices.ts';
import { PCA_COLOUR_BY, VIEWS } from './ui-choices.ts';

/** A JSON Schema (the subset written here). */
export type Schema = { readonly [keyword: string]: unknown };

const string: Schema = { type: 'string' };
const boolean: Schema = { type: 'boolean' };
const number: Schema = { type: 'number' };
const numbers: Schema = { type: 'array', items: number };
const strings: Schema = { type: 'array', items: string };
const whole = (minimum: number): Schema => ({ type: 'integer', minimum });
const oneOf = (values: readonly string[]): Schema => ({ enum: [...values] });
const BASE64: Schema = { type: 'string', pattern: '^[A-Za-z0-9+/]*={0,2}$' };

/** An object with these fields required and these optional (other fields are let through, as a newer version may add some). */
function object(required: Record<string, Schema>, optional: Record<string, Schema> = {}): Schema {
  return { type: 'object', required: Object.keys(required), properties: { ...required, ...optional } };
}

/** A file in a session: embedded (base64) or, read by the desktop app where it lives, by path. */
const FILE: Schema = {
  ...object({ name: string }, { base64: BASE64, path: string }),
  anyOf: [{ required: ['base64'] }, { required: ['path'] }],
};

const RUN = object(
  {
    algorithm: oneOf(ALGORITHM.values),
    kFrom: whole(1),
    kTo: whole(1),
    starts: whole(1),
    replicates: whole(1),
    epsilon: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    seed: number,
  },
  {
    rankBy: oneOf(RANK_BY.values),
    model: oneOf(MODEL.values),
    tolerance: { type: 'number', exclusiveMinimum: 0 },
    cvFolds: whole(0),
    startsRule: oneOf(STARTS_RULE.values),
    references: strings,
    interrupted: object({ kValues: { type: 'array', items: whole(1) }, replicates: whole(1) }),
  },
);

const PLOT = object(
  {
    palette: { type: 'array', items: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' } },
    populationOrder: strings,
    shownK: { type: 'array', items: whole(1) },
    groupByRegion: boolean,
    barHeight: { type: 'number', minimum: 10, maximum: 1000 },
  },
  { sortEachRow: boolean, mapK: whole(0) },
);

const SAVED_RUN = object(
  {
    K: whole(1),
    replicate: whole(0),
    logLik: number,
    completedStarts: whole(0),
    Q: numbers,
    weights: numbers,
    informative: numbers,
    independence: numbers,
    theta: numbers,
  },
  {
    model: oneOf(MODEL.values),
    cvError: number,
    algorithmChoice: object(
      { algorithm: oneOf(START_ALGORITHMS), reason: string },
      { heldOut: object({ ema: number, em: number }) },
    ),
  },
);

const PCA = object(
  {
    settings: object(
      { pcs: whole(1), xPc: whole(1), yPc: whole(1), colourBy: oneOf(PCA_COLOUR_BY) },
      { clusterK: whole(0) },
    ),
  },
  {
    result: object({
      pcs: whole(1),
      eigenvalues: numbers,
      varianceFraction: numbers,
      vectors: numbers,
      method: oneOf(['exact', 'randomized']),
      columns: whole(1),
      loci: whole(1),
      iterations: whole(0),
      converged: boolean,
    }),
  },
);

const TRUST = object(
  {},
  {
    projection: object(
      {
        K: whole(1),
        model: oneOf(MODEL.values),
        file: string,
        run: string,
        individuals: {
          type: 'array',
          minItems: 1,
          items: object({ id: string }, { population: string, group: string }),
        },
        Q: numbers,
        copies: { type: 'array', items: whole(0) },
        markers: { type: 'object', additionalProperties: { anyOf: [string, whole(0)] } },
      },
      { frequencyPrior: { type: 'number', minimum: 0 } },
    ),
    bootstrap: object(
      { K: whole(1), replicate: whole(0), B: whole(2), se: numbers, lower: numbers, upper: numbers },
      { blocks: whole(1), shown: numbers },
    ),
    fitCheck: object(
      {
        K: whole(1),
        replicate: whole(0),
        model: oneOf(MODEL.values),
        N: whole(1),
        populations: strings,
        means: { type: 'array', items: { anyOf: [{ type: 'null' }, number] } },
        loci: whole(0),
        lociTotal: whole(0),
        iterations: whole(0),
      },
      { note: string, matrix: BASE64 },
    ),
  },
);

const ASSIGN = object({
  settings: object({
    by: oneOf(ASSIGN_BY.values),
    classifier: oneOf(CLASSIFIER.values),
    learning: oneOf(LEARNING.values),
    score: oneOf(['', ...SCORE.values]),
    variables: oneOf(VARIABLES.values),
    folds: whole(2),
    curve: boolean,
  }),
});

/** A whole Stratify session file (version 1). */
export const SESSION_SCHEMA: Schema = object(
  {
    app: { const: 'stratify' },
    version: { const: 1 },
    files: { type: 'array', minItems: 1, items: FILE },
    view: oneOf(VIEWS),
    run: RUN,
    plot: PLOT,
    runs: { type: 'array', items: SAVED_RUN },
  },
  { populationFile: FILE, sitesFile: FILE, pca: PCA, trust: TRUST, assign: ASSIGN },
);
