import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import vueParser from 'vue-eslint-parser';
import { describe, expect, it } from 'vitest';
import pipeline from '../../src/eslint/index.js';
import { peer, UnreadableFileError } from '../../src/eslint/peers.js';
import { scriptsOf, transpileJsx } from '../../src/eslint/scripts.js';
import { scanScriptText } from '../../src/core/code/js-scanner.js';
import { writeFolder } from '../helpers/bundles.js';
import { TSCONFIG_ROOT } from './languages.js';

/*
 * What the plugin takes from the project, linting as ESLint does: the project file's rules and
 * overrides, the manifest's tool type found through the project file, the two kinds of disable
 * comment, and files it cannot read.
 */

const MANIFEST = (type: string) => JSON.stringify({ name: 'T', shortName: 'T', type, version: '1.0.0', description: 'A tool.', entry: 'index.html' });

const config: Linter.Config[] = [
  { files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser, parserOptions: { tsconfigRootDir: TSCONFIG_ROOT } } },
  { files: ['**/*.vue'], languageOptions: { parser: vueParser, parserOptions: { parser: tseslint.parser, sourceType: 'module', tsconfigRootDir: TSCONFIG_ROOT } } },
  ...pipeline.configs.recommended,
];

async function messagesOf(root: string, file: string, text: string) {
  const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: config });
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return result!.messages;
}

/** Each message as `line:column rule`. */
async function lint(root: string, file: string, text: string) {
  return (await messagesOf(root, file, text)).map((m) => `${m.line}:${m.column} ${m.ruleId ?? m.message}`);
}

const ADD_LINES = 'export async function add() {\n  await window.pipeline.quotes.addLines([]);\n}\n';

describe('bridge-tool-type takes the tool type from the project', () => {
  it('from the manifest in the project file\'s "source" folder', async () => {
    const root = writeFolder({ 'pipeline-tool.config.json': '{ "source": "dist" }', 'dist/manifest.json': MANIFEST('standalone'), 'src/a.ts': '' });
    expect(await lint(root, 'src/a.ts', ADD_LINES)).toEqual(['2:9 pipeline-tool/bridge-tool-type']);
    writeFileSync(path.join(root, 'dist/manifest.json'), MANIFEST('quoting_extension'));
    expect(await lint(root, 'src/a.ts', ADD_LINES)).toEqual([]);
  });

  it('from public/manifest.json, which Vite copies there, while the build output does not exist', async () => {
    const root = writeFolder({ 'pipeline-tool.config.json': '{ "source": "dist" }', 'public/manifest.json': MANIFEST('standalone') });
    expect(await lint(root, 'src/a.ts', ADD_LINES)).toEqual(['2:9 pipeline-tool/bridge-tool-type']);
  });

  it('without a project file, from the nearest manifest.json above the file', async () => {
    const root = writeFolder({ 'package.json': '{}', 'src/manifest.json': MANIFEST('standalone') });
    expect(await lint(root, 'src/app.js', ADD_LINES)).toEqual(['2:9 pipeline-tool/bridge-tool-type']);
  });

  it('says nothing when no manifest is found', async () => {
    const root = writeFolder({ 'package.json': '{}' });
    expect(await lint(root, 'src/app.js', ADD_LINES)).toEqual([]);
  });
});

describe('settings and comments apply as in validate', () => {
  const code = "alert('a');\nalert('b');\nlocalStorage.clear();\n";

  it("the project file's rules and overrides, matched against the path in the project", async () => {
    const root = writeFolder({
      'pipeline-tool.config.json': JSON.stringify({ rules: { 'browser-storage': 'off' }, overrides: [{ files: ['src/legacy/'], rules: { 'dialog-call': 'off' } }] }),
      'manifest.json': MANIFEST('standalone'),
    });
    expect(await lint(root, 'src/app.ts', code)).toEqual(['1:1 pipeline-tool/dialog-call', '2:1 pipeline-tool/dialog-call']);
    expect(await lint(root, 'src/legacy/old.ts', code)).toEqual([]);
  });

  it('pipeline-tool-disable-next-line comments, with or without rule ids, in TS, TSX and Vue', async () => {
    const root = writeFolder({ 'package.json': '{}' });
    const silenced = "// pipeline-tool-disable-next-line dialog-call\nalert('a');\n/* pipeline-tool-disable-next-line */\nlocalStorage.clear();\n// pipeline-tool-disable-next-line browser-storage\nalert('b');\n";
    expect(await lint(root, 'src/a.ts', silenced)).toEqual(['6:1 pipeline-tool/dialog-call']);
    expect(await lint(root, 'src/A.tsx', `${silenced}export const A = () => <p>{'x'}</p>;\n`)).toEqual(['6:1 pipeline-tool/dialog-call']);
    expect(await lint(root, 'src/A.vue', `<script setup lang="ts">\n${silenced}</script>\n`)).toEqual(['7:1 pipeline-tool/dialog-call']);
  });

  it("ESLint's own eslint-disable comments", async () => {
    const root = writeFolder({ 'package.json': '{}' });
    const text = "// eslint-disable-next-line pipeline-tool/dialog-call\nalert('a');\nalert('b'); // eslint-disable-line\n/* eslint-disable pipeline-tool/browser-storage */\nlocalStorage.clear();\n";
    expect(await lint(root, 'src/a.ts', text)).toEqual([]);
  });
});

