import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, createBuilder, resolveConfig, type InlineConfig, type Plugin, type ResolvedConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import pipeline from '../../src/vite/index.js';
import { BuildFailure } from '../../src/vite/failure.js';
import { captureLogger, INDEX_HTML, MANIFEST, viteProject, type CapturedLogger } from './helpers.js';

/*
 * The plugin's parts one by one, each through real Vite on a project of a few lines: the config it
 * gives Vite (read back from `resolveConfig`, which runs the config hooks), and what a build of a
 * tiny project writes, says and refuses. Each build takes a fraction of a second, so these are the
 * tests `npm run mutate` runs against the mutants of src/vite (test/vite/build.test.ts builds whole
 * apps and runs them in a browser).
 */

/** Bytes that are not worth compressing, so sizes stay what the test says. */
const bytes = (count: number) => Buffer.from(Array.from({ length: count }, (_, i) => (i * 7919) % 251));

const TINY = {
  'index.html': INDEX_HTML,
  'public/manifest.json': JSON.stringify(MANIFEST),
  'src/main.ts': "document.getElementById('root')!.textContent = 'ready';\n",
};

async function tinyBuild(files: Record<string, string | Buffer>, config: InlineConfig = {}, plugins = pipeline(), where = ''): Promise<{ root: string; logger: CapturedLogger; error?: Error }> {
  const root = viteProject(files);
  const logger = captureLogger();
  try {
    await build({ root: path.join(root, where), configFile: false, customLogger: logger, logLevel: 'info', plugins, ...config });
    return { root, logger };
  } catch (error) {
    return { root, logger, error: error as Error };
  }
}

async function resolved(config: InlineConfig = {}, files: Record<string, string | Buffer> = TINY, plugins = pipeline()): Promise<{ config: ResolvedConfig; logger: CapturedLogger; root: string }> {
  const root = viteProject(files);
  const logger = captureLogger();
  return { config: await resolveConfig({ root, configFile: false, customLogger: logger, plugins, ...config }, 'build'), logger, root };
}

const written = (root: string, folder = 'dist') => {
  try {
    return readdirSync(path.join(root, folder), { recursive: true }).map(String).sort();
  } catch {
    return [];
  }
};
/** What the plugin warned of, without the name of the plugin that Vite puts before each warning. */
const warnings = (logger: CapturedLogger) => logger.lines.filter((line) => line.level === 'warn').map((line) => line.message.replace(/^\[plugin pipeline-tool:build\] /, ''));
/** The plugin's own failure: `build()` wraps it in Rolldown's error, which lists it. */
const failureOf = (error: Error | undefined) => {
  const inner = (error as { errors?: unknown[] } | undefined)?.errors?.[0];
  return inner instanceof BuildFailure ? inner.message : error?.message;
};
const scriptOf = (root: string) => readFileSync(path.join(root, 'dist', written(root).find((file) => file.endsWith('.js'))!), 'utf8');

