import { cpSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import vue from '@vitejs/plugin-vue';
import { build, type PluginOption } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/core/validate.js';
import pipeline from '../../src/vite/index.js';
import { runCli } from '../helpers/cli.js';
import { captureLogger, MANIFEST, REPO, viteProject, type CapturedLogger } from './helpers.js';

/*
 * Small apps built with real libraries through pipeline-tool/vite, as authors build them
 * (package.json pins each version): the verdict on library code (guarded storage is no problem,
 * unguarded storage names its package, warnings summed up once per package), the framework ways
 * of writing HTML found at the author's line, and the font guard. Each app is built once and its
 * checks share it; the templates' project file and `validate --max-warnings 0` are the CI's.
 */

const PROJECT_FILE = JSON.stringify({ source: 'dist', out: 'release', overrides: [{ files: ['node_modules/'], rules: { 'unsafe-html': 'off' } }] });
const page = (entry: string) =>
  `<!doctype html>\n<html lang="en">\n  <head><meta charset="utf-8"><title>App</title></head>\n  <body><div id="root"></div><script type="module" src="/src/${entry}"></script></body>\n</html>\n`;

interface Built {
  root: string;
  logger: CapturedLogger;
  error?: Error;
}

/**
 * `installed`: packages copied into the project rather than linked, as npm installs them: source
 * maps place findings only in files that really lie inside the project.
 */
async function buildApp(files: Record<string, string>, plugins: PluginOption[], installed: string[]): Promise<Built> {
  const root = viteProject({ 'public/manifest.json': JSON.stringify(MANIFEST), 'pipeline-tool.config.json': PROJECT_FILE, ...files });
  for (const name of installed) {
    const target = path.join(root, 'node_modules', name);
    const scope = path.dirname(target);
    if (name.startsWith('@') && lstatSync(scope).isSymbolicLink()) {
      // A scope linked whole becomes a folder of links, one per package, so that one can be copied.
      rmSync(scope);
      mkdirSync(scope);
      for (const member of readdirSync(path.join(REPO, 'node_modules', path.basename(scope)))) symlinkSync(path.join(REPO, 'node_modules', path.basename(scope), member), path.join(scope, member));
    }
    rmSync(target);
    cpSync(path.join(REPO, 'node_modules', name), target, { recursive: true });
  }
  const logger = captureLogger();
  try {
    // The project's node_modules links to this repository's packages: keeping the links' paths
    // keeps the libraries inside the project, where an installed one would be, for the maps.
    await build({ root, configFile: false, customLogger: logger, logLevel: 'info', plugins: [...plugins, pipeline()], resolve: { preserveSymlinks: true } });
    return { root, logger };
  } catch (error) {
    return { root, logger, error: error as Error };
  }
}

/** The templates' `npm run validate`, on the built app. */
const validateAsCi = (root: string) => runCli(['validate', '--max-warnings', '0'], { cwd: root });

describe('a React app with MUI, @fontsource/roboto and i18next\u2019s language detector', () => {
  let app: Built;
  beforeAll(async () => {
    app = await buildApp(
      {
        'index.html': page('main.tsx'),
        'src/main.tsx': [
          "import '@fontsource/roboto/400.css';",
          "import Button from '@mui/material/Button';",
          "import i18next from 'i18next';",
          "import LanguageDetector from 'i18next-browser-languagedetector';",
          "import { createRoot } from 'react-dom/client';",
          '',
          "void i18next.use(LanguageDetector).init({ resources: { en: { translation: { add: 'Add' } } }, fallbackLng: 'en' });",
          'function Note({ html }: { html: string }) {',
          '  return <div dangerouslySetInnerHTML={{ __html: html }} />;',
          '}',
          "createRoot(document.getElementById('root')!).render(<><Button variant=\"contained\">{i18next.t('add')}</Button><Note html={location.hash} /></>);",
          '',
        ].join('\n'),
      },
      [react()],
      ['i18next', 'i18next-browser-languagedetector', 'react-dom'],
    );
  }, 300_000);

  it('builds, leaving out the fallback fonts that @font-face names beside .woff2, in one line', () => {
    expect(app.error).toBeUndefined();
    const files = readdirSync(path.join(app.root, 'dist'), { recursive: true }).map(String);
    expect(files.some((file) => /\.(woff|ttf|eot)$/.test(file))).toBe(false);
    expect(files.some((file) => file.endsWith('.woff2'))).toBe(true);
    const lines = app.logger.lines.filter((line) => line.message.includes('fallback font'));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.message).toMatch(/^\[pipeline-tool\] left out \d+ fallback font files \(\.woff, \.ttf, \.eot\), .* name \.woff2, .*: node_modules\/@fontsource\/roboto\/400\.css, imported by src\/main\.tsx\.$/);
    // Vite's advice to split with import() does not fit a one-script build.
    expect(app.logger.text()).not.toContain('dynamic import()');
  });

  it('finds dangerouslySetInnerHTML at the author\u2019s line, and nothing in i18next\u2019s guarded storage', async () => {
    const report = await validateBundle(path.join(app.root, 'dist'), { sourceMaps: { root: app.root } });
    const own = report.problems.filter((p) => !p.library);
    expect(own.map((p) => `${p.ruleId} ${p.file}:${p.line} ${String(p.data?.sink)}`)).toEqual(['unsafe-html src/main.tsx:9 dangerouslySetInnerHTML']);
    expect(report.problems.filter((p) => p.ruleId === 'browser-storage')).toEqual([]);
    // The one finding is the author's: CI fails on it, and on nothing else.
    const ci = validateAsCi(app.root);
    expect(ci.code).toBe(1);
    expect(ci.stdout).toContain('1 problem (0 errors, 1 warning)');
    // Without the author's mistake, nothing of the libraries' counts: CI passes.
    expect(runCli(['validate', '--max-warnings', '0', '--rule', 'unsafe-html=off'], { cwd: app.root }).code).toBe(0);
  });
});

