import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from '../engine/util/version.ts';
import { ROOT } from './helpers.ts';

test("one version: the engine reports package.json's, and the newest CHANGELOG entry is it", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
  const newest = /^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/m.exec(
    readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'),
  );
  assert.ok(newest, 'CHANGELOG.md has a dated version');
  assert.equal(newest[1], VERSION);
});
