import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import vueParser from 'vue-eslint-parser';

/*
 * The planted mistakes of the code-check tests (test/code/rule-cases.ts) are JavaScript. Here each is
 * written again as an author of a framework tool writes code: in a .ts module, in a .tsx component
 * and in a Vue component's `<script setup lang="ts">`, each beside the lookalikes a framework adds
 * (a JSX attribute or text that reads "alert(", a template handler calling `obj.open()`), which
 * must stay silent. `shift` is how many lines the wrapping adds above the planted code.
 */
export interface Language {
  name: string;
  file: string;
  wrap(code: string): string;
  shift: number;
  languageOptions: Linter.LanguageOptions;
}

/**
 * Named in every parser's options: typescript-eslint remembers each `tsconfigRootDir` that a config
 * loaded in this process named (the templates' configs name theirs) and, given none, refuses to
 * choose between them.
 */
export const TSCONFIG_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const LANGUAGES: readonly Language[] = [
  {
    name: 'TypeScript',
    file: 'src/planted.ts',
    wrap: (code) => `type Row = { qty: number; note?: string };\n${code}export const rows: Row[] = [];\n`,
    shift: 1,
    languageOptions: { parser: tseslint.parser, parserOptions: { tsconfigRootDir: TSCONFIG_ROOT } },
  },
  {
    name: 'TSX',
    file: 'src/Planted.tsx',
    wrap: (code) =>
      `import type { ReactNode } from 'react';\n${code}export const View = ({ obj }: { obj: { open(): void } }): ReactNode => (\n  <p title="alert(" onClick={() => obj.open()}>{'localStorage'} alert( confirm(1)</p>\n);\n`,
    shift: 1,
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true }, tsconfigRootDir: TSCONFIG_ROOT } },
  },
  {
    name: 'Vue',
    file: 'src/Planted.vue',
    wrap: (code) => `<template>\n  <p title="alert(" @click="obj.open()">{{ note }} alert( localStorage</p>\n</template>\n<script setup lang="ts">\n${code}</script>\n`,
    shift: 4,
    languageOptions: { parser: vueParser, parserOptions: { parser: tseslint.parser, sourceType: 'module', tsconfigRootDir: TSCONFIG_ROOT } },
  },
];

/** A tool project folder whose manifest has `type`, and where its linted files would be. */
export function toolFolder(root: string, type: string): string {
  const folder = path.join(root, type);
  mkdirSync(path.join(folder, 'src'), { recursive: true });
  writeFileSync(path.join(folder, 'package.json'), '{ "private": true }\n');
  writeFileSync(
    path.join(folder, 'manifest.json'),
    JSON.stringify({ name: 'Planted', shortName: 'Planted', type, version: '1.0.0', description: 'Mistakes to find.', entry: 'index.html' }),
  );
  return folder;
}