const STORE_LINE = "export const useDraft = defineStore('draft', { state: () => ({ note: '' }), persist: true });";

describe('a Vue app with pinia and pinia-plugin-persistedstate', () => {
  let app: Built;
  beforeAll(async () => {
    app = await buildApp(
      {
        'index.html': page('main.ts'),
        'src/main.ts': [
          "import { createApp } from 'vue';",
          "import { createPinia } from 'pinia';",
          "import piniaPluginPersistedstate from 'pinia-plugin-persistedstate';",
          "import App from './App.vue';",
          '',
          'const pinia = createPinia();',
          'pinia.use(piniaPluginPersistedstate);',
          "createApp(App).use(pinia).mount('#root');",
          '',
        ].join('\n'),
        'src/store.ts': [
          "import { defineStore } from 'pinia';",
          '',
          STORE_LINE,
          '',
        ].join('\n'),
        'src/App.vue': [
          '<script setup lang="ts">',
          "import { useDraft } from './store';",
          'const draft = useDraft();',
          '</script>',
          '',
          '<template>',
          '  <textarea v-model="draft.note"></textarea>',
          '  <div v-html="draft.note"></div>',
          '</template>',
          '',
        ].join('\n'),
      },
      [vue()],
      ['pinia-plugin-persistedstate', '@vue/runtime-dom'],
    );
  }, 300_000);

  it('names the package whose storage nothing guards, once, with what to do about it', () => {
    expect(app.error).toBeUndefined();
    const warnings = app.logger.text('warn');
    const summary = warnings.split('\n').filter((line) => line.includes('pinia-plugin-persistedstate'));
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatch(/\[pipeline-tool\] node_modules\/pinia-plugin-persistedstate: 1 browser-storage warning in pinia-plugin-persistedstate \(library code\), not listed/);
    // Where the author turned it on: the store's persist option, through the map.
    expect(summary[0]).toContain(`Do not turn on pinia-plugin-persistedstate's persistence (turned on at src/store.ts:3:${STORE_LINE.indexOf('persist') + 1});`);
    expect(summary[0]).not.toContain('overrides');
  });

  it('finds v-html at the author\u2019s line, and CI fails on the unguarded library store the author turned on', async () => {
    const report = await validateBundle(path.join(app.root, 'dist'), { sourceMaps: { root: app.root } });
    expect(report.problems.filter((p) => !p.library).map((p) => `${p.ruleId} ${p.file}:${p.line}`)).toEqual(['unsafe-html src/App.vue:8']);
    expect(report.problems.filter((p) => p.library && p.ruleId === 'browser-storage').map((p) => [p.package, p.data?.enabledAt])).toEqual([
      ['pinia-plugin-persistedstate', `src/store.ts:3:${STORE_LINE.indexOf('persist') + 1}`],
    ]);
    const ci = validateAsCi(app.root);
    expect(ci.code).toBe(1);
    expect(ci.stdout).toContain('browser-storage warning in pinia-plugin-persistedstate (library code)');
  });
});

describe('a Svelte app with {@html}', () => {
  let app: Built;
  beforeAll(async () => {
    const { svelte } = await import('@sveltejs/vite-plugin-svelte');
    app = await buildApp(
      {
        'index.html': page('main.js'),
        'src/main.js': "import { mount } from 'svelte';\nimport App from './App.svelte';\n\nmount(App, { target: document.getElementById('root'), props: { note: location.hash } });\n",
        'src/App.svelte': [
          '<script>',
          "  let { note = '' } = $props();",
          '</script>',
          '',
          '<div class="note">{@html note}</div>',
          "<p>{@html '<b>Fixed</b> text'}</p>",
          '<p>{@html   note.toUpperCase()}</p>',
          '',
        ].join('\n'),
      },
      [svelte()],
      ['svelte'],
    );
  }, 300_000);

  it('finds {@html} with run-time data at the author\u2019s line, through the map from the write in Svelte\u2019s own code', async () => {
    expect(app.error).toBeUndefined();
    // Svelte compiles {@html} to a call of its own function, renamed by the minifier: the write is
    // found in that function, and the map leads from the call's value back to the author's tag.
    const report = await validateBundle(path.join(app.root, 'dist'), { sourceMaps: { root: app.root } });
    const html = report.problems.filter((p) => p.ruleId === 'unsafe-html');
    expect(html.some((p) => p.package === 'svelte' && /blocks\/html\.js$/.test(p.file ?? ''))).toBe(true);
    // The literal on line 6 is fine.
    expect(html.filter((p) => !p.library).map((p) => `${p.file}:${p.line}:${p.column} ${String(p.data?.sink)}`)).toEqual(['src/App.svelte:5:26 {@html}', 'src/App.svelte:7:13 {@html}']);
    expect(html.find((p) => !p.library)?.built?.file).toMatch(/^assets\/index-.*\.js$/);
    // The Vite build says it at the author's line too.
    expect(app.logger.text('warn')).toContain('src/App.svelte:5:26: {@html} is given HTML built at run time.');
    // The templates' CI fails on the author's {@html}, not on Svelte's own code, which their override quiets.
    const ci = validateAsCi(app.root);
    expect(ci.code).toBe(1);
    expect(ci.stdout).toContain('2 problems (0 errors, 2 warnings)');
    expect(runCli(['validate', '--max-warnings', '0', '--rule', 'unsafe-html=off'], { cwd: app.root }).code).toBe(0);
  });
});