describe('the config pipeline-tool/vite gives Vite', () => {
  it('a relative base, hidden maps, one classic script with its stylesheet apart, and a 10,000 kB chunk warning', async () => {
    const { config } = await resolved();
    expect(config.base).toBe('./');
    expect(config.build.sourcemap).toBe('hidden');
    expect(config.build.cssCodeSplit).toBe(false);
    expect(config.build.modulePreload).toBe(false);
    expect(config.build.chunkSizeWarningLimit).toBe(10_000);
    const output = config.build.rolldownOptions.output as { format: string; codeSplitting: boolean; intro: string };
    expect(output.format).toBe('iife');
    expect(output.codeSplitting).toBe(false);
    expect(output.intro).toBe('var __pipelineToolScriptUrl = document.currentScript && document.currentScript.src || document.baseURI;');
    expect(config.build.rolldownOptions.transform?.define).toEqual({ 'import.meta.url': '__pipelineToolScriptUrl', 'import.meta.resolve': 'undefined' });
  });

  it('keeps what the author chose where that is safe', async () => {
    const { config } = await resolved({ base: '', build: { chunkSizeWarningLimit: 300, sourcemap: false, rolldownOptions: { output: { intro: 'var mine = 1;' } } } });
    expect(config.base).toBe('./');
    expect(config.build.chunkSizeWarningLimit).toBe(300);
    expect(config.build.sourcemap).toBe(false);
    expect((config.build.rolldownOptions.output as { intro: string }).intro).toBe('var __pipelineToolScriptUrl = document.currentScript && document.currentScript.src || document.baseURI;\nvar mine = 1;');
    for (const sourcemap of [true, 'inline'] as const) expect((await resolved({ build: { sourcemap } })).config.build.sourcemap).toBe('hidden');
  });

  it('refuses a base that is not relative, saying what to do', async () => {
    await expect(resolved({ base: '/app/' })).rejects.toThrow(
      '[pipeline-tool] base is "/app/", but a tool\'s files are served from an address nobody knows in advance, so every path must be relative. Remove base from the Vite config, or set it to "./".',
    );
    await expect(resolved({ base: '/app/' })).rejects.toBeInstanceOf(BuildFailure);
    expect((await resolved({ base: './' })).config.base).toBe('./');
  });

  it('warns when the project file names another folder than the one Vite builds, from the project file’s folder', async () => {
    const other = await resolved({}, { ...TINY, 'pipeline-tool.config.json': JSON.stringify({ source: 'build' }) });
    expect(other.logger.text('warn')).toBe(
      '[pipeline-tool] pipeline-tool.config.json names "build" as the tool folder, but Vite builds into dist, so pipeline-tool validate and pack would not see this build. Set "source": "dist".',
    );
    const nested = viteProject({ ...Object.fromEntries(Object.entries(TINY).map(([file, text]) => [`app/${file}`, text])), 'pipeline-tool.config.json': JSON.stringify({ source: 'out' }) });
    const logger = captureLogger();
    await resolveConfig({ root: path.join(nested, 'app'), configFile: false, customLogger: logger, plugins: pipeline(), build: { outDir: 'web' } }, 'build');
    expect(logger.text('warn')).toBe(
      '[pipeline-tool] pipeline-tool.config.json names "out" as the tool folder, but Vite builds into app/web, so pipeline-tool validate and pack would not see this build. Set "source": "app/web".',
    );
    // The project's own folder as the source reads as ".".
    const itself = await resolved({}, { ...TINY, 'pipeline-tool.config.json': JSON.stringify({ source: '.' }) });
    expect(itself.logger.text('warn')).toContain('pipeline-tool.config.json names "." as the tool folder, but Vite builds into dist,');
    for (const files of [TINY, { ...TINY, 'pipeline-tool.config.json': JSON.stringify({ source: 'dist' }) }, { ...TINY, 'pipeline-tool.config.json': JSON.stringify({ rules: {} }) }]) {
      expect((await resolved({}, files)).logger.lines).toEqual([]);
    }
  });

  it('inlines refused types up to the limit included, accepted ones below Vite’s limit or by the author’s function', async () => {
    const limit = (config: ResolvedConfig) => config.build.assetsInlineLimit as (file: string, content: Buffer) => boolean | undefined;
    const plain = limit((await resolved()).config);
    expect(plain('/a/b.webp', bytes(4096))).toBe(true);
    expect(plain('/a/b.webp', bytes(4097))).toBe(false);
    expect(plain('/a/b.png', bytes(4095))).toBe(true);
    expect(plain('/a/b.png', bytes(4096))).toBe(false);
    // .jpeg is .jpg by another name, a map and a file without a type are never refused: Vite's limit.
    for (const file of ['/a/b.jpeg', '/a/b.map', '/a/LICENSE']) expect(plain(file, bytes(4096))).toBe(false);
    expect(plain('/a/b.woff?v=1', bytes(4096))).toBe(true);
    const given = limit((await resolved({ build: { assetsInlineLimit: 100 } })).config);
    expect(given('/a/b.png', bytes(99))).toBe(true);
    expect(given('/a/b.png', bytes(100))).toBe(false);
    expect(given('/a/b.webp', bytes(4096))).toBe(true);
    const calls: string[] = [];
    const own = limit((await resolved({ build: { assetsInlineLimit: (file) => (calls.push(file), file.endsWith('.svg') ? true : undefined) } })).config);
    expect(own('/a/b.svg', bytes(90_000))).toBe(true);
    expect(own('/a/b.png', bytes(10))).toBeUndefined();
    expect(own('/a/b.gif', bytes(10))).toBe(true);
    expect(calls).toEqual(['/a/b.svg', '/a/b.png']);
    const zero = limit((await resolved({}, TINY, pipeline({ inlineLimit: 0 }))).config);
    expect(zero('/a/b.webp', bytes(1))).toBe(false);
    expect(zero('/a/b.webp', bytes(0))).toBe(true);
    // Source the build compiles is never taken for a refused asset.
    expect(zero('/a/b.scss', bytes(10))).toBe(true);
  });

  it('names assets with the accepted spelling of their type, in the assets folder, unless the author names them', async () => {
    type Names = (asset: { names: string[] }) => string;
    const names = (config: ResolvedConfig) => (config.build.rolldownOptions.output as { assetFileNames?: Names }).assetFileNames;
    const ours = names((await resolved()).config)!;
    expect(ours({ names: ['photo.jpeg'] })).toBe('assets/[name]-[hash].jpg');
    expect(ours({ names: ['photo.png'] })).toBe('assets/[name]-[hash].png');
    expect(ours({ names: ['LICENSE'] })).toBe('assets/[name]-[hash][extname]');
    expect(ours({ names: [] })).toBe('assets/[name]-[hash][extname]');
    expect(names((await resolved({ build: { assetsDir: 'static' } })).config)!({ names: ['a.jpeg'] })).toBe('static/[name]-[hash].jpg');
    expect(names((await resolved({ build: { rolldownOptions: { output: { assetFileNames: 'x/[name][extname]' } } } })).config)).toBe('x/[name][extname]');
    expect(names((await resolved({ build: { rollupOptions: { output: { assetFileNames: 'y/[name][extname]' } } } })).config)).toBe('y/[name][extname]');
    // An output without names of its own still gets them, and the script's address without an intro of the author's.
    const unnamed = (await resolved({ build: { rolldownOptions: { output: { entryFileNames: '[name].js' } } } })).config;
    expect(names(unnamed)!({ names: ['a.jpeg'] })).toBe('assets/[name]-[hash].jpg');
    expect((unnamed.build.rolldownOptions.output as { intro: string }).intro).toBe('var __pipelineToolScriptUrl = document.currentScript && document.currentScript.src || document.baseURI;');
  });
});

