import { describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/core/validate.js';
import { goodFiles, writeFolder, writeZip } from '../helpers/bundles.js';

/*
 * What the code checks must see and must leave alone, each case a whole bundle through
 * validateBundle: the clean tool with files replaced. Findings are compared whole, as
 * `ruleId file:line:column`, so that a case can neither lose a finding nor gain a false one.
 */

const MODULE_PAGE = '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><script type="module" src="app.js"></script></body></html>';

async function findings(files: Record<string, string | Buffer>, zip = false): Promise<string[]> {
  const all = { ...goodFiles(), ...files };
  const bundle = zip ? writeZip(Object.entries(all).map(([name, data]) => ({ name, data }))) : writeFolder(all);
  const report = await validateBundle(bundle);
  return report.problems.map((p) => `${p.ruleId} ${p.file ?? ''}:${p.line ?? ''}:${p.column ?? ''}`);
}

/** app.js as a module script of the page. */
const app = (code: string, extra: Record<string, string> = {}) => ({ 'index.html': MODULE_PAGE, 'app.js': code, ...extra });

describe('scope: a name the script declares is not the global', () => {
  it.each([
    ['a parameter', 'function show(alert) {\n  alert("x");\n}\nshow(console.log);\n'],
    ['a destructured parameter', 'function show({ alert, localStorage }) {\n  alert(localStorage.x);\n}\n'],
    ['an arrow function parameter', 'const ask = (confirm) => confirm("x");\nconst say = prompt => prompt("y");\n'],
    ['a destructured arrow parameter', 'const run = ({ alert }) => {\n  alert(1);\n};\n'],
    ['an import', 'import { alert } from "./ui.js";\nalert("saved");\n'],
    ['a renamed import', 'import { notify as alert, store as localStorage } from "./ui.js";\nalert(localStorage.get());\n'],
    ['a local const', 'const localStorage = new Map();\nlocalStorage.set("rate", 1);\n'],
    ['a variable of a function', 'function f() {\n  let sessionStorage = {};\n  return sessionStorage.x;\n}\n'],
    ['a private method', 'class Banner {\n  #alert(text) { return text; }\n  show() { return this.#alert("x"); }\n}\n'],
    ['a property', 'const ui = { alert() {} };\nui.alert("x");\nconfig.localStorage = true;\n'],
    ['a method of a class', 'class Modal {\n  confirm(text) { return text; }\n  get localStorage() { return 1; }\n}\n'],
    ['a function declared further down', 'alert("x");\nfunction alert(text) { return text; }\n'],
    ['a catch parameter', 'try { run(); } catch (alert) {\n  alert.message;\n}\n'],
    ['a for-of variable', 'for (const confirm of checks) {\n  confirm();\n}\n'],
    ['`var self = this`', 'var self = this;\nself.alert("x");\n'],
    ['a local document', 'function f(document) {\n  return document.cookie;\n}\n'],
  ])('%s', async (_name, code) => {
    expect(await findings(app(code, { 'ui.js': 'export const alert = () => {};\nexport const notify = alert;\nexport const store = new Map();\n' }))).toEqual([]);
  });

  it('a declaration shadows only its own function, block or arrow body', async () => {
    const code = [
      'function f() {',
      '  const alert = console.log;',
      '  alert(1);',
      '}',
      'alert(2);',
      'const g = (confirm) => confirm(3);',
      'confirm(4);',
      '{ let localStorage = 1; localStorage++; }',
      'localStorage.clear();',
    ].join('\n');
    expect(await findings(app(code))).toEqual(['dialog-call app.js:5:1', 'dialog-call app.js:7:1', 'browser-storage app.js:9:1']);
  });

  it('binding the global to its own name changes nothing', async () => {
    const code = 'const { alert } = window;\nalert(1);\nconst pipeline = window.pipeline;\nawait pipeline.quotes.update();\n';
    expect(await findings(app(code))).toEqual(['dialog-call app.js:2:1', 'bridge-unknown-method app.js:4:7']);
  });
});

describe('the global object under its other names, and indirect calls', () => {
  it('finds dialogs through self, parent, top, frames, globalThis and window.window', async () => {
    const code = 'self.alert(1);\nparent.alert(2);\ntop.confirm(3);\nframes.prompt(4);\nglobalThis.alert(5);\nwindow.window.alert(6);\n';
    expect(await findings(app(code))).toEqual([1, 2, 3, 4, 5, 6].map((line) => `dialog-call app.js:${line}:1`));
  });

  it('finds storage through them too', async () => {
    expect(await findings(app('self.localStorage.x;\ntop.sessionStorage.clear();\nparent.indexedDB.open("a");\n'))).toEqual([
      'browser-storage app.js:1:1',
      'browser-storage app.js:2:1',
      'browser-storage app.js:3:1',
    ]);
  });

  it('finds alert.call, alert.apply, (0, alert)(…) and (alert)(…)', async () => {
    const code = 'alert.call(null, "a");\nalert.apply(null, ["b"]);\n(0, alert)("c");\n(alert)("d");\n';
    expect(await findings(app(code))).toEqual(['dialog-call app.js:1:1', 'dialog-call app.js:2:1', 'dialog-call app.js:3:5', 'dialog-call app.js:4:2']);
  });

  it('leaves a parenthesised name that is not called alone', async () => {
    expect(await findings(app('const f = (0, alert);\nconst g = (x) => x;\nif (alert) (g)(1);\n'))).toEqual([]);
  });
});

describe('HTML sinks', () => {
  it('finds Object.assign, srcdoc, createContextualFragment, setHTMLUnsafe and document.writeln', async () => {
    const code = [
      'Object.assign(el, { innerHTML: html });',
      'iframe.srcdoc = html;',
      'range.createContextualFragment(html);',
      'el.setHTMLUnsafe(html);',
      'document.writeln(html);',
    ].join('\n');
    expect(await findings(app(code))).toEqual([
      'unsafe-html app.js:1:21',
      'unsafe-html app.js:2:8',
      'unsafe-html app.js:3:7',
      'unsafe-html app.js:4:4',
      'unsafe-html app.js:5:1',
    ]);
  });

  it('leaves the same sinks alone with plain literals', async () => {
    const code = "Object.assign(el, { innerHTML: '<b>x</b>', title: t });\niframe.srcdoc = '<p>Hi</p>';\nrange.createContextualFragment(`<p></p>`);\ndocument.writeln('<br>');\n";
    expect(await findings(app(code))).toEqual([]);
  });

  const jquery = "$('#total').html(total);\n$(row).addClass('x').html(row.label);\n$('#hint').html('<b>Tip</b>');\n$('#out').html();\n";

  it('finds $(…).html(…) when the bundle ships jQuery', async () => {
    expect(await findings({ ...app(jquery), 'vendor/jquery-3.7.1.min.js': '/*! jQuery */' })).toEqual(['unsafe-html app.js:1:13', 'unsafe-html app.js:2:22']);
  });

  it('leaves .html(…) alone without jQuery', async () => {
    expect(await findings(app(jquery))).toEqual([]);
  });
});

describe('HTML attributes', () => {
  const page = (body: string) => ({ 'index.html': `<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body>\n${body}\n<script src="app.js"></script></body></html>` });

  it('reads javascript: in form action and formaction', async () => {
    expect(await findings(page('<form action="javascript:alert(1)"><button formaction="javascript:confirm(2)">Go</button></form>'))).toEqual([
      'dialog-call index.html:2:26',
      'dialog-call index.html:2:67',
    ]);
  });

  it('reads the document of <iframe srcdoc>', async () => {
    expect(await findings(page('<iframe srcdoc="<img src=missing.png><script>alert(1)</script>"></iframe>'))).toEqual([
      'reference-missing index.html:2:26',
      'dialog-call index.html:2:46',
    ]);
  });

  it('checks every URL-bearing attribute', async () => {
    const body = [
      '<form action="gone.html"></form>',
      '<video poster="poster.png"></video>',
      '<img srcset="small.png 1x, large.png 2x" alt="">',
      '<object data="movie.swf"></object>',
      '<svg><use href="icons.svg#a"></use><image xlink:href="pic.png"></image></svg>',
    ].join('\n');
    expect(await findings(page(body))).toEqual([
      'reference-missing index.html:2:15',
      'reference-missing index.html:3:16',
      'reference-missing index.html:4:14',
      'reference-missing index.html:4:14',
      'reference-missing index.html:5:15',
      'reference-missing index.html:6:17',
      'reference-missing index.html:6:55',
    ]);
  });
});

describe('CSS', () => {
  it('reads the strings of image-set() and every form of @import', async () => {
    const css = [
      'a { background: image-set("a1.png" 1x, url(a2.png) 2x); }',
      'b { background: -webkit-image-set("b1.png" 1x); }',
      '@import "c1.css";',
      "@import 'c2.css' layer(base);",
      '@import url("c3.css") screen;',
      'c { font-family: "not a url"; }',
    ].join('\n');
    expect(await findings({ 'styles.css': css })).toEqual([
      'reference-missing styles.css:1:28',
      'reference-missing styles.css:1:44',
      'reference-missing styles.css:2:36',
      'reference-missing styles.css:3:10',
      'reference-missing styles.css:4:10',
      'reference-missing styles.css:5:14',
    ]);
  });
});

describe('ES modules: imports are references', () => {
  it.each([false, true])('finds a missing file, a wrong letter case and a path outside the bundle (zip: %s)', async (zip) => {
    const code = [
      "import { a } from './lib/missing.js';",
      "import b from './lib/Util.js';",
      "export * from '../outside.js';",
      "const c = await import('./lib/lazy.js');",
      "import './lib/util.js';",
      "import 'vue';",
      "const d = await import(name);",
    ].join('\n');
    expect(await findings(app(code, { 'lib/util.js': 'export default 1;\n' }), zip)).toEqual([
      'reference-missing app.js:1:20',
      'reference-missing app.js:2:16',
      'reference-missing app.js:3:16',
      'reference-missing app.js:4:25',
    ]);
  });

  it('gives the letter case the bundle has', async () => {
    const report = await validateBundle(writeFolder({ ...goodFiles(), ...app("import b from './lib/Util.js';\n", { 'lib/util.js': 'export default 1;\n' }) }));
    expect(report.problems[0]!.data).toMatchObject({ reference: './lib/Util.js', sameLetters: 'lib/util.js' });
  });
});

describe('reading characters', () => {
  it('a byte-order mark changes nothing: the regular expression after it is one', async () => {
    expect(await findings({ 'app.js': '\ufeff/alert(1)/.test(s); alert(2);\n' })).toEqual(['dialog-call app.js:1:21']);
  });

  it('columns count characters, not bytes', async () => {
    expect(await findings({ 'app.js': "const café = 'crème'; alert(café);\nconst 名前 = '😀'; localStorage.x = 名前;\n" })).toEqual([
      'dialog-call app.js:1:23',
      'browser-storage app.js:2:17',
    ]);
  });
});
