// electron-builder.yml and the build script read together, since the package cannot be built here
// (electron-builder downloads Electron): the configuration is valid for the installed
// electron-builder, the fuses are set, every file the main process, the preload, the utility
// process and its worker threads load is packed, and what utilityProcess and worker_threads start
// is unpacked from the asar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { Ajv } from 'ajv';
import { minimatch } from 'minimatch';
import { parse } from 'yaml';
import { ROOT } from '../helpers.ts';
import { BUNDLES, buildElectron } from '../../scripts/build-electron.mjs';
import { EngineHost } from '../../electron/engine-host.ts';

interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  asar: boolean;
  electronFuses: Record<string, boolean>;
  extraResources?: unknown;
}

const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  dependencies?: Record<string, string>;
};

/** electron-builder's own matcher for `files` (app-builder-lib's FileMatcher and its filter). */
interface FileMatcherLike {
  createFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean;
}
const { FileMatcher } = createRequire(import.meta.url)('app-builder-lib/out/fileMatcher.js') as {
  FileMatcher: new (from: string, to: string, expand: (p: string) => string, patterns: string[]) => FileMatcherLike;
};
const filter = new FileMatcher(ROOT, '/app', (p) => p, config.files).createFilter();
const DIR = { isDirectory: () => true };
const FILE = { isDirectory: () => false };

/** Whether electron-builder packs `file` (relative to the project): every folder on its way, then the file. */
function packed(file: string): boolean {
  const parts = file.split('/');
  for (let k = 1; k < parts.length; k++) if (!filter(join(ROOT, ...parts.slice(0, k)), DIR)) return false;
  return filter(join(ROOT, file), FILE);
}

/** What electron-builder's walk of the project folder would pack (folders it refuses are not entered). */
function packedTree(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.name === '.git') return [];
    if (e.isDirectory()) return filter(path, DIR) ? packedTree(path) : [];
    return filter(path, FILE) ? [relative(ROOT, path).split(sep).join('/')] : [];
  });
}

const unpacked = (file: string) => config.asarUnpack.some((p) => minimatch(file, p, { dot: true }));

test('electron-builder.yml is valid for the installed electron-builder', () => {
  const schema = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'app-builder-lib', 'scheme.json'), 'utf8'));
  const ajv = new Ajv({ strict: false, allErrors: true });
  const validate = ajv.compile(schema);
  assert.ok(validate(config), JSON.stringify(validate.errors, null, 1));
  // A misspelt key is refused (the check can fail).
  assert.equal(validate({ ...config, electronFuses: { runAsNod: false } }), false);
});

