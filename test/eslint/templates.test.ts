import path from 'node:path';
import react from '@vitejs/plugin-react';
import vue from '@vitejs/plugin-vue';
import { ESLint } from 'eslint';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';
import { CODE_RULE_IDS } from '../../src/core/code/rule-ids.js';
import { readTemplate, TEMPLATE_NAMES, TOOL_TYPES, type TemplateName, type ToolType } from '../../src/core/init/index.js';
import { validateBundle } from '../../src/core/validate.js';
import pipeline from '../../src/vite/index.js';
import { codeRuleCases } from '../code/rule-cases.js';
import { viteProject } from '../vite/helpers.js';

/*
 * Real ESLint runs, through each template's own eslint.config.js, in a copy of the template whose
 * node_modules links to this repository's packages and to the built pipeline-tool (dist/, so run
 * after a build). The templates lint clean; and every planted mistake of the code-check tests,
 * written into a React and a Vue template as TypeScript, TSX and Vue, is reported by ESLint at the
 * line that validate reports after a real Vite build, with nothing more or less.
 */

const TEMPLATES = TEMPLATE_NAMES.flatMap((template) => TOOL_TYPES.map((type) => `${template}-${type}`));

/** A template's files as init's reader composes them from the layers (stored names, as `_gitignore`). */
async function templateFiles(key: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const [template, ...type] = key.split('-');
  const files = await readTemplate(type.join('-') as ToolType, template as TemplateName);
  return { ...Object.fromEntries(files.map((file) => [file.path, file.contents.toString('utf8')])), ...extra };
}

async function lint(root: string, patterns: string[]) {
  const eslint = new ESLint({ cwd: root });
  return (await eslint.lintFiles(patterns)).flatMap((result) =>
    result.messages.map((m) => ({ file: path.relative(root, result.filePath).split(path.sep).join('/'), line: m.line, ruleId: m.ruleId, message: m.message })),
  );
}

describe('the templates lint clean with their own eslint.config', () => {
  it.each(TEMPLATES)('%s', async (template) => {
    const root = viteProject(await templateFiles(template));
    expect(await lint(root, ['.'])).toEqual([]);
  }, 120_000);
});

const UNCALLED = 'a <style> made elsewhere in the file';

/** Each planted script (mistakes and lookalikes) of the code-check tests, as the body of a function. */
const PLANTED = Object.entries(codeRuleCases)
  .filter(([id]) => ['dialog-call', 'browser-storage', 'unsafe-html', 'bridge-tool-type', 'bridge-unknown-method', 'bridge-deprecated', 'bridge-literal-range'].includes(id))
  // Less the case whose two helper functions nothing calls: the build's minifier drops them, so no
  // built code is left to compare with (test/code holds its detection on the source as written).
  .flatMap(([, testCase]) => [testCase.bad, ...Object.entries(testCase.alsoBad ?? {}).filter(([name]) => name !== UNCALLED).map(([, variant]) => variant), testCase.good, ...Object.values(testCase.falsePositives)])
  .flatMap((variant) => (Object.keys(variant.files).every((name) => name === 'app.js' || name === 'index.html') && !variant.files['index.html']?.includes('<script>') ? [variant.files['app.js']!] : []));

const functions = (prefix: string) => PLANTED.map((code, i) => `export async function ${prefix}${i}() {\n${code}}\n`).join('');
const names = (prefix: string) => PLANTED.map((_, i) => `${prefix}${i}`).join(', ');

/** Findings of the code rules, as `file:line rule`, sorted. */
const keyed = (problems: Array<{ file?: string | undefined; line?: number | undefined; ruleId: string | null }>) =>
  problems.map((p) => `${p.file}:${p.line} ${p.ruleId?.replace(/^pipeline-tool\//, '')}`).sort();

async function compare(template: string, files: Record<string, string>, plugin: 'react' | 'vue') {
  const root = viteProject(await templateFiles(template, files));
  await build({ root, configFile: false, logLevel: 'silent', plugins: [plugin === 'react' ? react() : vue(), pipeline({ validate: false })] });
  const report = await validateBundle(path.join(root, 'dist'), { sourceMaps: { root } });
  const validated = report.problems.filter((p) => CODE_RULE_IDS.includes(p.ruleId) && p.file?.startsWith('src/'));
  const linted = (await lint(root, ['src'])).filter((m) => m.ruleId?.startsWith('pipeline-tool/'));
  // Every rule finds something (bridge-tool-type only where the tool is standalone).
  expect(new Set(validated.map((p) => p.ruleId)).size).toBeGreaterThanOrEqual(6);
  expect(keyed(linted)).toEqual(keyed(validated));
  // The wording is validate's own.
  expect(new Set(linted.map((m) => m.message))).toEqual(new Set(validated.map((p) => p.message)));
}

describe('planted mistakes are found where validate finds them after a Vite build', () => {
  it('in a React project: a .ts module and a .tsx component', async () => {
    await compare(
      'react-standalone',
      {
        'src/planted.ts': `type Row = { qty: number };\n${functions('ts')}export const rows: Row[] = [];\n`,
        'src/Planted.tsx': `import type { ReactNode } from 'react';\n${functions('tsx')}export const View = ({ obj }: { obj: { open(): void } }): ReactNode => (\n  <p title="alert(" onClick={() => obj.open()}>{'localStorage'} alert( confirm(1)</p>\n);\n`,
        'src/main.tsx': `${(await templateFiles('react-standalone'))['src/main.tsx']}import { ${names('ts')} } from './planted';\nimport { View, ${names('tsx')} } from './Planted';\n(window as unknown as { planted: unknown[] }).planted = [View, ${names('ts')}, ${names('tsx')}];\n`,
      },
      'react',
    );
  }, 300_000);

  it('in a Vue project: <script setup lang="ts"> and its template', async () => {
    const body = PLANTED.map((code, i) => `async function vue${i}() {\n${code}}\n`).join('');
    await compare(
      'vue-quoting_extension',
      {
        'src/Planted.vue': `<template>\n  <p title="alert(" @click="obj.open()">{{ note }} alert( localStorage</p>\n  <button @click="Object.assign(box, { innerHTML: note })">x</button>\n</template>\n<script setup lang="ts">\nconst note: string = 'n';\nconst obj = { open() {} };\nconst box = document.body;\n${body}defineExpose({ ${names('vue')} });\n</script>\n`,
        'src/main.ts': `${(await templateFiles('vue-quoting_extension'))['src/main.ts']}import Planted from './Planted.vue';\n(window as unknown as { planted: unknown }).planted = Planted;\n`,
      },
      'vue',
    );
  }, 300_000);
});
