// The layer rules of .dependency-cruiser.cjs hold for the code base and catch a deliberate
// violation: a tree with a data module importing the runtime, a renderer component importing
// the model, a cycle and a Node built-in in the engine must fail with each rule named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './helpers.ts';

const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

function cruise(cwd: string, ...paths: string[]) {
  return spawnSync(
    process.execPath,
    [DEPCRUISE, ...paths, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
    { cwd, encoding: 'utf8' },
  );
}

test('the code base keeps its layers (no violation of .dependency-cruiser.cjs)', () => {
  const r = cruise(ROOT, 'engine', 'renderer/src', 'electron');
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('a deliberate violation of each kind fails the layer check and names the rule', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-layers-'));
  try {
    const files: Record<string, string> = {
      'engine/runtime/server.ts': 'export const server = 1;\n',
      'engine/data/model.ts': "import { server } from '../runtime/server.ts';\nexport const x = server;\n",
      'engine/model/fit.ts': 'export const fit = 1;\n',
      'engine/model/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'engine/model/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
      'engine/formats/read.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
      'renderer/src/view.ts': "import { fit } from '../../engine/model/fit.ts';\nexport const view = fit;\n",
      // The page reaching into the shell instead of through shared/'s contract.
      'electron/main.ts': 'export const main = 1;\n',
      'renderer/src/shell.ts': "import { main } from '../../electron/main.ts';\nexport const shell = main;\n",
      // A front end past the service layer, straight into a model.
      'engine/cli/command.ts': "import { fit } from '../model/fit.ts';\nexport const command = fit;\n",
      // Allowed: a front end naming a model's type (no call past the service layer).
      'engine/model/options.ts': 'export interface Options { readonly k: number }\n',
      'engine/cli/typed.ts':
        "import type { Options } from '../model/options.ts';\nexport const typed: Options = { k: 1 };\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, dirname(path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          allowImportingTsExtensions: true,
          noEmit: true,
          module: 'ESNext',
          moduleResolution: 'Bundler',
        },
      }),
    );
    const r = cruise(dir, 'engine', 'renderer/src');
    const out = r.stdout + r.stderr;
    assert.notEqual(r.status, 0, out);
    for (const rule of [
      'renderer-not-into-the-shell',
      'layer-data',
      'layer-cli',
      'no-circular',
      'engine-without-node',
      'renderer-through-the-protocol',
    ])
      assert.match(out, new RegExp(rule), `${rule} not reported:\n${out}`);
    assert.doesNotMatch(out, /engine\/cli\/typed\.ts/, 'a type-only import from a front end is allowed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Names a service module passes through from the layers below it (re-exports), as "file: name". */
function serviceReexports(files: Record<string, string>): string[] {
  const below = String.raw`'\.\./(?:model|analysis|classify|data|formats|io|util)/[^']+'`;
  const out: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const imported = new Set<string>();
    for (const m of text.matchAll(new RegExp(String.raw`import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+${below}`, 'g')))
      for (const n of m[1]!.split(',')) {
        const name = n
          .replace(/^\s*type\s+/, '')
          .split(' as ')
          .pop()!
          .trim();
        if (name) imported.add(name);
      }
    for (const m of text.matchAll(
      new RegExp(String.raw`export\s+(?:type\s+)?(?:\*|\{([^}]*)\})(\s+from\s+${below})?`, 'g'),
    )) {
      const names = (m[1] ?? '*').split(',').map((n) =>
        n
          .replace(/^\s*type\s+/, '')
          .split(' as ')[0]!
          .trim(),
      );
      for (const name of names) if (name && (m[2] || imported.has(name))) out.push(`${file}: ${name}`);
    }
  }
  return out;
}

test('the service layer re-exports nothing of the layers below it (front ends call use cases, and name types where they live)', () => {
  const dir = join(ROOT, 'engine', 'service');
  const files = Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );
  assert.deepEqual(serviceReexports(files), []);
  // The check finds each way of passing a name through.
  assert.deepEqual(
    serviceReexports({
      'a.ts': "export { fit } from '../model/fit.ts';\nexport type { Options } from '../model/options.ts';\n",
      'b.ts': "import { run, type Run } from '../model/sweep.ts';\nexport { run };\nexport type { Run };\n",
      'c.ts': "export * from '../analysis/fst.ts';\nimport { own } from './own.ts';\nexport { own };\n",
    }),
    ['a.ts: fit', 'a.ts: Options', 'b.ts: run', 'b.ts: Run', 'c.ts: *'],
  );
});
