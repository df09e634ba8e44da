import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build, type InlineConfig } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/core/validate.js';
import { packFolder } from '../../src/core/pack/pack-folder.js';
import { bundleLimits, sizeLine } from '../../src/core/report/limits.js';
import pipeline from '../../src/vite/index.js';
import { DEFAULT_INLINE_LIMIT } from '../../src/vite/assets.js';
import { loadTool } from '../../src/testing/index.js';
import { toClassicScripts } from '../../src/vite/classic-scripts.js';
import { contentTypeOf } from '../../src/dev/static-files.js';
import { launchChromium, requireChromium } from '../dev/browser.js';
import { SETTLE_MS, waitFor } from '../dev/helpers.js';
import { captureLogger, INDEX_HTML, MANIFEST, viteProject, type CapturedLogger } from './helpers.js';

/*
 * `vite build` with pipeline-tool/vite: what it writes, what it refuses, and the built folder's
 * findings shown as Vite's warnings and errors.
 */

const hasChromium = requireChromium();

/** Bytes that are not worth compressing, so sizes stay what the test says. */
const bytes = (count: number) => Buffer.from(Array.from({ length: count }, (_, i) => (i * 7919) % 251));

const TOOL = {
  'index.html': INDEX_HTML,
  'public/manifest.json': JSON.stringify(MANIFEST),
  'src/main.ts': [
    "import './styles.css';",
    "import badge from './badge.webp';",
    "import photo from './photo.jpeg';",
    "const root = document.getElementById('root')!;",
    "root.textContent = 'counter ready';",
    'root.dataset.badge = badge;',
    'root.dataset.photo = photo;',
    "root.dataset.script = new URL('x', import.meta.url).pathname;",
    "void import('./later').then((later) => (root.dataset.later = later.word));",
    '',
  ].join('\n'),
  'src/later.ts': "export const word = 'later';\n",
  'src/styles.css': '#root { color: rgb(1, 2, 3); }\n',
  'src/badge.webp': bytes(600),
  'src/photo.jpeg': bytes(6000),
};

async function buildProject(files: Record<string, string | Buffer>, config: InlineConfig = {}, plugin = pipeline()): Promise<{ root: string; logger: CapturedLogger; error?: Error }> {
  const root = viteProject(files);
  const logger = captureLogger();
  try {
    await build({ root, configFile: false, customLogger: logger, logLevel: 'info', plugins: [plugin], ...config });
    return { root, logger };
  } catch (error) {
    return { root, logger, error: error as Error };
  }
}

const read = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');
const builtFiles = (root: string) => readdirSync(path.join(root, 'dist'), { recursive: true }).map(String).sort();