describe('a file the plugin cannot read', () => {
  it('a project file with a mistake: one message with validate\'s wording, on the first line', async () => {
    const root = writeFolder({ 'pipeline-tool.config.json': '{ "rules": { "dialog-cal": "off" } }' });
    const messages = await messagesOf(root, 'src/a.ts', "alert('a');\nlocalStorage.clear();\n");
    expect(messages.map((m) => [m.line, m.column, m.fatal ?? false])).toEqual([[1, 1, false]]);
    expect(messages[0]!.message).toMatch(/^pipeline-tool\.config\.json:1:\d+: .*"dialog-cal".*"dialog-call"/);
  });

  it("a component Vue's compiler refuses: one message, which says why", async () => {
    const root = writeFolder({ 'package.json': '{}' });
    const messages = await messagesOf(root, 'src/A.vue', '<template><p>x</p></template>\n<script setup lang="ts">\ndefineProps<{ a: string }>();\ndefineProps<{ b: string }>();\nalert("x");\n</script>\n');
    expect(messages.map((m) => [m.line, m.column, m.message])).toEqual([[1, 1, expect.stringMatching(/^pipeline-tool cannot read this component: .*defineProps/)]]);
  });
});

describe('Vue templates and the positions of compiled code', () => {
  it('a template expression is read as the build compiles it, at the author\'s line and column', async () => {
    const root = writeFolder({ 'package.json': '{}' });
    const text = '<template>\n  <p>{{ note }}</p>\n  <button @click="Object.assign(box, { innerHTML: note })">x</button>\n</template>\n<script setup lang="ts">\nconst note: string = "alert(";\nconst box = document.body;\n</script>\n';
    expect(await lint(root, 'src/A.vue', text)).toEqual(['3:40 pipeline-tool/unsafe-html']);
  });

  it('a component without <script setup>: its script and its template, compiled apart', async () => {
    const root = writeFolder({ 'package.json': '{}' });
    const text =
      '<template>\n  <button @click="Object.assign(box, { innerHTML: note })">{{ "alert(" }}</button>\n</template>\n<script lang="ts">\nexport default {\n  methods: {\n    save(): void {\n      localStorage.setItem("a", "b");\n    },\n  },\n};\n</script>\n';
    expect(await lint(root, 'src/A.vue', text)).toEqual(['2:40 pipeline-tool/unsafe-html', '8:7 pipeline-tool/browser-storage']);
  });

  it('a column in TSX is the one the author wrote', async () => {
    const root = writeFolder({ 'package.json': '{}' });
    const text = "type P = { a: string };\nexport const A = ({ a }: P) => <p onClick={() => confirm(a)}>{a}</p>;\n";
    expect(await lint(root, 'src/A.tsx', text)).toEqual(['2:50 pipeline-tool/dialog-call']);
  });
});

describe('the libraries that read TypeScript, JSX and Vue', () => {
  it('a missing one is named, with the command that installs it', () => {
    expect(() => peer('pipeline-tool-no-such-package', 'a .ts file')).toThrow(UnreadableFileError);
    expect(() => peer('pipeline-tool-no-such-package', 'a .ts file')).toThrow(
      'pipeline-tool cannot read this file: a .ts file needs the package pipeline-tool-no-such-package, which is not installed. Add it with `npm install -D pipeline-tool-no-such-package`.',
    );
  });
});

describe('JSX, compiled by Oxc where the project has it, else by TypeScript', () => {
  it('both place each finding at the column the author wrote', () => {
    const text = "type P = { a: string };\nexport const A = ({ a }: P) => <p title=\"alert(\" onClick={() => confirm(a)}>{localStorage.x}</p>;\n";
    const line = text.split('\n')[1]!;
    const places = (script: { text: string; place: (line: number, column: number) => unknown }) =>
      scanScriptText(script.text, 'A.tsx', { toolType: undefined, declared: false }).findings.map((f) => [f.ruleId, script.place(f.line!, f.column!)]);
    const expected = [
      ['dialog-call', { line: 2, column: line.indexOf('confirm') }],
      ['browser-storage', { line: 2, column: line.indexOf('localStorage') }],
    ];
    expect(places(scriptsOf(text, 'A.tsx')[0]!)).toEqual(expected);
    expect(places(transpileJsx(text, 'A.tsx', '.tsx'))).toEqual(expected);
  });
});
