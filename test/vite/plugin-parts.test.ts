import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { dropRefusedFallbacks } from '../../src/vite/assets.js';
import { toClassicScripts } from '../../src/vite/classic-scripts.js';
import { BuildFailure, createFailure, failBuild } from '../../src/vite/failure.js';
import { readProjectSettings } from '../../src/vite/project.js';
import { frameAddress, hostAddressLines } from '../../src/vite/serve.js';
import { byPlace, servedPath, tellOfChanges, tellOfLibraries } from '../../src/vite/served-checks.js';
import type { ServedProblem } from '../../src/core/served/check-module.js';
import { writeFolder } from '../helpers/bundles.js';

/*
 * The Vite plugin's parts that need no Vite: the project file as it reads it, the rewrite of the
 * page's tags, the fallback fonts it drops, how a failure is raised and printed, and in `vite`
 * serve the address the host frames, the path a served module is named by, and how the checks of
 * served modules order their findings and tell the terminal of them. They import
 * nothing of Vite, so `npm run mutate` runs them against a mutant in a fraction of the time a test
 * that builds takes (test/vite/plugin-units.test.ts drives the same parts through real builds).
 */

const TINY = {
  'index.html': '<!doctype html><html><body><script type="module" src="/src/main.ts"></script></body></html>\n',
  'src/main.ts': "document.body.textContent = 'ready';\n",
};

describe('the project file, as the plugin reads it', () => {
  it('gives Vite’s root and no rules without one, and the file’s folder, source, rules and overrides with one', async () => {
    const bare = writeFolder(TINY);
    expect(await readProjectSettings(bare)).toEqual({ root: bare, file: null, source: null, rules: {}, overrides: [] });
    const overrides = [{ files: ['src/**'], rules: { 'dialog-call': 'off' } }];
    const root = writeFolder({ ...TINY, 'pipeline-tool.config.json': JSON.stringify({ source: 'web/dist', rules: { 'dialog-call': 'error' }, overrides }) });
    mkdirSync(path.join(root, 'web'));
    expect(await readProjectSettings(path.join(root, 'web'))).toEqual({
      root,
      file: path.join(root, 'pipeline-tool.config.json'),
      source: path.join(root, 'web', 'dist'),
      rules: { 'dialog-call': 'error' },
      overrides,
    });
    const unsourced = writeFolder({ ...TINY, 'pipeline-tool.config.json': '{}' });
    expect((await readProjectSettings(unsourced)).source).toBeNull();
  });

  it('names a broken project file from Vite’s root', async () => {
    const root = writeFolder({ ...TINY, 'pipeline-tool.config.json': '{ "rules": 3 }' });
    const error = await readProjectSettings(root).then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect(error?.message).toMatch(/^pipeline-tool\.config\.json/);
  });
});

describe('the classic script and stylesheet of the built page', () => {
  it('rewrites the tags Vite writes, in any case and quoting, and nothing else', () => {
    const cases: [string, string][] = [
      ['<script type="module" crossorigin src="./assets/index-A1.js"></script>', '<script defer src="./assets/index-A1.js"></script>'],
      ["<SCRIPT TYPE='module' CROSSORIGIN='anonymous' SRC=./a.js>", '<script defer SRC=./a.js>'],
      ['<script crossorigin type=module src=./a.js>', '<script defer src=./a.js>'],
      ['<script\ttype="module"\tcrossorigin\tsrc="./a.js">', '<script defer\tsrc="./a.js">'],
      ['<link rel="stylesheet" crossorigin href="./assets/index-B2.css">', '<link rel="stylesheet" href="./assets/index-B2.css">'],
      ['<LINK REL=stylesheet CROSSORIGIN="use-credentials" HREF=./a.css>', '<link REL=stylesheet HREF=./a.css>'],
      ["<link rel='stylesheet' crossorigin href=a.css>", "<link rel='stylesheet' href=a.css>"],
      ['<script  type="module"  crossorigin  src="./a.js">', '<script defer  src="./a.js">'],
      ['<script  type="module" src="./a.js"  crossorigin>', '<script defer src="./a.js">'],
      ['<link rel="stylesheet"  crossorigin  href="./a.css">', '<link rel="stylesheet"  href="./a.css">'],
    ];
    for (const [tag, rewritten] of cases) expect(toClassicScripts(tag)).toBe(rewritten);
    const kept = [
      '<script type="module">console.log(1)</script>',
      '<script type="module" crossorigin>console.log(1)</script>',
      '<script type="module" crossorigin data-src="./a.js">',
      '<script crossorigin src="./a.js">',
      '<script data-type="module" crossorigin src="./a.js">',
      '<script type="module" data-crossorigin src="./a.js">',
      '<script type="module" crossoriginal src="./a.js">',
      '<scripts type="module" crossorigin src="./a.js">',
      '<link rel="modulepreload" crossorigin href="./a.js">',
      '<link data-rel="stylesheet" crossorigin href="./a.css">',
      '<linked rel="stylesheet" crossorigin href="./a.css">',
      '<link rel="icon" href="./icon.svg">',
      '<script src="./plain.js"></script>',
    ];
    for (const tag of kept) expect(toClassicScripts(tag)).toBe(tag);
    expect(toClassicScripts('<p><script type="module" crossorigin src="a.js"></script><link rel="stylesheet" crossorigin href="b.css"></p>')).toBe(
      '<p><script defer src="a.js"></script><link rel="stylesheet" href="b.css"></p>',
    );
  });
});