describe('vite build with pipeline-tool/vite', () => {
  it('writes a bundle the marketplace accepts: relative paths, one classic script, no source map named', async () => {
    const { root, logger, error } = await buildProject(TOOL);
    expect(error).toBeUndefined();
    const files = builtFiles(root);
    const script = files.find((file) => /^assets\/index-[\w-]+\.js$/.test(file))!;
    const styles = files.find((file) => /^assets\/.*\.css$/.test(file))!;
    expect(files.filter((file) => file.endsWith('.js'))).toEqual([script]);
    // The source map is written beside the script, for placing findings, and named nowhere in it.
    expect(files).toContain(`${script}.map`);
    expect(read(root, `dist/${script}`)).not.toContain('sourceMappingURL');
    // A .jpeg is a .jpg under another name; a small .webp is inlined, as its type is refused.
    expect(files.some((file) => /^assets\/photo-[\w-]+\.jpg$/.test(file))).toBe(true);
    expect(files.some((file) => file.endsWith('.jpeg') || file.endsWith('.webp'))).toBe(false);
    expect(read(root, `dist/${script}`)).toContain('data:image/webp;base64,');

    const html = read(root, 'dist/index.html');
    expect(html).toContain(`<script defer src="./${script}"></script>`);
    expect(html).toContain(`<link rel="stylesheet" href="./${styles}">`);
    expect(html).not.toMatch(/type="module"|crossorigin/);
    expect(files).toContain('manifest.json');

    expect(logger.text('info')).toContain('[pipeline-tool] dist/ passes pipeline-tool validate.');
    const report = await validateBundle(path.join(root, 'dist'));
    expect(report.problems).toEqual([]);

    // One line against every limit, with the size of the zip pack writes of this build.
    const packed = await packFolder(path.join(root, 'dist'), { dryRun: true, out: path.join(root, 'release') + path.sep });
    expect(packed.zipSize).toBeGreaterThan(0);
    expect(logger.text('info')).toContain(`[pipeline-tool] dist/: ${sizeLine(bundleLimits(packed))}`);
  });

  it('prints the size line with validate: false too', async () => {
    const { logger, error } = await buildProject(TOOL, {}, pipeline({ validate: false }));
    expect(error).toBeUndefined();
    expect(logger.text('info')).not.toContain('passes pipeline-tool validate');
    expect(logger.text('info')).toMatch(/\[pipeline-tool\] dist\/: [\d,]+ bytes zipped of 10,000,000 \(.*\) · [\d,]+ unpacked of 50,000,000 \(.*\) · \d+ files of 200 \(.*\)$/m);
  });

  it('fails on a large font of a refused type, naming the stylesheet that uses it and .woff2', async () => {
    const { error } = await buildProject({
      ...TOOL,
      'src/styles.css': "@font-face { font-family: Brand; src: url('./fonts/brand.ttf') format('truetype'); }\n#root { font-family: Brand; }\n",
      'src/fonts/brand.ttf': bytes(9000),
    });
    expect(error?.message).toContain('the marketplace would refuse an asset of this build:');
    expect(error?.message).toContain('src/fonts/brand.ttf (imported by src/styles.css): .ttf is not accepted by the marketplace');
    expect(error?.message).toContain('convert it to .woff2');
  });

  it('fails on a large image of a refused type, naming the module that imports it and .png or .jpg', async () => {
    const { error } = await buildProject({ ...TOOL, 'src/badge.webp': bytes(20_000) });
    expect(error?.message).toContain('src/badge.webp (imported by src/main.ts): .webp is not accepted by the marketplace, and at 20000 bytes it is too large to inline');
    expect(error?.message).toContain('convert it to .png or .jpg');
  });

  it('inlines up to the inlineLimit option', async () => {
    const { root, error } = await buildProject({ ...TOOL, 'src/badge.webp': bytes(20_000) }, {}, pipeline({ inlineLimit: 30_000 }));
    expect(error).toBeUndefined();
    expect(builtFiles(root).some((file) => file.endsWith('.webp'))).toBe(false);
  });

  it('inlines a refused asset of exactly inlineLimit bytes, and refuses one a byte larger', async () => {
    const at = await buildProject({ ...TOOL, 'src/badge.webp': bytes(DEFAULT_INLINE_LIMIT) });
    expect(at.error).toBeUndefined();
    expect(builtFiles(at.root).some((file) => file.endsWith('.webp'))).toBe(false);
    expect(read(at.root, `dist/${builtFiles(at.root).find((file) => file.endsWith('.js'))!}`)).toContain('data:image/webp;base64,');
    const past = await buildProject({ ...TOOL, 'src/badge.webp': bytes(DEFAULT_INLINE_LIMIT + 1) });
    expect(past.error?.message).toContain(`src/badge.webp (imported by src/main.ts): .webp is not accepted by the marketplace, and at ${DEFAULT_INLINE_LIMIT + 1} bytes it is too large to inline (over ${DEFAULT_INLINE_LIMIT})`);
    // The option moves the edge: a byte more is inlined, and the default's edge is refused.
    const option = await buildProject({ ...TOOL, 'src/badge.webp': bytes(1001) }, {}, pipeline({ inlineLimit: 1001 }));
    expect(option.error).toBeUndefined();
    const below = await buildProject({ ...TOOL, 'src/badge.webp': bytes(1002) }, {}, pipeline({ inlineLimit: 1001 }));
    expect(below.error?.message).toContain('at 1002 bytes it is too large to inline (over 1001)');
  });

  it('inlines nothing of a refused type with inlineLimit: 0, so even a small one fails the build', async () => {
    const { error } = await buildProject(TOOL, {}, pipeline({ inlineLimit: 0 }));
    expect(error?.message).toContain('the marketplace would refuse an asset of this build:');
    expect(error?.message).toContain('src/badge.webp (imported by src/main.ts): .webp is not accepted by the marketplace, and at 600 bytes it is too large to inline (over 0)');
  });

  it.each([true, 'inline'] as const)('keeps the maps hidden when the author sets build.sourcemap: %s', async (sourcemap) => {
    const { root, error } = await buildProject(TOOL, { build: { sourcemap } });
    expect(error).toBeUndefined();
    const files = builtFiles(root);
    const script = files.find((file) => /^assets\/index-[\w-]+\.js$/.test(file))!;
    expect(files).toContain(`${script}.map`);
    expect(read(root, `dist/${script}`)).not.toContain('sourceMappingURL');
  });

  it('keeps the line that gives import.meta.url its value beside the author\u2019s own output.intro', async () => {
    const { root, error } = await buildProject(TOOL, { build: { rolldownOptions: { output: { intro: "window.authorIntro = 'kept';" } } } });
    expect(error).toBeUndefined();
    // Run as the platform runs it: the address the script reads is its own, next to the page.
    const tool = await loadTool(path.join(root, 'dist'));
    try {
      await waitFor(() => tool.document.getElementById('root')!.dataset['later'] === 'later' || tool.errors.length > 0, SETTLE_MS, 'the code imported later');
      expect(tool.errors).toEqual([]);
      expect((tool.window as unknown as { authorIntro?: string }).authorIntro).toBe('kept');
      expect(tool.document.getElementById('root')!.dataset['script']).toBe('/assets/x');
    } finally {
      tool.close();
    }
  }, 60_000);

  it('shows validate\u2019s warnings as Vite\u2019s, at the source line through the map it writes, and fails on its errors, listing each', async () => {
    const warned = await buildProject({ ...TOOL, 'src/later.ts': "export const word = 'later';\nalert('hello');\n" });
    expect(warned.error).toBeUndefined();
    expect(warned.logger.text('warn')).toMatch(/\[pipeline-tool\] src\/later\.ts:2:1: .*alert.* \(dialog-call, built: dist\/assets\/index-[\w-]+\.js:\d+:\d+\)$/m);
    expect(warned.logger.text('info')).toContain('[pipeline-tool] dist/ passes pipeline-tool validate with 1 warning.');
    // Without maps, the finding is where it is in the bundle.
    const unmapped = await buildProject({ ...TOOL, 'src/later.ts': "export const word = 'later';\nalert('hello');\n" }, { build: { sourcemap: false } });
    expect(unmapped.logger.text('warn')).toMatch(/\[pipeline-tool\] dist\/assets\/index-[\w-]+\.js:\d+:\d+: .*alert.* \(dialog-call\)$/m);

    const { 'public/manifest.json': _manifest, ...withoutManifest } = TOOL;
    const failed = await buildProject(withoutManifest);
    expect(failed.error?.message).toMatch(/\[pipeline-tool\] dist\/ would be refused: 1 error from pipeline-tool validate\.\n {2}dist\/manifest\.json: .* \(manifest-missing\)\n/);
  });

  it('fails on an error in the author\u2019s code, naming its line in src/', async () => {
    const main = `${TOOL['src/main.ts']}void (window as any).pipeline.quotes.addLines([{ qty: 1, unitPrice: 5, taxRate: 0.15 }]);\n`;
    const { error } = await buildProject({ ...TOOL, 'public/manifest.json': JSON.stringify({ ...MANIFEST, type: 'standalone' }), 'src/main.ts': main });
    const line = main.split('\n').length - 1;
    expect(error?.message).toMatch(/\[pipeline-tool\] dist\/ would be refused: 1 error from pipeline-tool validate\.\n/);
    expect(error?.message).toMatch(new RegExp(`^ {2}src/main\\.ts:${line}:\\d+: pipeline\\.quotes\\.addLines only works in a quoting_extension.* \\(bridge-tool-type, built: dist/assets/index-[\\w-]+\\.js:\\d+:\\d+\\)$`, 'm'));
  });

  it('names the source from Vite\u2019s root, and applies overrides written from the project file\u2019s folder above it', async () => {
    const app = Object.fromEntries(Object.entries(TOOL).map(([file, content]) => [`app/${file}`, content]));
    const later = "export const word = 'later';\nalert('hello');\nlocalStorage.setItem('word', word);\n";
    const config = { source: 'app/dist', overrides: [{ files: ['app/src/later.ts'], rules: { 'dialog-call': 'off' } }] };
    const root = viteProject({ ...app, 'app/src/later.ts': later, 'pipeline-tool.config.json': JSON.stringify(config) });
    const logger = captureLogger();
    await build({ root: path.join(root, 'app'), configFile: false, customLogger: logger, logLevel: 'info', plugins: [pipeline()] });
    expect(logger.text('warn')).not.toContain('dialog-call');
    expect(logger.text('warn')).toMatch(/\[pipeline-tool\] src\/later\.ts:3:1: localStorage .* \(browser-storage, built: dist\/assets\/index-[\w-]+\.js:\d+:\d+\)$/m);
  });

  it('applies the project file\u2019s rule settings, and warns when its source is not the build folder', async () => {
    const { logger, error } = await buildProject({
      ...TOOL,
      'src/later.ts': "export const word = 'later';\nalert('hello');\n",
      'pipeline-tool.config.json': JSON.stringify({ source: 'build', rules: { 'dialog-call': 'off' } }),
    });
    expect(error).toBeUndefined();
    expect(logger.text('warn')).not.toContain('dialog-call');
    expect(logger.text('warn')).toContain('[pipeline-tool] pipeline-tool.config.json names "build" as the tool folder, but Vite builds into dist, so pipeline-tool validate and pack would not see this build. Set "source": "dist".');
  });

  it('refuses a base that is not relative, and writes no source map when told not to', async () => {
    const based = await buildProject(TOOL, { base: '/app/' });
    expect(based.error?.message).toContain('base is "/app/", but a tool\u2019s files'.replace('\u2019', "'"));
    const unmapped = await buildProject(TOOL, { build: { sourcemap: false } });
    expect(unmapped.error).toBeUndefined();
    expect(builtFiles(unmapped.root).some((file) => file.endsWith('.map'))).toBe(false);
  });

  it('rewrites only the tags Vite writes for the entry', () => {
    const html = [
      '<script type="module" crossorigin src="./assets/index-A1.js"></script>',
      '<link rel="stylesheet" crossorigin href="./assets/index-B2.css">',
      '<script type="module">console.log(1)</script>',
      '<link rel="icon" href="./icon.svg">',
      '<script src="./plain.js"></script>',
    ].join('\n');
    expect(toClassicScripts(html).split('\n')).toEqual([
      '<script defer src="./assets/index-A1.js"></script>',
      '<link rel="stylesheet" href="./assets/index-B2.css">',
      '<script type="module">console.log(1)</script>',
      '<link rel="icon" href="./icon.svg">',
      '<script src="./plain.js"></script>',
    ]);
  });
});

