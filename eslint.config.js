// ESLint (part of `npm run lint`, so of `npm test`): type-aware typescript-eslint rules for what the
// compiler does not catch — promises left floating or passed where a callback's result is
// ignored, unused variables, type-only imports, Math's ln/exp/pow in the model and analyses — and
// eslint-plugin-svelte for the components.
// Formatting is Prettier's (`npm run format:check`).
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

const typeAware = {
  // node:test's test() and describe() return promises the runner itself awaits.
  '@typescript-eslint/no-floating-promises': [
    'error',
    { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
  ],
  '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
  '@typescript-eslint/await-thenable': 'error',
  '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
  '@typescript-eslint/no-unused-vars': [
    'error',
    { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
  ],
  '@typescript-eslint/no-explicit-any': 'error',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'dist-electron/',
      'release/',
      '**/generated/**',
      'workflow/.snakemake/',
      'resources/',
      'renderer/public/',
      // AssemblyScript sources of the WebAssembly kernels (compiled by asc, not tsc).
      'scripts/kernels/assembly/',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: typeAware,
  },
  {
    // The determinism policy (docs/algorithms.md §13): engines round Math's ln, exp and powers
    // differently, so the model and analyses take them from det-math.ts (the same bits everywhere).
    files: ['engine/model/**/*.ts', 'engine/analysis/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['log', 'exp', 'log1p', 'expm1', 'log2', 'log10', 'pow'].map((property) => ({
          object: 'Math',
          property,
          message:
            'Math rounds this differently between engines: use engine/util/det-math.ts (docs/algorithms.md §13).',
        })),
      ],
    },
  },
  ...svelte.configs['flat/recommended'],
  {
    files: ['renderer/**/*.svelte', 'renderer/**/*.svelte.ts'],
    plugins: { '@typescript-eslint': tseslint.plugin },
    languageOptions: {
      globals: globals.browser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte'],
        parser: tseslint.parser,
      },
    },
    rules: {
      ...typeAware,
      // Flags every Set, Map and Date made in a component, also the temporaries inside functions
      // and $derived blocks that are never mutated after; state here is $state.raw and replaced whole.
      'svelte/prefer-svelte-reactivity': 'off',
    },
  },
);
