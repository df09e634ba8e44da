import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rspack, type Configuration as RspackConfiguration } from '@rspack/core';
import { build as viteBuild } from 'vite';
import webpack, { type Configuration as WebpackConfiguration } from 'webpack';
import { describe, expect, it } from 'vitest';
import type { Problem, Report } from '../../src/core/problem.js';
import { validateBundle } from '../../src/core/validate.js';
import { goodManifest, writeFolder } from '../helpers/bundles.js';
import { buildApp, positionOf } from '../helpers/built-app.js';

/*
 * Findings in what real toolchains build, placed at the author's source through the maps they
 * write by default: webpack 5 and Rspack name sources `webpack://<package>/./src/…`, Parcel 2
 * names them from the project's folder (`src/index.ts` in `dist/index.js.map`). Each project
 * holds a mistake in the author's code (localStorage, an unknown bridge method called through an
 * alias) and one in a small library under node_modules/ (innerHTML); validate of the built folder
 * must report each at its source, and mark the library's as library code by its path.
 */

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILD_TIMEOUT = 180_000;

/** The author's entry, in JavaScript (webpack reads it without a loader) or TypeScript. */
const ENTRY_JS = [
  "import { render } from 'tiny-lib';",
  '',
  'const quotes = window.pipeline.quotes;',
  '',
  'export function start() {',
  "  const saved = localStorage.getItem('name');",
  '  render(document.body, String(saved));',
  '  quotes.addLnies([{ qty: 1, unitPrice: 5 }]);',
  '}',
  'start();',
  '',
].join('\n');
const ENTRY_TS = ENTRY_JS.replace('window.pipeline', '(window as any).pipeline').replace('start() {', 'start(): void {');

/** A library with a licence banner, which webpack's minifier moves to a `.LICENSE.txt` file. */
const LIBRARY_JS = ['/*! tiny-lib 1.0.0 | MIT License */', 'export function render(el, html) {', '  el.innerHTML = html;', '}', ''].join('\n');

interface Project {
  root: string;
  entry: string;
  entryText: string;
}

function project(entry: 'src/index.js' | 'src/index.ts'): Project {
  const entryText = entry.endsWith('.ts') ? ENTRY_TS : ENTRY_JS;
  const root = writeFolder({
    'package.json': JSON.stringify({ name: 'my-app', version: '1.0.0', private: true }),
    [entry]: entryText,
    'node_modules/tiny-lib/package.json': JSON.stringify({ name: 'tiny-lib', version: '1.0.0', main: 'index.js', sideEffects: false }),
    'node_modules/tiny-lib/index.js': LIBRARY_JS,
  });
  return { root, entry, entryText };
}

