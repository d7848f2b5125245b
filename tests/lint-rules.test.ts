// The ESLint configuration (eslint.config.js) catches what the compiler does not: a promise left
// floating, an async callback where a void one is expected, an unused variable and a value import
// used only as a type. Linted in the place of an engine file (the type-aware rules need a file of the project).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { ROOT } from './helpers.ts';

const CODE = `import { FormatError } from '../io/format-error.ts';

async function fetchCount(): Promise<number> {
  return 1;
}

export function bad(e: FormatError): void {
  const unused = 2;
  fetchCount();
  [1, 2].forEach(async (x) => {
    await fetchCount();
    return x;
  });
  void e;
}
`;

test('ESLint reports floating promises, misused promises, unused variables and value imports used as types', async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(CODE, { filePath: join(ROOT, 'engine', 'util', 'version.ts') });
  const rules = new Set(result!.messages.map((m) => m.ruleId));
  for (const rule of [
    '@typescript-eslint/no-floating-promises',
    '@typescript-eslint/no-unused-vars',
    '@typescript-eslint/consistent-type-imports',
  ])
    assert.ok(rules.has(rule), `${rule} not reported: ${JSON.stringify(result!.messages, null, 1)}`);
  const lines = result!.messages.map((m) => `${m.line}:${m.ruleId}`);
  assert.ok(lines.includes('9:@typescript-eslint/no-floating-promises'), lines.join(', '));
  assert.ok(lines.includes('8:@typescript-eslint/no-unused-vars'), lines.join(', '));
  assert.ok(lines.includes('10:@typescript-eslint/no-misused-promises'), lines.join(', '));
});

test("the determinism policy: Math's ln, exp and powers fail in the model and analyses, not elsewhere", async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const planted = `export const a = Math.log(2) + Math.exp(1) + Math.pow(2, 0.5) + Math.sqrt(2);\n`;
  const restricted = async (file: string) => {
    const [result] = await eslint.lintText(planted, { filePath: join(ROOT, ...file.split('/')) });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-properties').map((m) => m.column);
  };
  // Math.log, Math.exp and Math.pow; Math.sqrt is correctly rounded everywhere.
  assert.deepEqual(await restricted('engine/model/admixture/projection.ts'), [18, 32, 46]);
  assert.deepEqual(await restricted('engine/analysis/fst.ts'), [18, 32, 46]);
  assert.deepEqual(await restricted('engine/classify/classifier.ts'), []);
});
