import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSession } from '../../renderer/src/state/session-check.ts';
import {
  decodeAssign,
  decodeBootstrap,
  decodeFitCheck,
  decodeFiles,
  encodeBootstrap,
  encodeFitCheck,
  encodeProjection,
  decodeProjection,
  FIT_MATRIX_SAVED,
  decodeRuns,
  encodeAssign,
  encodeFile,
  encodeRuns,
} from '../../renderer/src/state/session-codec.ts';
import type { AssignInfo, BootstrapInfo, FitCheckInfo, ProjectionInfo } from '../../engine/runtime/engine-protocol.ts';

const info: AssignInfo = {
  classes: ['A', 'B'],
  accuracy: 0.75,
  logLoss: 0.5,
  confusion: Int32Array.of(1, 0, 1, 1),
  posterior: Float64Array.of(0.9, 0.1, 0.4, 0.6, 0.2, 0.8, 0.5, 0.5),
  labels: Int32Array.of(0, 1, 1, -1),
  curve: [],
  variables: 'alleles',
  variablesReason: 'chosen',
  qualityIndex: 0.7,
  unlabelled: [3],
  exclusion: Float64Array.of(0.02, 0.3),
};

test('a saved assignment survives JSON and comes back with its typed arrays', () => {
  const back = decodeAssign(JSON.parse(JSON.stringify(encodeAssign(info))), 4);
  assert.deepEqual(back, info);
  assert.ok(back.posterior instanceof Float64Array && back.confusion instanceof Int32Array);
});

test('a saved assignment that does not fit the dataset is refused with a message', () => {
  const enc = encodeAssign(info);
  assert.throws(() => decodeAssign(enc, 5), /does not fit the dataset/);
  assert.throws(() => decodeAssign({ ...enc, confusion: [1, 2, 3] }, 4), /does not fit the dataset/);
  assert.throws(() => decodeAssign({ ...enc, exclusion: [0.1] }, 4), /does not fit the dataset/);
});

const session = () => ({
  version: 1,
  app: 'stratify',
  savedAt: '2026-11-23T00:00:00Z',
  files: [{ name: 'x.str', base64: 'QUJD' }],
  view: 'structure',
  run: { algorithm: 'ema', kFrom: 2, kTo: 3, starts: 5, replicates: 2, epsilon: 0.05, seed: 1 },
  plot: { palette: ['#112233'], populationOrder: ['a'], shownK: [2], groupByRegion: true, barHeight: 90 },
  runs: [
    {
      K: 2,
      replicate: 0,
      logLik: -10,
      completedStarts: 5,
      Q: [0.5, 0.5, 1, 0],
      weights: [0.5, 0.5],
      informative: [1],
      independence: [0],
      theta: [0.1],
    },
  ],
});

const pcaSettings = { pcs: 2, xPc: 1, yPc: 2, colourBy: 'population' };
const pcaResult = {
  pcs: 2,
  eigenvalues: [3, 1],
  varianceFraction: [0.3, 0.1],
  vectors: [0.7, 0.1, -0.7, 0.1],
  columns: 4,
  loci: 2,
  method: 'exact',
  iterations: 0,
  converged: true,
};

