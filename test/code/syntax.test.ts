import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { checksStarted, MINIFIED_SIZE, WAITING_LIMIT, WORKER_THRESHOLD } from '../../src/core/code/script-syntax.js';
import { validateBundle, type ValidateOptions } from '../../src/core/validate.js';
import { launchChromium, requireChromium } from '../dev/browser.js';
import { goodFiles, writeFolder } from '../helpers/bundles.js';

/*
 * js-syntax through validateBundle: a script the browser would refuse, in every way a tool ships
 * one, with V8's words and the position in the file that holds it.
 */

const page = (scripts: string) => `<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body>\n${scripts}\n</body></html>`;

async function syntax(files: Record<string, string | Buffer>, options: ValidateOptions = {}) {
  const report = await validateBundle(writeFolder({ ...goodFiles(), ...files }), options);
  return report.problems.filter((p) => p.ruleId === 'js-syntax').map((p) => ({ at: `${p.file}:${p.line}:${p.column}`, message: p.data!.message }));
}

describe('js-syntax', () => {
  it('points at the error in a .js file, with the parser\'s words', async () => {
    expect(await syntax({ 'app.js': 'const a = 1;\nif (a > 0 {\n  go();\n}\n' })).toEqual([{ at: 'app.js:2:11', message: 'Unexpected token \'{\'' }]);
  });

  it('maps an inline script\'s error into the page, on its first line and after', async () => {
    const html = page('<script>let a = ;</script>\n<script>\n  let b = 1;\n  let b = 2;\n</script>');
    expect(await syntax({ 'index.html': html })).toEqual([
      { at: 'index.html:2:17', message: "Unexpected token ';'" },
      { at: 'index.html:5:7', message: "Identifier 'b' has already been declared" },
    ]);
  });

  it('reads an inline type="module" script as a module', async () => {
    const html = page('<script type="module">\n  const data = await fetch("x");\n  with (data) {}\n</script>');
    expect(await syntax({ 'index.html': html })).toEqual([{ at: 'index.html:4:3', message: 'Strict mode code may not include a with statement' }]);
  });

  it('reads a file as a module when a page loads it as one, and as a classic script otherwise', async () => {
    const code = "import { total } from './total.js';\nexport const sum = total +;\n";
    const files = { 'total.js': 'export const total = 1;\n', 'app.js': code };
    expect(await syntax({ ...files, 'index.html': page('<script type="module" src="app.js"></script>') })).toEqual([{ at: 'app.js:2:27', message: "Unexpected token ';'" }]);
    expect(await syntax({ ...files, 'app.js': "import { total } from './total.js';\n", 'index.html': page('<script src="app.js"></script>') })).toEqual([
      { at: 'app.js:1:1', message: 'Cannot use import statement outside a module' },
    ]);
  });

  it('takes a file that no page loads but a module imports as a module', async () => {
    const files = {
      'index.html': page('<script type="module" src="app.js"></script>'),
      'app.js': "import './lib/a.js';\nimport './lib/c.js';\n",
      'lib/a.js': "import { b } from './b.js';\nlet await = b;\n",
      'lib/b.js': 'export const b = 1;\n',
      // Valid as a classic script: only the import makes it a module.
      'lib/c.js': 'var mode = 010;\n',
    };
    expect(await syntax(files)).toEqual([
      { at: 'lib/a.js:2:5', message: 'Unexpected reserved word' },
      { at: 'lib/c.js:1:12', message: 'Octal literals are not allowed in strict mode.' },
    ]);
  });

  it('counts columns in characters and ignores a byte-order mark', async () => {
    expect(await syntax({ 'app.js': "\ufeffconst s = '😀😀'; let t = ;\n" })).toEqual([{ at: 'app.js:1:25', message: "Unexpected token ';'" }]);
  });

  it('finds the column on a line too long for a caret, in the reading thread and in the worker', async () => {
    const line = `var s = "${'x'.repeat(5000)}"; let t = ;`;
    // Large enough for the worker, with lines short enough on average not to be a minified build.
    const lines = 'var a = 1;\n'.repeat(Math.ceil(WORKER_THRESHOLD / 10));
    const count = lines.split('\n').length;
    expect(await syntax({ 'app.js': line, 'big.js': lines + line })).toEqual([
      { at: `app.js:1:${line.length}`, message: "Unexpected token ';'" },
      { at: `big.js:${count}:${line.length}`, message: "Unexpected token ';'" },
    ]);
  });

  it('shares many megabytes of scripts between the worker and the reading thread, and loses none', async () => {
    // More than WAITING_LIMIT waits at once, so the reading thread parses some itself.
    const body = 'var a = 1;\n'.repeat(Math.ceil(WORKER_THRESHOLD / 10));
    const count = body.split('\n').length;
    const files: Record<string, string> = {};
    const expected: Array<{ at: string; message: string }> = [];
    for (let i = 0; i < Math.ceil((2 * WAITING_LIMIT) / body.length); i++) {
      files[`lib/part-${i}.js`] = `${body}let t${i} = ;\n`;
      expected.push({ at: `lib/part-${i}.js:${count}:${9 + String(i).length}`, message: "Unexpected token ';'" });
    }
    // One that no page loads and that imports: its error as a classic script sends it to the module parse.
    files['lib/module.js'] = `import './part-0.js';\n${body}let await = 1;\n`;
    expected.push({ at: `lib/module.js:${count + 1}:5`, message: 'Unexpected reserved word' });
    expect(await syntax(files)).toEqual(expected.sort((a, b) => a.at.localeCompare(b.at)));
  });

  it('parses nothing for js-syntax where the rule is off', async () => {
    const files = { 'app.js': 'let a = ;\n', 'vendor/lib.js': 'let b = ;\n', 'index.html': page('<script>let c = ;</script>') };
    let before = checksStarted();
    expect(await syntax(files, { rules: { 'js-syntax': 'off' } })).toEqual([]);
    expect(checksStarted() - before).toBe(0);
    before = checksStarted();
    expect(await syntax(files, { overrides: [{ files: ['vendor/**', 'index.html'], rules: { 'js-syntax': 'off' } }] })).toEqual([{ at: 'app.js:1:9', message: "Unexpected token ';'" }]);
    expect(checksStarted() - before).toBe(1);
  });

  it('does not parse a large minified build, which its minifier has parsed', async () => {
    const minified = (n: number) => `/*! lib v1 */\n!function(){${'var a=1;'.repeat(n)}let b=;}();`;
    expect(await syntax({ 'vendor/small.min.js': minified(100), 'vendor/large.min.js': minified(MINIFIED_SIZE / 8) })).toEqual([
      { at: 'vendor/small.min.js:2:819', message: "Unexpected token ';'" },
    ]);
  });

  it('says nothing of valid code, of scripts of other types, or of HTML-like comments', async () => {
    const html = page('<script type="text/template"><p>{{ name }</p></script>\n<script type="application/json">{"a": 1}</script>\n<script>\n<!--\nvar a = 1;\n-->\n</script>');
    expect(await syntax({ 'index.html': html, 'app.js': 'async function f() { await g(); }\nlabel: for (;;) break label;\n' })).toEqual([]);
  });

  it('can be silenced on its line like any rule', async () => {
    expect(await syntax({ 'app.js': '// pipeline-tool-disable-next-line js-syntax\nlet a = ;\n' })).toEqual([]);
  });
});

