// Uneven sampling, as Puechmaille (2016) set it against Evanno's ΔK: four populations drifted
// apart equally (F_ST 0.05, 20 microsatellites), one sampled ten times as much (200, 20, 20, 20).
// The truth is K = 4; ΔK (from the likelihood) points at 2, while the four estimators read from
// the populations' memberships find 4. Through the CLI, as users run it (STRUCTURE file with
// populations, `stratify sweep --k 1..7`, five replicates).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ROOT } from '../helpers.ts';
import { dataPath } from '../../data/datasets.ts';
import { multiAllelicPopulations } from '../model/synthetic.ts';
import { toText, writeStructure } from '../../engine/formats/writers.ts';

test("uneven sampling: Evanno's ΔK misses the four populations, Puechmaille's estimators find them", () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-uneven-'));
  const sizes = [200, 20, 20, 20];
  const { data } = multiAllelicPopulations(5, {
    pops: 4,
    perPop: 0,
    sizes,
    loci: 20,
    minAlleles: 5,
    maxAlleles: 10,
    fst: 0.05,
  });
  writeFileSync(join(dir, 'uneven.str'), toText(writeStructure(data)));
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'stratify.mjs'),
      'sweep',
      join(dir, 'uneven.str'),
      '--k',
      '1..7',
      '--replicates',
      '5',
      '--starts',
      '10',
      '--threads',
      '1',
      '--out',
      join(dir, 'out'),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  const [head, ...rows] = readFileSync(join(dir, 'out', 'fst-by-k.tsv'), 'utf8')
    .trim()
    .split('\n');
  const col = head!.split('\t').indexOf('evanno_delta_k');
  const deltaK = rows
    .map((row) => row.split('\t'))
    .filter((cells) => cells[col] !== '')
    .map((cells) => ({ K: Number(cells[0]), deltaK: Number(cells[col]) }));
  const byDeltaK = deltaK.reduce((a, b) => (b.deltaK > a.deltaK ? b : a)).K;
  assert.notEqual(byDeltaK, 4, `ΔK: ${JSON.stringify(deltaK)}`);
  const line = /MedMeaK = (\d+), MaxMeaK = (\d+), MedMedK = (\d+), MaxMedK = (\d+)/.exec(r.stdout);
  assert.ok(line, r.stdout);
  assert.deepEqual(line.slice(1).map(Number), [4, 4, 4, 4]);
});

test("--membership-threshold sets the estimators' threshold; a value outside 0..1 is refused before the file is read", () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-threshold-'));
  const sweep = (...extra: string[]) =>
    spawnSync(
      process.execPath,
      [
        join(ROOT, 'bin', 'stratify.mjs'),
        'sweep',
        dataPath('nancycats.str'),
        '--k',
        '2..3',
        '--replicates',
        '2',
        '--starts',
        '3',
        '--threads',
        '1',
        '--out',
        join(dir, 'out'),
        ...extra,
      ],
      { encoding: 'utf8' },
    );
  const strict = sweep('--membership-threshold', '1');
  assert.equal(strict.status, 0, strict.stderr);
  // No membership is above 1: no cluster counts at any K.
  assert.match(strict.stdout, /above 1\): MedMeaK = 0, MaxMeaK = 0, MedMedK = 0, MaxMedK = 0/);
  const usual = sweep();
  assert.match(usual.stdout, /above 0\.5\): MedMeaK = [1-9]/);
  const bad = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'stratify.mjs'), 'sweep', join(dir, 'no-such-file.str'), '--membership-threshold', '2'],
    { encoding: 'utf8' },
  );
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /--membership-threshold takes a number from 0 to 1, got "2"/);
});