describe.skipIf(!hasChromium)('the built tool in Chromium', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((server) => server.close()));

  it('runs in a sandboxed frame served without any CORS header, styles, assets and later code included', async () => {
    const { root, error } = await buildProject(TOOL);
    expect(error).toBeUndefined();
    const dist = path.join(root, 'dist');
    // A plain file server, as the platform's may be: no Access-Control-Allow-Origin at all.
    const server = createServer((request, response) => {
      const file = request.url === '/' ? '/host.html' : (request.url ?? '/').split('?')[0]!;
      if (file === '/host.html') {
        response.writeHead(200, { 'Content-Type': 'text/html' });
        response.end('<!doctype html><iframe id="tool" sandbox="allow-scripts" src="/tool/index.html"></iframe>');
        return;
      }
      const target = path.join(dist, file.replace(/^\/tool\//, ''));
      if (!target.startsWith(dist) || !existsSync(target)) {
        response.writeHead(404);
        response.end();
        return;
      }
      response.writeHead(200, { 'Content-Type': contentTypeOf(target) });
      response.end(readFileSync(target));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const frame = await waitFor(() => page.frames().find((candidate) => candidate.url().endsWith('/tool/index.html')), SETTLE_MS, 'the tool frame');
      await waitFor(async () => (await frame.textContent('#root').catch(() => null)) === 'counter ready', SETTLE_MS, 'the classic script to run');
      const root = frame.locator('#root');
      await waitFor(async () => (await root.getAttribute('data-later')) === 'later', SETTLE_MS, 'the code imported later');
      expect(await root.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(1, 2, 3)');
      expect(await root.getAttribute('data-badge')).toMatch(/^data:image\/webp;base64,/);
      // Asset and import.meta.url addresses are relative to the script, wherever the bundle is served.
      expect(await root.getAttribute('data-photo')).toMatch(/\/tool\/assets\/photo-[\w-]+\.jpg$/);
      expect(await root.getAttribute('data-script')).toBe('/tool/assets/x');
    } finally {
      await browser.close();
    }
  });
});