describe('a build of a tiny project', () => {
  it('passes validate, saying so after the size line', async () => {
    const { root, logger, error } = await tinyBuild(TINY);
    expect(error).toBeUndefined();
    expect(warnings(logger).join('\n')).toBe('');
    const info = logger.text('info').split('\n').filter((line) => line.startsWith('[pipeline-tool]'));
    expect(info).toHaveLength(2);
    expect(info[0]).toMatch(/^\[pipeline-tool\] dist\/: [\d,]+ bytes zipped of 10,000,000 /);
    expect(info[1]).toBe('[pipeline-tool] dist/ passes pipeline-tool validate.');
    expect(written(root)).toContain('index.html');
    expect(scriptOf(root)).not.toContain('sourceMappingURL');
    // The page Vite writes loads one classic script, without CORS.
    const html = readFileSync(path.join(root, 'dist', 'index.html'), 'utf8');
    expect(html).toMatch(/<script defer src="\.\/assets\/index-[\w-]+\.js"><\/script>/);
    expect(html).not.toMatch(/type="module"|crossorigin/);
  });

  it('counts warnings, one and several, and shows each at its source line', async () => {
    const one = await tinyBuild({ ...TINY, 'src/main.ts': "alert('a');\n" });
    expect(one.logger.text('info')).toContain('[pipeline-tool] dist/ passes pipeline-tool validate with 1 warning.');
    expect(warnings(one.logger).join('\n')).toMatch(/^\[pipeline-tool\] src\/main\.ts:1:1: .*alert.* \(dialog-call, built: dist\/assets\/index-[\w-]+\.js:\d+:\d+\)$/);
    const two = await tinyBuild({ ...TINY, 'src/main.ts': "alert('a');\nalert('b');\n" }, { build: { outDir: 'out/tool' } });
    expect(two.logger.text('info')).toContain('[pipeline-tool] out/tool/ passes pipeline-tool validate with 2 warnings.');
    expect(warnings(two.logger)).toEqual([
      expect.stringMatching(/^\[pipeline-tool\] src\/main\.ts:1:1: .* \(dialog-call, built: out\/tool\/assets\/index-[\w-]+\.js:\d+:\d+\)$/),
      expect.stringMatching(/^\[pipeline-tool\] src\/main\.ts:2:1: .* \(dialog-call, built: out\/tool\/assets\/index-[\w-]+\.js:\d+:\d+\)$/),
    ]);
  });

  it('checks the folder Rolldown writes to when the author’s output.dir points elsewhere', async () => {
    const root = viteProject({ ...TINY, 'src/main.ts': "alert('a');\n" });
    const logger = captureLogger();
    await build({ root, configFile: false, customLogger: logger, logLevel: 'info', plugins: pipeline(), build: { rolldownOptions: { output: { dir: path.join(root, 'elsewhere') } } } });
    expect(written(root, 'elsewhere')).toContain('index.html');
    expect(logger.text('info')).toContain('[pipeline-tool] elsewhere/ passes pipeline-tool validate with 1 warning.');
    expect(warnings(logger).join('\n')).toMatch(/\(dialog-call, built: elsewhere\/assets\/index-[\w-]+\.js:\d+:\d+\)$/);
  });

  it('rewrites the tags of the built page after every other plugin’s hook has added its own', async () => {
    const later: Plugin = { name: 'adds-a-stylesheet', transformIndexHtml: (html) => html.replace('</head>', '<link rel="stylesheet" crossorigin href="./extra.css"></head>') };
    const { root, error } = await tinyBuild({ ...TINY, 'public/extra.css': 'p { color: red; }\n' }, {}, [...pipeline(), later]);
    expect(error).toBeUndefined();
    const html = readFileSync(path.join(root, 'dist', 'index.html'), 'utf8');
    expect(html).toContain('<link rel="stylesheet" href="./extra.css">');
    expect(html).not.toContain('crossorigin');
  });

  it('shows an unplaced finding in the built file, at its line and column', async () => {
    const { logger } = await tinyBuild({ ...TINY, 'src/main.ts': "alert('a');\n" }, { build: { sourcemap: false } });
    expect(warnings(logger).join('\n')).toMatch(/^\[pipeline-tool\] dist\/assets\/index-[\w-]+\.js:\d+:\d+: .*alert.* \(dialog-call\)$/);
  });

  it('checks nothing with validate: false, and still prints the size line', async () => {
    const { logger, error } = await tinyBuild({ ...TINY, 'src/main.ts': "alert('a');\n" }, {}, pipeline({ validate: false }));
    expect(error).toBeUndefined();
    expect(warnings(logger).join('\n')).toBe('');
    expect(logger.text('info').split('\n').filter((line) => line.startsWith('[pipeline-tool]'))).toEqual([expect.stringMatching(/^\[pipeline-tool\] dist\/: [\d,]+ bytes zipped/)]);
  });

  it('fails on validate’s errors, counting and listing each, a file of the build shown in its folder', async () => {
    const { manifest: _m, ...rest } = { manifest: 0, ...TINY };
    const { 'public/manifest.json': _manifest, ...unnamed } = rest;
    const one = await tinyBuild(unnamed);
    expect(failureOf(one.error)).toMatch(/^\[pipeline-tool\] dist\/ would be refused: 1 error from pipeline-tool validate\.\n {2}dist\/manifest\.json: [^\n]* \(manifest-missing\)\nRun pipeline-tool rules <id> to learn about a rule\.$/);
    expect(one.logger.text('info')).not.toContain('passes');
    const two = await tinyBuild({ ...TINY, 'public/manifest.json': JSON.stringify({ ...MANIFEST, type: 'standalone' }), 'src/main.ts': "void (window as any).pipeline.quotes.addLines([]);\nvoid (window as any).pipeline.quotes.addLines([]);\nalert('x');\n" });
    expect(failureOf(two.error)).toMatch(/^\[pipeline-tool\] dist\/ would be refused: 2 errors from pipeline-tool validate\.\n {2}src\/main\.ts:1:\d+: .*\(bridge-tool-type, built: [^\n]*\n {2}src\/main\.ts:2:\d+: .*\(bridge-tool-type, built: [^\n]*\nRun/);
    expect(failureOf(two.error)).not.toContain('dialog-call');
    expect(warnings(two.logger).join('\n')).toContain('dialog-call');
    expect(warnings(two.logger).join('\n')).not.toContain('bridge-tool-type');
  });

  it('sums up a package’s warnings in one line, or lists them with verbose', async () => {
    const files = { ...TINY, 'src/main.ts': "import { keep } from 'keep-store';\nkeep('a', 'b');\n" };
    const withPackage = (root: string) => {
      mkdirSync(path.join(root, 'node_modules', 'keep-store'));
      writeFileSync(path.join(root, 'node_modules', 'keep-store', 'package.json'), JSON.stringify({ name: 'keep-store', version: '1.0.0', type: 'module', main: 'index.js' }));
      writeFileSync(path.join(root, 'node_modules', 'keep-store', 'index.js'), 'export function keep(key, value) {\n  alert(key);\n  alert(value);\n}\n');
    };
    const run = async (verbose: boolean) => {
      const root = viteProject(files);
      withPackage(root);
      const logger = captureLogger();
      await build({ root, configFile: false, customLogger: logger, logLevel: 'info', plugins: pipeline(verbose ? { verbose } : {}) });
      return logger;
    };
    const summed = await run(false);
    expect(warnings(summed).join('\n')).toMatch(/^\[pipeline-tool\] node_modules\/keep-store: 2 dialog-call warnings in keep-store \(library code\), not listed \(the verbose option of pipeline-tool\/vite lists them\)/);
    expect(warnings(summed).join('\n').split('\n')).toHaveLength(1);
    expect(summed.text('info')).toContain('passes pipeline-tool validate with 2 warnings.');
    const listed = await run(true);
    expect(warnings(listed).join('\n').split('\n')).toEqual([
      expect.stringMatching(/^\[pipeline-tool\] node_modules\/keep-store\/index\.js:2:3: .* \(dialog-call, built: /),
      expect.stringMatching(/^\[pipeline-tool\] node_modules\/keep-store\/index\.js:3:3: .* \(dialog-call, built: /),
    ]);
  });

  it('applies the project file’s rules and overrides, and names a finding of the whole folder by the folder', async () => {
    const alerts = { ...TINY, 'src/main.ts': "import './more';\nalert('a');\n", 'src/more.ts': "alert('b');\n" };
    const off = await tinyBuild({ ...alerts, 'pipeline-tool.config.json': JSON.stringify({ rules: { 'dialog-call': 'off' } }) });
    expect(off.error).toBeUndefined();
    expect(warnings(off.logger)).toEqual([]);
    const overridden = await tinyBuild({ ...alerts, 'pipeline-tool.config.json': JSON.stringify({ overrides: [{ files: ['src/more.ts'], rules: { 'dialog-call': 'off' } }] }) });
    expect(warnings(overridden.logger)).toEqual([expect.stringMatching(/^\[pipeline-tool\] src\/main\.ts:2:1: .*\(dialog-call, built: /)]);
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`public/data/${i}.json`, '{}']));
    const { error } = await tinyBuild({ ...TINY, ...many });
    expect(failureOf(error)).toMatch(/\n {2}dist: The bundle holds \d+ files; .* \(file-count\)\n/);
  });

  it('names the source from Vite’s root when the project file is above it', async () => {
    const files = Object.fromEntries(Object.entries({ ...TINY, 'src/main.ts': "alert('a');\n" }).map(([file, text]) => [`app/${file}`, text]));
    const { logger } = await tinyBuild({ ...files, 'pipeline-tool.config.json': JSON.stringify({ source: 'app/dist' }) }, {}, pipeline(), 'app');
    expect(warnings(logger).join('\n')).toMatch(/^\[pipeline-tool\] src\/main\.ts:1:1: .* \(dialog-call, built: dist\/assets\//);
  });
});

describe('assets of a refused type in a tiny build', () => {
  const withImage = (size: number, extra: Record<string, string | Buffer> = {}) => ({
    ...TINY,
    'src/main.ts': "import badge from './badge.webp';\ndocument.body.dataset.badge = badge;\n",
    'src/badge.webp': bytes(size),
    ...extra,
  });

  it('inlines one of the limit, and refuses one past it, writing nothing', async () => {
    const at = await tinyBuild(withImage(4096));
    expect(at.error).toBeUndefined();
    expect(scriptOf(at.root)).toContain('data:image/webp;base64,');
    const past = await tinyBuild(withImage(4097));
    expect(failureOf(past.error)).toBe(
      '[pipeline-tool] the marketplace would refuse an asset of this build:\n' +
        '  src/badge.webp (imported by src/main.ts): .webp is not accepted by the marketplace, and at 4097 bytes it is too large to inline (over 4096); convert it to .png or .jpg.\n' +
        'Accepted types: .html .css .js .svg .png .jpg .woff2 .json. Smaller files of other types are inlined (the inlineLimit option of pipeline-tool/vite).',
    );
    expect(written(past.root)).toEqual(['manifest.json']);
    // Vite names the plugin that failed.
    expect(past.error?.message).toContain('[plugin pipeline-tool:assets]');
    expect(past.logger.text('info')).not.toContain('[pipeline-tool] dist/');
  });

  it('lists each refused asset, sorted importers, one user of two, and a file of no known type', async () => {
    const { error } = await tinyBuild({
      ...TINY,
      // The author's files are named in order, not as they came (src/main.ts asks first).
      'src/main.ts': "import a from './a.gif';\nimport b from './b.webp?url';\nimport './aside';\nimport './styles.css';\ndocument.body.dataset.x = a + b;\n",
      'src/aside.ts': "import a from './a.gif';\ndocument.body.dataset.y = a;\n",
      'src/styles.css': "body { background: url('./c.bmp#x'); }\n",
      'src/a.gif': bytes(5000),
      'src/b.webp': bytes(5001),
      'src/c.bmp': bytes(5002),
    });
    const lines = failureOf(error)?.split('\n') ?? [];
    expect(lines[0]).toBe('[pipeline-tool] the marketplace would refuse 3 assets of this build:');
    expect(lines.slice(1, 4).sort()).toEqual([
      '  src/a.gif (imported by src/aside.ts, src/main.ts): .gif is not accepted by the marketplace, and at 5000 bytes it is too large to inline (over 4096); convert it to .png.',
      '  src/b.webp (imported by src/main.ts): .webp is not accepted by the marketplace, and at 5001 bytes it is too large to inline (over 4096); convert it to .png or .jpg.',
      '  src/c.bmp (imported by src/styles.css): .bmp is not accepted by the marketplace, and at 5002 bytes it is too large to inline (over 4096); remove it from the bundle.',
    ]);
  });

  it('names an asset another plugin emits by its file name, measured in bytes', async () => {
    const emit: Plugin = { name: 'emit-gif', generateBundle() { this.emitFile({ type: 'asset', fileName: 'assets/made.gif', source: 'é'.repeat(3000) }); } };
    const { error } = await tinyBuild(TINY, {}, [emit, ...pipeline()]);
    expect(failureOf(error)).toContain('\n  assets/made.gif: .gif is not accepted by the marketplace, and at 6000 bytes it is too large to inline (over 4096); convert it to .png.\n');
  });

  it('names an asset another plugin emits with its original name by that name, used by none of the author’s files', async () => {
    const emit: Plugin = { name: 'emit-bmp', generateBundle() { this.emitFile({ type: 'asset', name: 'raw.bmp', originalFileName: 'src/raw.bmp', source: bytes(5000) }); } };
    const { error } = await tinyBuild(TINY, {}, [emit, ...pipeline()]);
    expect(failureOf(error)).toContain('\n  src/raw.bmp: .bmp is not accepted by the marketplace, and at 5000 bytes it is too large to inline (over 4096); remove it from the bundle.\n');
  });

  it('leaves an import nothing resolves to Vite, which names it', async () => {
    const { error } = await tinyBuild({ ...TINY, 'src/main.ts': "import x from './missing.webp';\ndocument.body.dataset.x = x;\n" });
    expect(error?.message).toContain('./missing.webp');
    expect(error?.message).not.toMatch(/TypeError|Cannot read properties/);
  });

  it('names each of the author’s files whose package imports bring in one asset', async () => {
    const root = viteProject({ ...TINY, 'src/main.ts': "import 'two-sheets/one.css';\nimport './other';\n", 'src/other.ts': "import 'two-sheets/two.css';\n" });
    const pkg = path.join(root, 'node_modules', 'two-sheets');
    mkdirSync(pkg);
    writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'two-sheets', version: '1.0.0' }));
    for (const [sheet, family] of [['one.css', 'A'], ['two.css', 'B']]) writeFileSync(path.join(pkg, sheet!), `@font-face { font-family: ${family}; src: url('./f.ttf') format('truetype'); }\n`);
    writeFileSync(path.join(pkg, 'f.ttf'), bytes(6000));
    const error = await build({ root, configFile: false, customLogger: captureLogger(), logLevel: 'info', plugins: pipeline() }).then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect(failureOf(error)).toContain('\n  node_modules/two-sheets/f.ttf (imported by node_modules/two-sheets/one.css, node_modules/two-sheets/two.css, which src/main.ts, src/other.ts imports): .ttf ');
  });

  it('reads @font-face rules in stylesheets only, not in a script that holds their text', async () => {
    const { root, logger, error } = await tinyBuild({ ...TINY, 'src/main.ts': "document.body.dataset.css = \"@font-face { src: url('./f.woff2') format('woff2'), url('./f.woff') format('woff') }\";\n" });
    expect(error).toBeUndefined();
    expect(scriptOf(root)).toContain("url('./f.woff') format('woff')");
    expect(logger.text('info')).not.toContain('left out');
  });

  it('names the author’s import that brought in a package’s font, and the inlineLimit that would take it', async () => {
    const root = viteProject({ ...TINY, 'src/main.ts': "import 'old-icons/icons.css';\n" });
    const pkg = path.join(root, 'node_modules', 'old-icons');
    mkdirSync(path.join(pkg, 'fonts'), { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'old-icons', version: '1.0.0' }));
    writeFileSync(path.join(pkg, 'icons.css'), "@import './more.css';\n@font-face { font-family: I; src: url('./fonts/icons.ttf') format('truetype'); }\n.i { font-family: I; }\n");
    writeFileSync(path.join(pkg, 'more.css'), "@font-face { font-family: J; src: url('./fonts/j.woff2') format('woff2'), url('./fonts/j.woff') format('woff'); }\n.j { font-family: J; }\n");
    writeFileSync(path.join(pkg, 'fonts', 'icons.ttf'), bytes(6000));
    writeFileSync(path.join(pkg, 'fonts', 'j.woff2'), bytes(100));
    writeFileSync(path.join(pkg, 'fonts', 'j.woff'), bytes(100));
    const logger = captureLogger();
    const error = await build({ root, configFile: false, customLogger: logger, logLevel: 'info', plugins: pipeline() }).then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect(failureOf(error)).toContain(
      '  node_modules/old-icons/fonts/icons.ttf (imported by node_modules/old-icons/icons.css, which src/main.ts imports): .ttf is not accepted by the marketplace, and at 6000 bytes it is too large to inline (over 4096); it comes from a package: import a stylesheet of the package that names only .woff2 fonts, or let the build inline it with pipeline({ inlineLimit: 6001 }).\n',
    );
  });

  it('says which stylesheets lost fallback fonts, and how many', async () => {
    const face = (name: string) => `@font-face { font-family: ${name}; src: url('./${name}.woff2') format('woff2'), url('./${name}.woff') format('woff'), url('./${name}.ttf'); }\n`;
    const fonts = Object.fromEntries(['a', 'b'].flatMap((name) => [[`src/${name}.woff2`, bytes(50)], [`src/${name}.woff`, bytes(50)], [`src/${name}.ttf`, bytes(50)]]));
    // src/a.css is read after src/z.css (an import further down the chain), and named first.
    const two = await tinyBuild({ ...TINY, 'src/main.ts': "import './z.css';\nimport './later';\n", 'src/later.ts': "import './a.css';\n", 'src/z.css': face('a'), 'src/a.css': face('b'), ...fonts });
    expect(two.error).toBeUndefined();
    // The built stylesheet names the .woff2 alone (the small fallbacks would otherwise be inlined).
    const css = readFileSync(path.join(two.root, 'dist', written(two.root).find((file) => file.endsWith('.css'))!), 'utf8');
    expect(css.match(/url\(/g)).toHaveLength(2);
    expect(two.logger.text('info')).toContain(
      '[pipeline-tool] left out 4 fallback font files (.woff, .ttf, .eot), which the marketplace refuses, from @font-face rules that also name .woff2, which every browser the platform supports reads: src/a.css; src/z.css.',
    );
    // Counted afresh at each build of the same plugins.
    const plugins = pipeline();
    for (let build = 0; build < 2; build++) {
      const one = await tinyBuild({ ...TINY, 'src/main.ts': "import './a.css';\n", 'src/a.css': "@font-face { font-family: a; src: url('./a.woff2'), url('./a.woff'); }\n", ...fonts }, {}, plugins);
      expect(one.logger.text('info')).toContain('[pipeline-tool] left out 1 fallback font file (.woff, .ttf, .eot), which');
    }
    const none = await tinyBuild({ ...TINY, 'src/main.ts': "import './a.css';\n", 'src/a.css': "@font-face { font-family: a; src: url('./a.woff2'); }\n", ...fonts });
    expect(none.logger.text('info')).not.toContain('left out');
  });

  it('names a package’s stylesheet that lost fallback fonts with the author’s import', async () => {
    // Imported twice: the first import is named.
    const root = viteProject({ ...TINY, 'src/main.ts': "import 'soft-font/font.css';\nimport './later';\n", 'src/later.ts': "import 'soft-font/font.css';\n" });
    const pkg = path.join(root, 'node_modules', 'soft-font');
    mkdirSync(pkg);
    writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'soft-font', version: '1.0.0' }));
    writeFileSync(path.join(pkg, 'font.css'), "@font-face { font-family: S; src: url('./s.woff2') format('woff2'), url('./s.woff') format('woff'); }\n");
    writeFileSync(path.join(pkg, 's.woff2'), bytes(50));
    writeFileSync(path.join(pkg, 's.woff'), bytes(50));
    const logger = captureLogger();
    await build({ root, configFile: false, customLogger: logger, logLevel: 'info', plugins: pipeline() });
    expect(logger.text('info')).toContain('refuses, from @font-face rules that also name .woff2, which every browser the platform supports reads: node_modules/soft-font/font.css, imported by src/main.ts.');
  });
});

