// `npm run lint`, and the squiggles in your editor: typescript-eslint, Vue's essential rules, and
// pipeline-tool's code rules, which report as you type what `npm run validate` finds after a build
// (dialogs, browser storage, HTML from strings, bridge calls the host refuses), in <script setup>
// and in the template's expressions alike.
import { defineConfig, globalIgnores } from 'eslint/config';
import pluginVue from 'eslint-plugin-vue';
import pipeline from 'pipeline-tool/eslint';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'release/']),
  {
    files: ['**/*.{ts,vue}'],
    extends: [tseslint.configs.recommended, pluginVue.configs['flat/essential'], pipeline.configs.recommended],
    languageOptions: { parserOptions: { parser: tseslint.parser, tsconfigRootDir: import.meta.dirname } },
  },
);