test('a whole session passes; each damaged field is refused by name before anything is restored', () => {
  assert.doesNotThrow(() => checkSession(session()));
  assert.doesNotThrow(() =>
    checkSession({ ...session(), view: 'pca', pca: { settings: pcaSettings, result: pcaResult } }),
  );
  assert.doesNotThrow(() => checkSession({ ...session(), sitesFile: { name: 'sites.csv', base64: 'cG9wLHgseQo=' } }));
  // A session saved while a sweep ran: the runs it had finished and what it was running.
  assert.doesNotThrow(() =>
    checkSession({
      ...session(),
      run: { ...session().run, references: ['a', 'b'], interrupted: { kValues: [2, 3], replicates: 2 } },
    }),
  );
  const damage: [(d: ReturnType<typeof session>) => void, RegExp][] = [
    [(d) => (d.view = 'nowhere'), /view/],
    [(d) => ((d.run as Record<string, unknown>)['algorithm'] = 'magic'), /run\.algorithm/],
    [(d) => (d.run.kFrom = 0), /run\.kFrom/],
    [(d) => (d.run.epsilon = 2), /run\.epsilon/],
    [(d) => Object.assign(d.run, { interrupted: { kValues: [2, 'x'], replicates: 1 } }), /run\.interrupted\.kValues/],
    [(d) => Object.assign(d.run, { interrupted: { kValues: [2], replicates: 0 } }), /run\.interrupted\.replicates/],
    [(d) => Object.assign(d.run, { references: ['a', 3] }), /run\.references/],
    [(d) => (d.plot.palette = ['red']), /plot\.palette/],
    [(d) => ((d.plot as Record<string, unknown>)['groupByRegion'] = 'yes'), /plot\.groupByRegion/],
    [(d) => (d.runs[0]!.Q = [0.5, 0.5, 1]), /runs\[0\] has tables that do not fit its K/],
    [(d) => ((d.runs[0] as Record<string, unknown>)['theta'] = 'x'), /runs\[0\]\.theta/],
    [
      (d) =>
        ((d.runs[0] as Record<string, unknown>)['algorithmChoice'] = { algorithm: 'svm', heldOut: {}, reason: '' }),
      /runs\[0\]\.algorithmChoice/,
    ],
    [(d) => (d.files[0]!.base64 = 'not base64!'), /files\[0\]/],
    [(d) => Object.assign(d, { sitesFile: { name: 'sites.csv' } }), /sitesFile/],
    [
      (d) =>
        Object.assign(d, {
          assign: {
            settings: {
              by: 'population',
              classifier: 'svm',
              learning: 'generative',
              score: '',
              folds: 5,
              variables: 'auto',
              curve: true,
            },
          },
        }),
      /assign\.settings/,
    ],
    [(d) => Object.assign(d, { pca: { settings: { pcs: 10, xPc: 1, yPc: 2, colourBy: 'colour' } } }), /pca\.settings/],
    [
      (d) => Object.assign(d, { pca: { settings: pcaSettings, result: { ...pcaResult, vectors: [0.1, 0.2, 0.3] } } }),
      /pca\.result/,
    ],
  ];
  for (const [edit, why] of damage) {
    const d = session();
    edit(d);
    assert.throws(() => checkSession(d), why, String(why));
  }
  assert.throws(() => checkSession({ app: 'other' }), /not a Stratify session/);
  // Runs must have one row per individual of the dataset they are restored onto.
  assert.equal(decodeRuns(checkSession(session()).runs, 2).length, 1);
  assert.throws(() => decodeRuns(checkSession(session()).runs, 3), /do not belong to this data/);
  // What auto chose is saved with the run and comes back.
  const choice = {
    algorithm: 'em' as const,
    heldOut: { ema: -12, em: -11 },
    reason: 'EM: held-out ln L -11 against -12 for EMA',
  };
  const withChoice = session();
  Object.assign(withChoice.runs[0]!, { algorithmChoice: choice });
  const restored = decodeRuns(checkSession(JSON.parse(JSON.stringify(withChoice))).runs, 2);
  assert.deepEqual(restored[0]!.algorithmChoice, choice);
  assert.deepEqual(encodeRuns(restored)[0]!.algorithmChoice, choice);
});

