// `npm run lint`, and the squiggles in your editor: typescript-eslint, the rules of React Hooks, and
// pipeline-tool's code rules, which report as you type what `npm run validate` finds after a build
// (dialogs, browser storage, HTML from strings, bridge calls the host refuses).
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import pipeline from 'pipeline-tool/eslint';
import tseslint from 'typescript-eslint';

export default defineConfig(globalIgnores(['dist/', 'release/']), {
  files: ['**/*.{ts,tsx}'],
  extends: [tseslint.configs.recommended, reactHooks.configs.flat.recommended, pipeline.configs.recommended],
  languageOptions: { parserOptions: { tsconfigRootDir: import.meta.dirname } },
});