describe('fallback fonts', () => {
  it('are dropped only from an @font-face that names .woff2 of an accepted kind, and only of refused types', () => {
    const face = (src: string) => `@font-face { font-family: A; src: ${src}; }`;
    const both = face("url('a.woff2') format('woff2'), url(\"a.woff\") format('woff'), url(a.ttf?v=1#x) format('truetype')");
    expect(dropRefusedFallbacks(both)).toEqual({ css: face("url('a.woff2') format('woff2')"), dropped: ['a.woff', 'a.ttf?v=1#x'] });
    // No .woff2 in the rule (a query does not make one, nor does a name ending in woff2 without the dot).
    for (const css of [face("url(a.woff2x), url(a.woff)"), face("url(a.woff?x.woff2), url(a.woff)"), face('url(awoff2), url(a.woff)'), '.x { src: url(a.woff2), url(a.woff); }']) {
      expect(dropRefusedFallbacks(css)).toEqual({ css, dropped: [] });
    }
    // The .woff2 may carry a query; a src of refused fonts alone goes whole, with its semicolon.
    expect(dropRefusedFallbacks('@font-face{font-family:A;src:url(a.eot); src:url(a.woff2?v=2) format("woff2"),url(a.woff);font-weight:400}')).toEqual({
      css: '@font-face{font-family:A; src: url(a.woff2?v=2) format("woff2");font-weight:400}',
      dropped: ['a.eot', 'a.woff'],
    });
    expect(dropRefusedFallbacks('@font-face {\n  src: url(a.woff2)\n}\n@font-face {\n  src: url(b.woff2), url(b.ttf)\n}')).toEqual({
      css: '@font-face {\n  src: url(a.woff2)\n}\n@font-face {\n  src: url(b.woff2)}',
      dropped: ['b.ttf'],
    });
    // Entries without an address, of accepted types, of compiled source, and a format() list with commas are kept.
    const kept = face("local('A, Bold'), url(a.woff2) format('woff2', 'woff2-variations'), url(a.svg), url(a.scss), url(a.ttf)");
    expect(dropRefusedFallbacks(kept)).toEqual({ css: face("local('A, Bold'), url(a.woff2) format('woff2', 'woff2-variations'), url(a.svg), url(a.scss)"), dropped: ['a.ttf'] });
    expect(dropRefusedFallbacks('@FONT-FACE { SRC: url(a.woff2), url(a.woff) }').css).toBe('@FONT-FACE { src: url(a.woff2)}');
    expect(dropRefusedFallbacks('@font-face { font-src: x; src:url(a.woff2),url(a.woff) }').css).toBe('@font-face { font-src: x; src: url(a.woff2)}');
    expect(dropRefusedFallbacks('@font-face { src: url( "a.woff2" ) , url( a.woff ) , }').css).toBe('@font-face { src: url( "a.woff2" )}');
  });
});

