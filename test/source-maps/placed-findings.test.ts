import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Problem, Report } from '../../src/core/problem.js';
import { validateBundle } from '../../src/core/validate.js';
import { tempDir } from '../helpers/bundles.js';
import { APP_TSX, buildApp, positionOf, rewriteBundle, type BuiltApp } from '../helpers/built-app.js';

/*
 * Findings in a bundler's output, placed at the line the author wrote: a small app is built with
 * esbuild (minified, one line of output), and validate of the built folder reports its
 * `localStorage` at src/App.tsx, with the bundle's place kept as `built`.
 */

const validate = (app: BuiltApp, options: Parameters<typeof validateBundle>[1] = {}) => validateBundle(app.dist, { sourceMaps: { root: app.project }, ...options });
const storage = (report: Report): Problem[] => report.problems.filter((problem) => problem.ruleId === 'browser-storage');

/** Where App.tsx uses localStorage, and where the bundle holds it. */
function expectedPlaces(app: BuiltApp) {
  return { source: positionOf(APP_TSX, 'localStorage'), built: positionOf(app.bundle, 'localStorage') };
}

function expectPlaced(report: Report, app: BuiltApp): void {
  const { source, built } = expectedPlaces(app);
  expect(storage(report)).toEqual([
    expect.objectContaining({ file: 'src/App.tsx', line: source.line, column: source.column, built: { file: 'assets/index.js', ...built }, data: { api: 'localStorage' } }),
  ]);
  expect(report.sourceRoot).toBe(path.resolve(app.project));
}

function expectUnplaced(report: Report, app: BuiltApp): void {
  const { built } = expectedPlaces(app);
  expect(storage(report)).toEqual([expect.objectContaining({ file: 'assets/index.js', ...built })]);
  expect(storage(report)[0]).not.toHaveProperty('built');
  expect(report.sourceRoot).toBeUndefined();
}

