// The templates carry eslint configs of their own, for the projects made from them, which import
// pipeline-tool/eslint as an installed package; `npm run lint` names this file so that ESLint does
// not look for a config beside each file.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/.work/', 'reports/', '.stryker-tmp/', '**/*.generated.js', '**/*.generated.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // The core returns results and the CLI prints through CliIo; stray console calls are bugs.
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Scripts, benchmarks, templates and the tests talk to a terminal or a browser console directly.
    files: ['bin/**', 'scripts/**', 'bench/**', 'templates/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly',
        clearTimeout: 'readonly', window: 'readonly', document: 'readonly', performance: 'readonly',
      },
    },
  },
  {
    // The command's entry point is CommonJS (bin/package.json), for a faster start.
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The bundle report's bench loads what the CLI loads for --report, from CommonJS as the CLI does.
    files: ['bench/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', process: 'readonly', console: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // What the entry point requires is CommonJS too; TypeScript writes its imports as `import x = require()`.
    files: ['src/**/*.cts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The templates are browser code checked by tsc through `// @ts-check` (see test/init), which
    // knows every DOM global; eslint's own global list would only duplicate it, incompletely.
    files: ['templates/**/*.js'],
    rules: { 'no-undef': 'off' },
  },
);