describe('failures', () => {
  it('print as their message alone', () => {
    const failure = new BuildFailure('[pipeline-tool] no');
    expect(failure.message).toBe('[pipeline-tool] no');
    expect(failure.name).toBe('BuildFailure');
    expect(failure.stack).toBe('[pipeline-tool] no');
    expect(inspect(failure)).toBe('[pipeline-tool] no');
    expect(inspect({ errors: [failure] })).toBe("{ errors: [ [pipeline-tool] no ] }");
  });

  it('stop the build at once outside an app build or in watch mode, else are kept, the first one, for the end', () => {
    const thrown: Error[] = [];
    const context = (watchMode: boolean) => ({ error: (error: Error): never => { thrown.push(error); throw error; }, meta: { watchMode } });
    const direct = createFailure();
    expect(direct).toEqual({ byBuilder: false });
    expect(() => failBuild(direct, context(false), 'first')).toThrow('first');
    const app = { byBuilder: true };
    failBuild(app, context(false), 'one');
    failBuild(app, context(false), 'two');
    expect((app as { failure?: Error }).failure?.message).toBe('one');
    expect(() => failBuild({ byBuilder: true }, context(true), 'watched')).toThrow('watched');
    expect(thrown.map((error) => [error.message, error instanceof BuildFailure])).toEqual([
      ['first', true],
      ['watched', true],
    ]);
  });
});