describe('a finding in a built file, placed through its source map', () => {
  it('is reported at the source file, line and column, with the bundle position as built (a map linked by a comment)', async () => {
    const app = buildApp();
    expect(app.bundle).toMatch(/\/\/# sourceMappingURL=index\.js\.map\s*$/);
    expect(expectedPlaces(app).source.line).toBe(10);
    const report = await validate(app);
    expectPlaced(report, app);
    // The map is not shipped: listed as left out, with its own reason, never as an error.
    expect(report.excluded).toContainEqual({ path: 'assets/index.js.map', kind: 'file', reason: 'source-map' });
    expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
  });

  it('finds a hidden map (beside the bundle, no comment), as Vite writes with build.sourcemap: hidden', async () => {
    const app = buildApp({}, { map: 'hidden' });
    expect(app.bundle).not.toContain('sourceMappingURL');
    expectPlaced(await validate(app), app);
  });

  it('reads an inline map from a data: URL', async () => {
    const app = buildApp({}, { map: 'inline' });
    expect(app.bundle).toContain('sourceMappingURL=data:application/json;base64,');
    expectPlaced(await validate(app), app);
  });

  it('leaves a finding where it is without a map, and when placing is turned off', async () => {
    const none = buildApp({}, { map: 'none' });
    expectUnplaced(await validate(none), none);
    const mapped = buildApp();
    expectUnplaced(await validateBundle(mapped.dist, { sourceMaps: false }), mapped);
  });

  it('counts columns in characters in the source and in the bundle, past characters outside the BMP', async () => {
    const line = "  const face = '😀😀'; const saved = localStorage.getItem('name') ?? face;";
    const app = buildApp({ 'src/App.tsx': APP_TSX.replace("  const saved = localStorage.getItem('name') ?? 'world';", line) }, { map: 'linked' });
    const report = await validate(app);
    const column = [...line].indexOf('l', [...line].indexOf('=', 25)) + 1;
    expect(storage(report)[0]).toMatchObject({ file: 'src/App.tsx', line: 10, column });
    expect(column).toBe(line.indexOf('localStorage') + 1 - 2);
  });

  it('counts the bundle\u2019s columns in UTF-16 units for the map, when the bundle keeps characters outside the BMP', async () => {
    const line = "  document.title = '😀😀'; const saved = localStorage.getItem('name') ?? 'world';";
    const app = buildApp({ 'src/App.tsx': APP_TSX.replace("  const saved = localStorage.getItem('name') ?? 'world';", line) }, { map: 'linked', charset: 'utf8' });
    // The emoji stays as it is before the finding on the bundle's one line: characters and UTF-16 units differ there.
    const built = positionOf(app.bundle, 'localStorage');
    const bundleLine = app.bundle.split('\n')[built.line - 1]!;
    expect(bundleLine.slice(0, bundleLine.indexOf('localStorage'))).toContain('😀😀');
    const report = await validate(app);
    expect(storage(report)).toEqual([
      expect.objectContaining({ file: 'src/App.tsx', line: 10, column: [...line.slice(0, line.indexOf('localStorage'))].length + 1, built: { file: 'assets/index.js', ...built } }),
    ]);
  });

  it('places findings in a stylesheet through its map', async () => {
    const app = buildApp({ 'src/theme.css': 'body {\n  margin: 0;\n}\n\n.hero {\n  background: url(/img/hero.png);\n}\n' });
    execFileSync(process.execPath, [
      '-e',
      `require('esbuild').buildSync(${JSON.stringify({
        entryPoints: [path.join(app.project, 'src/theme.css')],
        bundle: true,
        minify: true,
        outfile: path.join(app.dist, 'assets/theme.css'),
        sourcemap: 'linked',
        external: ['/img/*'],
        logLevel: 'silent',
      })})`,
    ]);
    writeFileSync(path.join(app.dist, 'index.html'), '<!doctype html><html><head><link rel="stylesheet" href="assets/theme.css"><script type="module" src="assets/index.js"></script></head><body></body></html>');
    const report = await validate(app);
    expect(report.problems.find((problem) => problem.ruleId === 'reference-root-absolute')).toMatchObject({ file: 'src/theme.css', line: 6, built: { file: 'assets/theme.css', line: 1 } });
  });
});

describe('a map that cannot be trusted leaves the finding where it is', () => {
  const mapFile = (app: BuiltApp) => path.join(app.dist, 'assets', 'index.js.map');
  const editMap = (app: BuiltApp, change: (map: Record<string, unknown>) => unknown) => {
    const map = JSON.parse(readFileSync(mapFile(app), 'utf8')) as Record<string, unknown>;
    writeFileSync(mapFile(app), typeof change(map) === 'string' ? (change(map) as string) : JSON.stringify(change(map)));
  };

  it.each([
    ['not JSON', () => '{ "version": 3, "sources": ['],
    ['JSON but not a map', () => '[1, 2, 3]'],
    ['another version', (map: Record<string, unknown>) => ({ ...map, version: 2 })],
    ['sources that are not strings', (map: Record<string, unknown>) => ({ ...map, sources: [null, 7, {}] })],
    ['nested a hundred thousand levels deep', () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['an empty file', () => ''],
  ])('%s', async (_name, change) => {
    const app = buildApp();
    editMap(app, change);
    expectUnplaced(await validate(app), app);
  });

  it('claims in sourcesContent a disable comment the real file does not have: the finding stays', async () => {
    const app = buildApp();
    const claimed = APP_TSX.replace('  const saved = localStorage', '  // pipeline-tool-disable-next-line browser-storage\n  const saved = localStorage');
    editMap(app, (map) => ({ ...map, sourcesContent: (map['sources'] as string[]).map((source) => (source.endsWith('App.tsx') ? claimed : null)) }));
    expectPlaced(await validate(app), app);
  });

  it('points past the end of the real file, or past the end of its line, whatever sourcesContent claims', async () => {
    // The map still says line 10 and holds the whole text in sourcesContent.
    const shorter = buildApp();
    writeFileSync(path.join(shorter.project, 'src', 'App.tsx'), "import { greet } from './greet';\nexport {};\n");
    expectUnplaced(await validate(shorter), shorter);

    const shortLine = buildApp();
    writeFileSync(path.join(shortLine.project, 'src', 'App.tsx'), APP_TSX.replace("  const saved = localStorage.getItem('name') ?? 'world';", '  x;'));
    expectUnplaced(await validate(shortLine), shortLine);
  });

  it.each([
    ['a number cut short', (mappings: string) => `${mappings}g`, /cut a number short/],
    ['a segment of two numbers', (mappings: string) => `AA,${mappings}`, /a segment of 2 numbers before character 3; a segment has 1, 4 or 5/],
    ['a number of seven digits', (mappings: string) => `ggggggA,${mappings}`, /more than 6 digits at character 7/],
    ['more lines than the file', (mappings: string) => `${mappings}${';'.repeat(100_000)}`, /more lines than the 3 the file has/],
    ['a character that is no base64 digit', (mappings: string) => `${mappings}!`, /"!" at character \d+, which is not a base64 digit/],
  ])('has mappings with %s: the map is not used, and a note says why', async (_name, change, why) => {
    const app = buildApp();
    editMap(app, (map) => ({ ...map, mappings: change(map['mappings'] as string) }));
    const report = await validate(app);
    expectUnplaced(report, app);
    expect(report.mapNotes).toEqual([{ file: 'assets/index.js', reason: 'mappings', message: expect.stringMatching(why) }]);
    expect(report.mapNotes![0]!.message).toMatch(/^its source map is not used: its mappings /);
  });

  it('points outside the project: a relative source that climbs out, an absolute path, a file: URL, a webpack:// name, another scheme', async () => {
    const outside = tempDir();
    writeFileSync(path.join(outside, 'App.tsx'), APP_TSX);
    for (const source of [
      path.relative(path.join(path.resolve(tempDir()), 'x'), path.join(outside, 'App.tsx')),
      '../../../../../../../../../../etc/passwd',
      path.join(outside, 'App.tsx'),
      `file://${path.join(outside, 'App.tsx')}`,
      `webpack://app/../${path.basename(outside)}/App.tsx`,
      `webpack://app/${path.join(outside, 'App.tsx')}`,
      'https://example.com/src/App.tsx',
    ]) {
      const app = buildApp();
      editMap(app, (map) => ({ ...map, sources: (map['sources'] as string[]).map(() => source), sourceRoot: undefined }));
      expectUnplaced(await validate(app), app);
    }
  });

  it('climbs out through sourceRoot, or through a link inside the project', async () => {
    const app = buildApp();
    editMap(app, (map) => ({ ...map, sourceRoot: '../../../../../../../../..' }));
    expectUnplaced(await validate(app), app);

    const linked = buildApp();
    const outside = tempDir();
    mkdirSync(path.join(outside, 'src'));
    writeFileSync(path.join(outside, 'src', 'App.tsx'), APP_TSX);
    rmSync(path.join(linked.project, 'src'), { recursive: true });
    symlinkSync(path.join(outside, 'src'), path.join(linked.project, 'src'));
    expectUnplaced(await validate(linked), linked);
  });

  it('names a source that is not a regular file (a FIFO is never opened), or no file at all', async () => {
    const app = buildApp();
    rmSync(path.join(app.project, 'src', 'App.tsx'));
    execFileSync('mkfifo', [path.join(app.project, 'src', 'App.tsx')]);
    editMap(app, (map) => ({ ...map, sourcesContent: undefined }));
    expectUnplaced(await validate(app), app);

    const gone = buildApp();
    rmSync(path.join(gone.project, 'src', 'App.tsx'));
    expectUnplaced(await validate(gone), gone);
  });

  it('is named by a comment that names a missing file, even with a <file>.map beside the bundle', async () => {
    const app = buildApp();
    rewriteBundle(app, (text) => text.replace('sourceMappingURL=index.js.map', 'sourceMappingURL=gone.js.map'));
    expectUnplaced(await validate(app), app);
  });

  it('is named by a comment that leads out of the tool folder, or to another site', async () => {
    for (const url of ['../../src/App.js.map', '/assets/index.js.map', 'https://example.com/index.js.map', 'file:///etc/passwd', '%2e%2e/%2e%2e/x.map', 'data:text/html,<b>']) {
      const app = buildApp();
      // A copy of the real map where the comment points, in case the path were followed.
      writeFileSync(path.join(app.project, 'src', 'App.js.map'), readFileSync(mapFile(app)));
      rmSync(mapFile(app));
      rewriteBundle(app, (text) => text.replace('sourceMappingURL=index.js.map', `sourceMappingURL=${url}`));
      expectUnplaced(await validate(app), app);
    }
  });

  it('is a link to a map outside the tool folder', async () => {
    const app = buildApp();
    const elsewhere = path.join(tempDir(), 'index.js.map');
    writeFileSync(elsewhere, readFileSync(mapFile(app)));
    rmSync(mapFile(app));
    symlinkSync(elsewhere, mapFile(app));
    expectUnplaced(await validate(app), app);
  });

  it('sits in a zip on its own: a zip names its own entries', async () => {
    const app = buildApp();
    const zip = path.join(tempDir(), 'tool.zip');
    execFileSync('zip', ['-qrX', zip, '.', '-x', '*.map'], { cwd: app.dist });
    const report = await validateBundle(zip);
    expect(storage(report)).toEqual([expect.objectContaining({ file: 'assets/index.js', line: 1 })]);
    expect(report.sourceRoot).toBeUndefined();
  });
});

describe('disable comments and overrides for a placed finding', () => {
  it('a comment in the source silences the line the author wrote, though the bundler dropped it', async () => {
    const silenced = APP_TSX.replace("  const saved = localStorage", '  // pipeline-tool-disable-next-line browser-storage -- a cache only\n  const saved = localStorage');
    const app = buildApp({ 'src/App.tsx': silenced });
    expect(app.bundle).not.toContain('pipeline-tool-disable');
    expect(storage(await validate(app))).toEqual([]);
  });

  it('reads the comment openers of JSX and block comments, and only on the line above', async () => {
    const jsx = APP_TSX.replace("  const saved = localStorage", '  /*\n   * pipeline-tool-disable-next-line browser-storage\n   */\n  const saved = localStorage');
    expect(storage(await validate(buildApp({ 'src/App.tsx': jsx })))).toEqual([]);
    const twoAbove = APP_TSX.replace("  const saved = localStorage", '  // pipeline-tool-disable-next-line browser-storage\n\n  const saved = localStorage');
    expect(storage(await validate(buildApp({ 'src/App.tsx': twoAbove })))).toHaveLength(1);
    const otherRule = APP_TSX.replace("  const saved = localStorage", '  // pipeline-tool-disable-next-line dialog-call\n  const saved = localStorage');
    expect(storage(await validate(buildApp({ 'src/App.tsx': otherRule })))).toHaveLength(1);
  });

  it('reports a comment in the source that names an unknown rule, at the source', async () => {
    const typo = APP_TSX.replace("  const saved = localStorage", '  // pipeline-tool-disable-next-line browser-storag\n  const saved = localStorage');
    const report = await validate(buildApp({ 'src/App.tsx': typo }));
    expect(storage(report)).toHaveLength(1);
    expect(report.problems.find((problem) => problem.ruleId === 'unknown-disable-directive')).toMatchObject({
      file: 'src/App.tsx',
      line: 10,
      column: 3,
      data: { ruleId: 'browser-storag', suggestion: 'browser-storage' },
    });
  });

  it('overrides match the source path (from the project folder) or the built path (in the tool folder)', async () => {
    const app = buildApp({
      'src/legacy/store.ts': "export const remembered = sessionStorage.getItem('old');\n",
      'src/main.tsx': "import { App } from './App';\nimport { remembered } from './legacy/store';\n\ndocument.body.append(App(), String(remembered));\n",
    });
    const all = await validate(app);
    expect(storage(all).map((problem) => [problem.file, problem.data?.['api']])).toEqual([
      ['src/App.tsx', 'localStorage'],
      ['src/legacy/store.ts', 'sessionStorage'],
    ]);
    const bySource = await validate(app, { overrides: [{ files: ['src/legacy/**'], rules: { 'browser-storage': 'off' } }] });
    expect(storage(bySource).map((problem) => problem.file)).toEqual(['src/App.tsx']);
    const byBuilt = await validate(app, { overrides: [{ files: ['assets/*.js'], rules: { 'browser-storage': 'error' } }] });
    expect(storage(byBuilt).map((problem) => problem.severity)).toEqual(['error', 'error']);
  });
});

describe('library code, judged by where a finding is placed', () => {
  it('marks a finding placed in node_modules/ as library code, and never one placed in the author\'s src/', async () => {
    const lib = 'export function render(el: HTMLElement, html: string): void {\n  el.innerHTML = html;\n}\n';
    const app = buildApp({
      'node_modules/fake-lib/package.json': JSON.stringify({ name: 'fake-lib', main: 'index.ts' }),
      'node_modules/fake-lib/index.ts': lib,
      'src/main.tsx': "import { App } from './App';\nimport { render } from 'fake-lib';\n\nrender(document.body, String(App().outerHTML));\n",
    });
    const report = await validate(app);
    const html = report.problems.filter((problem) => problem.ruleId === 'unsafe-html');
    expect(html).toEqual([expect.objectContaining({ file: 'node_modules/fake-lib/index.ts', line: 2, library: true })]);
    expect(storage(report)).toEqual([expect.objectContaining({ file: 'src/App.tsx' })]);
    expect(storage(report)[0]).not.toHaveProperty('library');
  });
});
