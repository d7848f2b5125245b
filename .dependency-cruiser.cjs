// The layers of the code base and the one direction imports may take (docs/architecture.md).
// Checked by `npm run lint:deps` (part of `npm test`); tests/architecture.test.ts shows that a
// violation fails it.
//
//   util → io, data → formats, model → analysis → classify → service → runtime → node, cli
//   The front ends' layers (runtime, node, cli) call the models, analyses and classifiers only
//   through service/, the use cases, so that what lies below can change without them. They may
//   name the types those layers define (`import type`: a sweep's options and runs, a fit's options,
//   the tasks workers take), the vocabulary of the protocol, which the service does not re-export.
//   electron: its own files, the engine runtime and Node adapters (the utility process)
//   shared: the IPC contract of main, preload and page (imports the engine protocol's types only)
//   renderer: the engine protocol, its client and the shared value lists only; its engine/
//   folder (the Web Worker entry) may also use the runtime.

/** Folders of engine/ each layer may import (besides itself). */
const LAYERS = {
  util: [],
  io: ['util'],
  data: ['util', 'io'],
  formats: ['util', 'io', 'data'],
  model: ['util', 'data'],
  analysis: ['util', 'data', 'model'],
  classify: ['util', 'io', 'data', 'model', 'analysis'],
  service: ['util', 'io', 'data', 'formats', 'model', 'analysis', 'classify'],
  runtime: ['util', 'io', 'data', 'formats', 'service'],
  node: ['util', 'io', 'data', 'formats', 'service', 'runtime'],
  cli: ['util', 'io', 'data', 'formats', 'service', 'runtime', 'node'],
};

/** Layers that may import types (only) from every layer below service/. */
const FRONT_ENDS = ['runtime', 'node', 'cli'];

const layerRules = Object.entries(LAYERS).map(([layer, allowed]) => ({
  name: `layer-${layer}`,
  comment: `engine/${layer} may import only engine/{${[layer, ...allowed].join(', ')}}${
    FRONT_ENDS.includes(layer) ? ' (and types from the layers below service/)' : ''
  }`,
  severity: 'error',
  from: { path: `^engine/${layer}/` },
  to: {
    path: '^engine/',
    pathNot: `^engine/(${[layer, ...allowed].join('|')})/`,
    ...(FRONT_ENDS.includes(layer) ? { dependencyTypesNot: ['type-only'] } : {}),
  },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'modules must not import each other in a cycle',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'engine-root-is-an-index',
      comment: 'engine/index.ts re-exports the data and format layers; nothing below may import it',
      severity: 'error',
      from: { path: '^engine/[^/]+/' },
      to: { path: '^engine/index\\.ts$' },
    },
    {
      name: 'engine-without-node',
      comment: 'the engine runs in browsers too: Node built-ins only in engine/node and engine/cli',
      severity: 'error',
      from: { path: '^engine/', pathNot: '^engine/(node|cli)/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'renderer-through-the-protocol',
      comment: 'the UI talks to the engine only through the typed protocol, its client and the shared value lists',
      severity: 'error',
      from: { path: '^renderer/src/', pathNot: '^renderer/src/engine/' },
      to: { path: '^engine/', pathNot: '^engine/(runtime/engine-protocol|runtime/engine-client|util/choices)\\.ts$' },
    },
    {
      name: 'renderer-worker-uses-the-runtime',
      comment: 'the Web Worker entry hosts the engine runtime, nothing lower',
      severity: 'error',
      from: { path: '^renderer/src/engine/' },
      to: { path: '^engine/', pathNot: '^engine/(runtime|util)/' },
    },
    {
      name: 'renderer-not-into-the-shell',
      comment: 'the page knows the desktop shell only through the IPC contract in shared/',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^electron/' },
    },
    {
      name: 'shared-contract-stands-alone',
      comment:
        'the IPC contract (shared/) is imported by main, preload and page, and imports only the engine protocol types',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(electron|renderer|engine)/', pathNot: '^engine/runtime/engine-protocol\\.ts$' },
    },
    {
      name: 'electron-stays-thin',
      comment: 'the shell reaches the engine through its runtime and Node adapters only',
      severity: 'error',
      from: { path: '^electron/' },
      to: { path: '^engine/', pathNot: '^engine/(runtime|node|util)/' },
    },
    {
      name: 'engine-not-from-front-ends',
      comment: 'the engine never imports the app, the shell, tests or benchmarks',
      severity: 'error',
      from: { path: '^engine/' },
      to: { path: '^(renderer|electron|tests|bench|docs|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.svelte', '.js', '.mjs'] },
  },
};