describe('while Vite serves', () => {
  it('frames Vite’s own address: the host it was given, localhost for none or a wildcard, in brackets for IPv6', () => {
    const address = (host: string | boolean | undefined, https = false) => frameAddress({ server: { host, https: https ? {} : undefined }, base: '/x1/' } as Parameters<typeof frameAddress>[0], { port: 5173 });
    for (const wildcard of [undefined, true, false, '0.0.0.0', '::', '']) expect(address(wildcard), String(wildcard)).toBe('http://localhost:5173/x1/');
    expect(address('127.0.0.1')).toBe('http://127.0.0.1:5173/x1/');
    expect(address('my-box.local')).toBe('http://my-box.local:5173/x1/');
    expect(address('::1')).toBe('http://[::1]:5173/x1/');
    expect(address(undefined, true)).toBe('https://localhost:5173/x1/');
  });

  it('prints the host page’s address, its addresses on the network, and the REST API with its key when it has one', () => {
    const started = { url: 'http://localhost:4100/', networkUrls: [] as string[], apiUrl: 'http://localhost:4100/api/', apiKey: null as string | null };
    expect(hostAddressLines(started)).toBe('  ➜  Open:      http://localhost:4100/   (the app inside the emulated Pipeline host)\n  ➜  REST API:  http://localhost:4100/api/');
    const shared = { ...started, networkUrls: ['http://192.168.1.5:4100/', 'http://10.0.0.2:4100/'], apiKey: 'k-123' };
    expect(hostAddressLines(shared).split('\n')).toEqual([
      '  ➜  Open:      http://localhost:4100/   (the app inside the emulated Pipeline host)',
      '  ➜  Network:   http://192.168.1.5:4100/',
      '  ➜  Network:   http://10.0.0.2:4100/',
      '  ➜  REST API:  http://localhost:4100/api/   (key k-123)',
    ]);
  });

  it('names a served module by its path from Vite’s root, without its query, and nothing outside the root or of no file', () => {
    expect(servedPath('/src/App.tsx')).toBe('src/App.tsx');
    expect(servedPath('/src/App.tsx?t=1700000000000')).toBe('src/App.tsx');
    expect(servedPath('/src/App.vue?vue&type=script&setup=true&lang.ts')).toBe('src/App.vue');
    expect(servedPath('/src/my%20file.ts#top')).toBe('src/my file.ts');
    expect(servedPath('/src/a.ts?x=\n#y')).toBe('src/a.ts');
    expect(servedPath('/src/./parts/../b.ts')).toBe('src/b.ts');
    for (const outside of ['src/a.ts', '/@fs/home/me/lib/a.ts', '/@vite/client', '/@id/virtual:x', '/', '/.', '/..', '/../a.ts', '/src/../../a.ts', '/%E0%A4%A.ts', '/?x']) {
      expect(servedPath(outside), outside).toBeUndefined();
    }
  });

  const problem = (file: string | undefined, line?: number, column?: number, extra: Partial<ServedProblem> = {}): ServedProblem => ({
    ruleId: 'dialog-call',
    severity: 'warning',
    message: 'm',
    ...(file === undefined ? {} : { file }),
    ...(line === undefined ? {} : { line }),
    ...(column === undefined ? {} : { column }),
    ...extra,
  });

  it('orders findings by file, those of no file first, then by line and column, a finding of no line or column first', () => {
    const place = (p: ServedProblem) => `${p.file ?? '-'}:${p.line ?? '-'}:${p.column ?? '-'}`;
    const found = [problem('src/b.ts', 2, 1), problem('App.tsx', 3, 1), problem('src/a.ts', 10, 5), problem('src/a.ts', 2, 9), problem(undefined), problem('src/a.ts', 2, 3), problem('src/a.ts', 2), problem('src/a.ts'), problem('src/b.ts', 1, 7)];
    const expected = ['-:-:-', 'App.tsx:3:1', 'src/a.ts:-:-', 'src/a.ts:2:-', 'src/a.ts:2:3', 'src/a.ts:2:9', 'src/a.ts:10:5', 'src/b.ts:1:7', 'src/b.ts:2:1'];
    expect([...found].sort(byPlace).map(place)).toEqual(expected);
    expect([...found].reverse().sort(byPlace).map(place)).toEqual(expected);
  });

  /** A terminal that keeps what it is told. */
  const terminal = () => {
    const lines: string[] = [];
    const logger = { info: (m: string) => void lines.push(`info ${m}`), warn: (m: string) => void lines.push(`warn ${m}`), error: (m: string) => void lines.push(`error ${m}`) };
    return { lines, logger: logger as unknown as Parameters<typeof tellOfLibraries>[2]['logger'] };
  };

  it('tells the terminal of each new finding of a module, an error to the overlay as well, and of those gone', () => {
    const { lines, logger } = terminal();
    const overlay: [string, string | undefined][] = [];
    const options = { logger, onError: (p: ServedProblem, file: string | undefined) => void overlay.push([p.ruleId, file]) };
    const absolute = (p: ServedProblem) => (p.file === undefined ? undefined : `/root/${p.file}`);
    const kept = problem('src/a.ts', 1, 1);
    const error = problem('src/a.ts', 3, 5, { ruleId: 'bridge-tool-type', severity: 'error' });
    const library = problem('node_modules/x/i.js', 1, 1, { library: true, package: 'x' });
    tellOfChanges([kept], [kept, error, problem('src/a.ts', 4, 1), library], options, absolute);
    expect(lines).toEqual(['error [pipeline-tool] src/a.ts:3:5: m (bridge-tool-type)', 'warn [pipeline-tool] src/a.ts:4:1: m (dialog-call)']);
    expect(overlay).toEqual([['bridge-tool-type', '/root/src/a.ts']]);
    lines.length = 0;
    tellOfChanges([kept, error, library], [error], { logger }, absolute);
    expect(lines).toEqual(['info [pipeline-tool] src/a.ts:1:1: dialog-call is gone.']);
    lines.length = 0;
    tellOfChanges([kept, error, problem('src/b.ts', 2)], [], { logger }, absolute);
    expect(lines).toEqual(['info [pipeline-tool] src/a.ts:1:1, src/a.ts:3:5, src/b.ts:2: 3 findings are gone.']);
    lines.length = 0;
    tellOfChanges([kept, library], [kept], { logger }, absolute);
    tellOfChanges([], [], { logger }, absolute);
    expect(lines).toEqual([]);
  });

  it('sums up a package’s warnings in one line, said again only when it changes, and again after the package went', () => {
    const { lines, logger } = terminal();
    const told = new Map<string, string>();
    const warning = (file: string) => problem(`node_modules/keep-store/${file}`, 1, 1, { library: true, package: 'keep-store' });
    tellOfLibraries([warning('a.js'), problem('src/a.ts', 1, 1)], told, { logger });
    expect(lines).toEqual([expect.stringMatching(/^warn \[pipeline-tool\] node_modules\/keep-store: 1 dialog-call warning in keep-store \(library code\), not listed \(the host page's findings panel lists them\)/)]);
    tellOfLibraries([warning('a.js')], told, { logger });
    expect(lines).toHaveLength(1);
    tellOfLibraries([warning('a.js'), warning('b.js')], told, { logger });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^warn \[pipeline-tool\] node_modules\/keep-store: 2 dialog-call warnings in keep-store/);
    tellOfLibraries([], told, { logger });
    expect(told.size).toBe(0);
    tellOfLibraries([warning('a.js'), warning('b.js')], told, { logger });
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe(lines[1]);
  });
});
