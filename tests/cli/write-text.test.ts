import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonPieces, writeJson, writeLines } from '../../engine/node/write-text.ts';
import { createRng } from '../../engine/util/rng.ts';

/** A random JSON-like value: nested arrays and objects, long arrays, and what JSON.stringify drops or turns to null. */
function randomValue(rng: () => number, depth: number): unknown {
  const pick = Math.floor(rng() * (depth > 3 ? 6 : 10));
  switch (pick) {
    case 0:
      return rng() * 1e6 - 5e5;
    case 1:
      return ['a', 'é"\\\n', '', '\u2028'][Math.floor(rng() * 4)];
    case 2:
      return [true, false, null, NaN, Infinity, undefined][Math.floor(rng() * 6)];
    case 3:
      return Math.floor(rng() * 100);
    case 4:
      return new Float64Array([1.5, -2]);
    case 5:
      return { toJSON: () => 'via toJSON' };
    case 6:
    case 7: {
      // Long arrays (beyond one slice) of numbers or of small rows, sometimes with a hole or undefined.
      const n = Math.floor(rng() * 9000);
      const a: unknown[] = Array.from({ length: n }, (_, i) => (rng() < 0.5 ? i * 0.1 : [i, rng()]));
      if (n > 10) a[5] = undefined;
      if (n > 10) delete a[7];
      if (rng() < 0.3 && n > 5000) a[4500] = randomValue(rng, depth + 1);
      return a;
    }
    case 8:
      return Array.from({ length: Math.floor(rng() * 5) }, () => randomValue(rng, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let k = 0; k < 1 + Math.floor(rng() * 5); k++) o[`k${k}"`] = randomValue(rng, depth + 1);
      o['f'] = () => 1;
      return o;
    }
  }
}

test('writeJson writes the text of JSON.stringify, character for character (random nested values, long arrays, holes, undefined, toJSON)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-json-'));
  try {
    const rng = createRng(11).uniform;
    for (let t = 0; t < 60; t++) {
      const value = randomValue(rng, 0);
      const expected = JSON.stringify(value);
      const pieces: string[] = [];
      jsonPieces(value, (p) => pieces.push(p));
      assert.equal(pieces.join(''), expected ?? '', `case ${t}`);
      if (expected === undefined) continue;
      const file = join(dir, `${t}.json`);
      writeJson(file, value);
      assert.equal(readFileSync(file, 'utf8'), expected, `file ${t}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('writeLines ends every line with LF, across flushes of a megabyte', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-lines-'));
  try {
    const lines = Array.from({ length: 70_000 }, (_, i) => `line ${i}\t${'x'.repeat(i % 40)}`);
    const file = join(dir, 'out.tsv');
    writeLines(file, lines);
    assert.equal(readFileSync(file, 'utf8'), lines.map((l) => l + '\n').join(''));
    writeLines(file, []);
    assert.equal(readFileSync(file, 'utf8'), '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