// The reference is the browser: the same scripts, loaded by Chromium, must fail exactly where and
// as js-syntax says (and the valid ones not at all).
describe.runIf(requireChromium())('js-syntax agrees with Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  const scripts: Record<string, string> = {
    'missing paren': 'if (a > 0 {\n  go();\n}\n',
    'duplicate let': 'let a = 1;\nlet a = 2;\n',
    'bad regular expression': 'const r = /(/;\n',
    'top-level await in a classic script': 'await fetch("x");\n',
    'return outside a function': 'return 1;\n',
    'non-ASCII before the error': "const s = 'é😀'; let t = ;\n",
    'unterminated template': 'const t = `abc\n',
    valid: 'label: for (;;) break label;\nconst f = async () => { await 1; };\n',
    'HTML-like comment': '<!-- x\nvar a = 1;\n--> y\n',
  };

  it.each(Object.entries(scripts))('%s', async (_name, code) => {
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await tab.setContent('<!doctype html><title>t</title>');
      const seen = await tab.evaluate((source) => {
        return new Promise<{ line: number; column: number; message: string } | null>((resolve) => {
          window.addEventListener('error', (event) => resolve({ line: event.lineno, column: event.colno, message: event.message }), { once: true });
          const script = document.createElement('script');
          script.src = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
          script.onload = () => resolve(null);
          document.head.append(script);
        });
      }, code);
      const ours = await syntax({ 'app.js': code });
      if (seen === null) expect(ours).toEqual([]);
      else {
        expect(ours).toHaveLength(1);
        expect(`Uncaught SyntaxError: ${String(ours[0]!.message)}`).toBe(seen.message);
        // Chromium's colno is 1-based in UTF-16 units; ours counts characters.
        const lineText = code.split('\n')[seen.line - 1]!;
        const characters = Array.from(lineText.slice(0, seen.column - 1)).length + 1;
        expect(ours[0]!.at).toBe(`app.js:${seen.line}:${characters}`);
      }
    } finally {
      await context.close();
    }
  });
});
