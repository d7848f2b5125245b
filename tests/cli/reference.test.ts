import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { ROOT } from '../helpers.ts';
import { buildProgram } from '../../engine/cli/main.ts';
import { cliReference } from '../../engine/cli/reference.ts';

test('docs/cli.md is the commands’ help as it is now (node --import tsx docs/scripts/cli-reference.ts remakes it)', () => {
  const onDisk = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
  assert.equal(onDisk, cliReference(buildProgram()), 'docs/cli.md is stale: remake it');
  // Every command has its section, and no machine's core count is baked in as a default.
  for (const c of buildProgram().commands) assert.ok(onDisk.includes(`## stratify ${c.name()}\n`), c.name());
  assert.ok((onDisk.match(/\(default: every core\)/g) ?? []).length >= 4, 'run, sweep, assign, bootstrap, project');
});

test('the reference carries each command’s options, wrapped at one width whatever the terminal', () => {
  const program = new Command('tool').description('a tool');
  program.command('go').description('does it').option('--far <n>', 'how far '.repeat(30).trim(), '3');
  const text = cliReference(program);
  assert.match(text, /## stratify go\n\n```text\nUsage: tool go \[options\]/);
  assert.match(text, /--far <n>/);
  assert.ok(
    text.split('\n').every((line) => line.length <= 100),
    'wrapped at 100 columns',
  );
  assert.match(text, /\(default: "3"\)/);
});
