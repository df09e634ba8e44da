// `npm run lint`, and the squiggles in your editor: pipeline-tool's code rules over src/, which
// report as you type what `npm run validate` finds (dialogs, browser storage, HTML from strings,
// bridge calls the host refuses).
import { defineConfig } from 'eslint/config';
import pipeline from 'pipeline-tool/eslint';

export default defineConfig({
  files: ['src/**/*.js'],
  extends: [pipeline.configs.recommended],
});