test('saved bootstrap intervals and a fit check survive JSON (NaN, float32 pairs) and are refused when they do not fit', () => {
  const boot: BootstrapInfo = {
    K: 2,
    replicate: 0,
    B: 10,
    blocks: 4,
    se: Float64Array.of(0.1, 0.1, 0.2, 0.2, 0, 0),
    lower: Float64Array.of(0.3, 0.5, 0.1, 0.6, 1, 0),
    upper: Float64Array.of(0.5, 0.7, 0.4, 0.9, 1, 0),
  };
  const shown = Float64Array.of(0.4, 0.6, 0.25, 0.75, 1, 0);
  const back = decodeBootstrap(JSON.parse(JSON.stringify(encodeBootstrap(boot, shown))), 3);
  assert.deepEqual(back.info, boot);
  assert.deepEqual(back.shown, shown);
  assert.throws(() => decodeBootstrap(encodeBootstrap(boot), 4), /do not fit the dataset/);

  const N = 3;
  const matrix = Float32Array.of(NaN, 0.125, -0.5, 0.125, NaN, 1 / 3, -0.5, 1 / 3, NaN);
  const fit: FitCheckInfo = {
    K: 2,
    replicate: 1,
    model: 'admixture',
    N,
    matrix,
    populations: ['a', 'b'],
    means: Float64Array.of(NaN, -0.2, -0.2, 0.3),
    loci: 9,
    lociTotal: 9,
    iterations: 5,
  };
  const saved = JSON.parse(JSON.stringify(encodeFitCheck(fit))) as ReturnType<typeof encodeFitCheck>;
  assert.deepEqual(saved.means, [null, -0.2, -0.2, 0.3]);
  const restored = decodeFitCheck(saved, N);
  assert.deepEqual(Array.from(restored.matrix!), Array.from(matrix));
  assert.ok(Object.is(restored.means[0], NaN));
  assert.deepEqual(Array.from(restored.means).slice(1), [-0.2, -0.2, 0.3]);
  assert.throws(() => decodeFitCheck(saved, N + 1), /does not fit the dataset/);
  // Beyond FIT_MATRIX_SAVED individuals only the population means are kept.
  const big = { ...fit, N: FIT_MATRIX_SAVED + 1, matrix: new Float32Array((FIT_MATRIX_SAVED + 1) ** 2) };
  assert.equal(encodeFitCheck(big).matrix, undefined);
  // checkSession knows their shapes.
  const doc = session();
  Object.assign(doc, { trust: { bootstrap: encodeBootstrap(boot, shown), fitCheck: saved } });
  assert.doesNotThrow(() => checkSession(JSON.parse(JSON.stringify(doc))));
  Object.assign(doc, { trust: { bootstrap: { ...encodeBootstrap(boot), B: 1 } } });
  assert.throws(() => checkSession(doc), /trust\.bootstrap/);
  Object.assign(doc, { trust: { fitCheck: { ...saved, matrix: 'not base64!' } } });
  assert.throws(() => checkSession(doc), /trust\.fitCheck/);

  // A projection of other samples: its own individuals, Q and copies.
  const projection: ProjectionInfo = {
    K: 2,
    model: 'admixture',
    file: 'new.vcf',
    individuals: [{ id: 'n1', population: 'P' }, { id: 'n2' }],
    Q: Float64Array.of(0.25, 0.75, 1, 0),
    copies: Int32Array.of(800, 0),
    markers: {
      by: 'name',
      reference: 400,
      data: 400,
      matched: 400,
      strandFlipped: 0,
      swapped: 0,
      ambiguous: 0,
      ambiguousDropped: 0,
      mismatched: 0,
      absent: 0,
      unseenAlleleCopies: 0,
    },
    run: 'K = 2, replicate 1 (highest ln L)',
  };
  const encoded = JSON.parse(JSON.stringify(encodeProjection(projection))) as ReturnType<typeof encodeProjection>;
  assert.deepEqual(decodeProjection(encoded), projection);
  Object.assign(doc, { trust: { projection: encoded } });
  assert.doesNotThrow(() => checkSession(doc));
  Object.assign(doc, { trust: { projection: { ...encoded, Q: [0.5] } } });
  assert.throws(() => checkSession(doc), /trust\.projection/);
  Object.assign(doc, { trust: { projection: { ...encoded, copies: [1.5, 0] } } });
  assert.throws(() => checkSession(doc), /trust\.projection/);
});

test('files the desktop app read where they live are saved by path and matched to main’s grants on restore; embedded ones decoded', () => {
  const grant = { name: 'big.vcf.gz', path: '/data/big.vcf.gz', size: 10, grant: 'g1' };
  const bytes = { name: 'pops.tsv', bytes: new TextEncoder().encode('a\tpop1\n') };
  const saved = [encodeFile(grant), encodeFile(bytes)];
  assert.deepEqual(saved[0], { name: 'big.vcf.gz', path: '/data/big.vcf.gz' }, 'no bytes for a granted file');
  assert.ok(!('path' in saved[1]!));
  assert.doesNotThrow(() => checkSession({ ...session(), files: saved }));
  // What main granted when it opened the session (its dialog or its autosave).
  const opened = { grants: [{ ...grant, grant: 'g2' }], refused: [] };
  const files = decodeFiles(JSON.parse(JSON.stringify(saved)), opened);
  assert.deepEqual(files[0], { ...grant, grant: 'g2' });
  assert.equal(new TextDecoder().decode((files[1] as { bytes: Uint8Array }).bytes), 'a\tpop1\n');
  assert.throws(() => decodeFiles(saved), /only the desktop app/);
  assert.throws(
    () => decodeFiles(saved, { grants: [], refused: [{ path: '/data/big.vcf.gz', reason: 'no such file' }] }),
    /big\.vcf\.gz \(no such file\), which the app cannot open/,
  );
  assert.throws(() => decodeFiles(saved, { grants: [], refused: [] }), /did not open for it/);
});