describe('a build through Vite’s builder', () => {
  it('throws the first failure itself once the app is built, and forgets it for the next build', async () => {
    const root = viteProject({ ...TINY, 'src/main.ts': "import a from './a.gif';\ndocument.body.dataset.a = a;\n", 'src/a.gif': bytes(5000) });
    const logger = captureLogger();
    const plugins = pipeline();
    const builder = await createBuilder({ root, configFile: false, customLogger: logger, logLevel: 'info', plugins });
    const error = await builder.buildApp().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(BuildFailure);
    expect((error as Error).message).toMatch(/^\[pipeline-tool\] the marketplace would refuse an asset of this build:\n {2}src\/a\.gif/);
    expect(written(root)).toEqual(['manifest.json']);
    // Nothing written, so nothing checked.
    expect(logger.text('info')).not.toContain('[pipeline-tool] dist/');
    writeFileSync(path.join(root, 'src/a.gif'), bytes(100));
    const again = await createBuilder({ root, configFile: false, customLogger: logger, logLevel: 'info', plugins });
    await again.buildApp();
    expect(written(root)).toContain('index.html');
    expect(logger.text('info')).toContain('[pipeline-tool] dist/ passes pipeline-tool validate.');
  });

  it('keeps the failure for the end while another plugin’s buildApp builds the app, builds nothing twice, and throws after every other buildApp hook', async () => {
    const { 'public/manifest.json': _manifest, ...unnamed } = TINY;
    const root = viteProject(unnamed);
    const ran: string[] = [];
    const builds: Plugin = {
      name: 'builds-the-app',
      async buildApp(builder) {
        ran.push('builds the app');
        for (const environment of Object.values(builder.environments)) await builder.build(environment);
      },
    };
    const counts: Plugin = { name: 'counts-builds', buildStart: () => void ran.push('build') };
    const after: Plugin = { name: 'runs-after', buildApp: async () => void ran.push('after') };
    const builder = await createBuilder({ root, configFile: false, customLogger: captureLogger(), logLevel: 'info', plugins: [builds, counts, ...pipeline(), after] });
    const error = await builder.buildApp().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    // Thrown by the plugin itself, not inside Rolldown's error from the other plugin's build.
    expect(error).toBeInstanceOf(BuildFailure);
    expect((error as Error).message).toMatch(/^\[pipeline-tool\] dist\/ would be refused: 1 error/);
    expect(ran).toEqual(['builds the app', 'build', 'after']);
  });

  it('throws validate’s errors the same way', async () => {
    const { 'public/manifest.json': _manifest, ...unnamed } = TINY;
    const root = viteProject(unnamed);
    const logger = captureLogger();
    const builder = await createBuilder({ root, configFile: false, customLogger: logger, logLevel: 'info', plugins: pipeline() });
    const error = await builder.buildApp().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(BuildFailure);
    expect((error as Error).message).toMatch(/^\[pipeline-tool\] dist\/ would be refused: 1 error/);
    expect(logger.text('info')).not.toContain('passes');
  });
});