test('what is packed: the bundles, the page and package.json; no node_modules, no sources', (t) => {
  // electron-builder copies production dependencies into the asar whatever `files` says: none here.
  assert.deepEqual(Object.keys(pkg.dependencies ?? {}), [], 'every library is inside the bundles');
  for (const f of ['node_modules/d3/package.json', 'dist-web/node_modules/x/index.js', 'dist-electron/main.ts'])
    assert.equal(packed(f), false, f);
  // The repository's tree as it is now (dist-web and dist-electron where a build made them).
  const tree = packedTree();
  t.diagnostic(`packed from this tree (${tree.length} files): ${tree.join(', ')}`);
  assert.ok(tree.includes('package.json'));
  const stray = tree.filter((f) => !/^(dist-web|dist-electron)\//.test(f) && f !== 'package.json');
  assert.deepEqual(stray, [], 'only the bundles, the page and package.json');
  assert.deepEqual(
    tree.filter((f) => f.includes('node_modules') || f.endsWith('.ts') || f.endsWith('.map')),
    [],
  );
  // The matcher can fail: the old configuration, without the exclusions, packs a stray TypeScript file.
  const loose = new FileMatcher(ROOT, '/app', (p) => p, ['dist-electron/**', '!**/*.map']).createFilter();
  assert.equal(loose(join(ROOT, 'dist-electron', 'main.ts'), FILE), true);
});

test('fuses: no run-as-node, no NODE_OPTIONS, no inspect arguments, the app only from an integrity-checked asar', () => {
  assert.equal(config.asar, true);
  assert.deepEqual(
    {
      runAsNode: config.electronFuses.runAsNode,
      enableNodeOptionsEnvironmentVariable: config.electronFuses.enableNodeOptionsEnvironmentVariable,
      enableNodeCliInspectArguments: config.electronFuses.enableNodeCliInspectArguments,
      onlyLoadAppFromAsar: config.electronFuses.onlyLoadAppFromAsar,
      enableEmbeddedAsarIntegrityValidation: config.electronFuses.enableEmbeddedAsarIntegrityValidation,
    },
    {
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    },
  );
});

test('every file the shell loads is packed; what utilityProcess and worker_threads start is unpacked', async () => {
  const out = mkdtempSync(join(tmpdir(), 'stratify-build-'));
  const metafiles = await buildElectron(out, ROOT);
  const bundle = (name: string) => readFileSync(join(out, name), 'utf8');
  const outputs = BUNDLES.map((b) => `dist-electron/${b.out}`);
  for (const f of outputs) {
    assert.ok(existsSync(join(out, basename(f))), `${f} is built`);
    assert.ok(packed(f), `${f} is packed`);
  }
  assert.ok(packed(pkg.main) && outputs.includes(pkg.main), `package.json's main (${pkg.main}) is a packed bundle`);
  assert.ok(packed('package.json'));
  // The page and its assets (index.html, scripts, the window icon copied from resources/ by Vite).
  for (const f of ['dist-web/index.html', 'dist-web/assets/index.js', 'dist-web/icons/icon.png'])
    assert.ok(packed(f), f);
  assert.ok(existsSync(join(ROOT, 'resources', 'icons', 'icon.png')), 'the icon Vite copies into dist-web/icons');
  assert.ok(!packed('dist-electron/main.cjs.map'), 'source maps stay out');

  // Files the bundles name at run time: each is one of the bundles or under dist-web, and packed.
  const main = bundle('main.cjs');
  for (const name of ['preload.cjs', 'engine-host-entry.mjs', 'dist-web', 'icon.png'])
    assert.ok(main.includes(`"${name}"`), `main names ${name}`);
  assert.ok(outputs.includes('dist-electron/preload.cjs'));

  // The utility process's entry and the start workers' entry run from app.asar.unpacked.
  const forked = basename(new EngineHost({ fork: () => assert.fail(), channel: () => assert.fail() }, '/x').entry);
  const hostBundle = bundle('engine-host-entry.mjs');
  const worker = /new URL\("\.\/([\w-]+\.mjs)", import\.meta\.url\)/.exec(hostBundle)?.[1];
  assert.equal(worker, 'start-worker.mjs', 'the utility process starts its workers from start-worker.mjs beside it');
  for (const f of [forked, worker])
    assert.ok(outputs.includes(`dist-electron/${f}`) && unpacked(`dist-electron/${f}`), `${f} is built and unpacked`);
  assert.ok(!unpacked('dist-electron/main.cjs'), 'only what must be is unpacked');

  // No bundle loads a package at run time (the asar holds no node_modules): Electron and Node's
  // built-ins only, and the sandboxed preload nothing but 'electron'.
  const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  BUNDLES.forEach((b, k) => {
    const outputs = metafiles[k]!.metafile!.outputs;
    const js = Object.keys(outputs).find((o) => o.endsWith(b.out))!;
    const loaded = outputs[js]!.imports.filter((i) => i.external).map((i) => i.path);
    const foreign = loaded.filter((m) => m !== 'electron' && !builtins.has(m));
    assert.deepEqual(foreign, [], `${b.out} loads only Electron and Node built-ins`);
    if (b.out === 'preload.cjs')
      assert.deepEqual([...new Set(loaded)], ['electron'], 'the sandboxed preload requires only electron');
  });
});