/** Writes the manifest and the page that loads `script` into the built folder. */
function completeTool(dist: string, script: string): void {
  writeFileSync(path.join(dist, 'manifest.json'), JSON.stringify(goodManifest, null, 2));
  writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><title>App</title><script src="${script}"></script></head><body></body></html>\n`);
}

const of = (report: Report, ruleId: string): Problem[] => report.problems.filter((problem) => problem.ruleId === ruleId);

/** The three findings, each at its source, the library's marked with its package and no other. */
function expectPlacedAtSources(report: Report, app: Project): void {
  expect(of(report, 'browser-storage')).toEqual([expect.objectContaining({ file: app.entry, ...positionOf(app.entryText, 'localStorage') })]);
  expect(of(report, 'bridge-unknown-method')).toEqual([expect.objectContaining({ file: app.entry, ...positionOf(app.entryText, 'addLnies') })]);
  expect(of(report, 'unsafe-html')).toEqual([
    expect.objectContaining({ file: 'node_modules/tiny-lib/index.js', ...positionOf(LIBRARY_JS, 'innerHTML'), library: true, package: 'tiny-lib' }),
  ]);
  for (const problem of [...of(report, 'browser-storage'), ...of(report, 'bridge-unknown-method')]) {
    expect(problem).not.toHaveProperty('library');
    expect(problem.built).toBeDefined();
  }
}

function run<T extends { hasErrors(): boolean; toString(options?: unknown): string }>(compile: (done: (error: Error | null, stats?: T) => void) => void): Promise<void> {
  return new Promise((resolve, reject) =>
    compile((error, stats) => {
      if (error) reject(error);
      else if (!stats || stats.hasErrors()) reject(new Error(stats?.toString() ?? 'no stats'));
      else resolve();
    }),
  );
}

describe('webpack 5, production, with its default source names', () => {
  async function buildWebpack(devtool: string): Promise<{ app: Project; dist: string; bundle: string }> {
    const app = project('src/index.js');
    const dist = path.join(app.root, 'dist');
    const config: WebpackConfiguration = { mode: 'production', context: app.root, entry: './src/index.js', devtool, output: { path: dist, filename: 'main.js' } };
    await run((done) => webpack(config, done));
    completeTool(dist, 'main.js');
    return { app, dist, bundle: readFileSync(path.join(dist, 'main.js'), 'utf8') };
  }

  it.each(['source-map', 'hidden-source-map', 'nosources-source-map'])(
    'devtool %s: each finding at its source, the library\u2019s marked by its path though its banner moved out',
    async (devtool) => {
      const { app, dist, bundle } = await buildWebpack(devtool);
      const map = JSON.parse(readFileSync(path.join(dist, 'main.js.map'), 'utf8')) as { sources: string[]; sourcesContent?: unknown };
      expect(map.sources).toEqual(expect.arrayContaining(['webpack://my-app/./src/index.js', 'webpack://my-app/./node_modules/tiny-lib/index.js']));
      expect(map.sourcesContent === undefined).toBe(devtool === 'nosources-source-map');
      expect(bundle.includes('sourceMappingURL')).toBe(devtool !== 'hidden-source-map');
      // terser-webpack-plugin keeps the banner apart; the bundle only points at it.
      expect(bundle).toMatch(/^\/\*! For license information please see main\.js\.LICENSE\.txt \*\//);
      expect(existsSync(path.join(dist, 'main.js.LICENSE.txt'))).toBe(true);
      expectPlacedAtSources(await validateBundle(dist, { sourceMaps: { root: app.root } }), app);
    },
    BUILD_TIMEOUT,
  );

  it('a namespace-less name, and a query, read the same; a name that climbs out of the project is not used', async () => {
    const { app, dist, bundle } = await buildWebpack('source-map');
    const mapFile = path.join(dist, 'main.js.map');
    const original = readFileSync(mapFile, 'utf8');
    const rewrite = (change: (source: string) => string) => {
      const map = JSON.parse(original) as { sources: string[] };
      writeFileSync(mapFile, JSON.stringify({ ...map, sources: map.sources.map(change) }));
    };
    rewrite((source) => `${source.replace('webpack://my-app/', 'webpack:///')}?abcd`);
    expectPlacedAtSources(await validateBundle(dist, { sourceMaps: { root: app.root } }), app);

    // With node_modules/ as the project's folder, `webpack://my-app/../src/index.js` climbs out
    // of it, though a URL's resolving would drop the `..` and find the copy put at its src/.
    rewrite((source) => source.replace('webpack://my-app/./', 'webpack://my-app/../'));
    const inner = path.join(app.root, 'node_modules');
    mkdirSync(path.join(inner, 'src'));
    writeFileSync(path.join(inner, 'src', 'index.js'), app.entryText);
    const report = await validateBundle(dist, { sourceMaps: { root: inner } });
    expect(of(report, 'browser-storage')).toEqual([expect.objectContaining({ file: 'main.js', ...positionOf(bundle, 'localStorage') })]);
    expect(of(report, 'browser-storage')[0]).not.toHaveProperty('built');
  }, BUILD_TIMEOUT);
});

