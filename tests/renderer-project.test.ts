import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeAssign, encodeAssign } from '../renderer/src/state/project.ts';
import type { AssignInfo } from '../engine/runtime/engine-protocol.ts';

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
