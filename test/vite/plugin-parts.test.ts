import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { dropRefusedFallbacks } from '../../src/vite/assets.js';
import { toClassicScripts } from '../../src/vite/classic-scripts.js';
import { BuildFailure, createFailure, failBuild } from '../../src/vite/failure.js';
import { readProjectSettings } from '../../src/vite/project.js';
import { writeFolder } from '../helpers/bundles.js';

/*
 * The Vite plugin's parts that need no Vite: the project file as it reads it, the rewrite of the
 * page's tags, the fallback fonts it drops, and how a failure is raised and printed. They import
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
