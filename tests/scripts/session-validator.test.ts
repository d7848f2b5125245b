// The session file's validator is generated from its schema: the file in the repository must be
// what scripts/gen-session-validator.ts writes (so an edit to the schema alone is caught here),
// and it must run under the page's CSP (no eval, no Function constructor, no runtime import).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers.ts';
import { sessionValidatorSource, VALIDATOR_PATH } from '../../scripts/gen-session-validator.ts';

test('the session validator is the output of scripts/gen-session-validator.ts, plain code the CSP allows', () => {
  const text = readFileSync(join(ROOT, VALIDATOR_PATH), 'utf8');
  assert.equal(text, sessionValidatorSource(), 'run node --import tsx scripts/gen-session-validator.ts');
  assert.doesNotMatch(text, /\beval\(|new Function|\brequire\(|\bimport\(/);
});