describe('Rspack, production, with its default source names', () => {
  it('places each finding at its source (TypeScript through its own SWC loader), the library\u2019s marked', async () => {
    const app = project('src/index.ts');
    const dist = path.join(app.root, 'dist');
    const config: RspackConfiguration = {
      mode: 'production',
      context: app.root,
      entry: './src/index.ts',
      devtool: 'source-map',
      output: { path: dist, filename: 'main.js' },
      module: { rules: [{ test: /\.ts$/, loader: 'builtin:swc-loader', options: { jsc: { parser: { syntax: 'typescript' } } } }] },
    };
    await run((done) => rspack(config, done));
    const map = JSON.parse(readFileSync(path.join(dist, 'main.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources).toEqual(expect.arrayContaining(['webpack://my-app/./src/index.ts', 'webpack://my-app/./node_modules/tiny-lib/index.js']));
    completeTool(dist, 'main.js');
    expectPlacedAtSources(await validateBundle(dist, { sourceMaps: { root: app.root } }), app);
  }, BUILD_TIMEOUT);
});

describe('Parcel 2, production', () => {
  it('places each finding at its source, named from the project\u2019s folder in a map without sourceRoot', () => {
    const app = project('src/index.ts');
    execFileSync(process.execPath, [path.join(REPO, 'node_modules', 'parcel', 'lib', 'bin.js'), 'build', 'src/index.ts', '--dist-dir', 'dist', '--no-cache', '--cache-dir', '.parcel-cache', '--log-level', 'error'], {
      cwd: app.root,
      stdio: 'pipe',
    });
    const dist = path.join(app.root, 'dist');
    const script = readdirSync(dist).find((name) => name.endsWith('.js'))!;
    const map = JSON.parse(readFileSync(path.join(dist, `${script}.map`), 'utf8')) as { sources: string[]; sourceRoot?: string; sourcesContent?: unknown[] };
    expect(map.sources).toEqual(expect.arrayContaining(['src/index.ts', 'node_modules/tiny-lib/index.js']));
    expect(map.sourceRoot).toBeUndefined();
    expect(map.sourcesContent).toBeDefined();
    completeTool(dist, script);
    return validateBundle(dist, { sourceMaps: { root: app.root } }).then((report) => expectPlacedAtSources(report, app));
  }, BUILD_TIMEOUT);
});

describe('an alias of the bridge that the minifier inlines into one chain', () => {
  // `quotes` is used once: esbuild's and Vite's minifiers write `window.pipeline.quotes.addLnies(`,
  // whose first word the map places at the alias's line, and its method at the call's. The
  // finding stays reported at the chain's start in the bundle (built), and is placed at the call.
  const SAVE_TS = ['export function save(): void {', '  const quotes = (window as any).pipeline.quotes;', '  quotes.addLnies([{ qty: 1 }]);', '}', ''].join('\n');
  const call = positionOf(SAVE_TS, 'addLnies');

  it('esbuild: the finding is at the called method in the source', async () => {
    const app = buildApp({ 'src/save.ts': SAVE_TS, 'src/main.tsx': "import { save } from './save';\n\nsave();\n" });
    expect(app.bundle).toContain('window.pipeline.quotes.addLnies(');
    const report = await validateBundle(app.dist, { sourceMaps: { root: app.project } });
    expect(of(report, 'bridge-unknown-method')).toEqual([expect.objectContaining({ file: 'src/save.ts', ...call, built: { file: 'assets/index.js', ...positionOf(app.bundle, 'window.pipeline.quotes.addLnies(') } })]);
  });

  it('Vite: the finding is at the called method in the source', async () => {
    const root = writeFolder({
      'index.html': '<!doctype html><html><head><meta charset="utf-8"><title>App</title><script type="module" src="/src/main.ts"></script></head><body></body></html>\n',
      'public/manifest.json': JSON.stringify(goodManifest, null, 2),
      'src/main.ts': "import { save } from './save';\n\nsave();\n",
      'src/save.ts': SAVE_TS,
    });
    await viteBuild({ root, configFile: false, logLevel: 'silent', build: { sourcemap: true } });
    const dist = path.join(root, 'dist');
    const script = readdirSync(path.join(dist, 'assets')).find((name) => name.endsWith('.js'))!;
    const bundle = readFileSync(path.join(dist, 'assets', script), 'utf8');
    expect(bundle).toContain('window.pipeline.quotes.addLnies(');
    const report = await validateBundle(dist, { sourceMaps: { root } });
    expect(of(report, 'bridge-unknown-method')).toEqual([expect.objectContaining({ file: 'src/save.ts', ...call, built: { file: `assets/${script}`, ...positionOf(bundle, 'window.pipeline.quotes.addLnies(') } })]);
  }, BUILD_TIMEOUT);
});
