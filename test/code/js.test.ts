import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FINDINGS_PER_RULE } from '../../src/core/code/file-report.js';
import { HOLD_LIMIT, jsScanner } from '../../src/core/code/js-scanner.js';
import { rules } from '../../src/core/rules/index.js';
import { at, ids, scanJs, scanWith } from './helpers.js';

describe('the tokenizer never reads code inside comments, strings, templates or regular expressions', () => {
  const quiet: Record<string, string> = {
    'line comment': "// alert('x'); localStorage.x = 1; el.innerHTML = y;\n",
    'block comment': "/* alert('x');\n localStorage.clear();\n el.innerHTML = y; */",
    'JSDoc comment': "/**\n * @example alert('x')\n */\nfunction f() {}",
    'single-quoted string': "var s = 'alert(1); localStorage; window.pipeline.quotes.update()';",
    'double-quoted string': 'var s = "alert(1) \\" alert(2)";',
    'string with an escaped line break': "var s = 'a\\\nalert(1)';",
    'template text': 'var t = `alert(1) ${a} localStorage ${b} el.innerHTML = x`;',
    'nested template text': 'var t = `${`alert(1)`} ${f(`${`confirm()`}`)}`;',
    'regular expression': 'var r = /alert\\(|localStorage/g;',
    'regular expression with a class': 'var r = /[/]alert(x)[\\]]/;',
    'regular expression after a keyword': 'function f(s) { return /alert(1)/.test(s); }',
    'regular expression after (': 'if (/prompt\\(/.test(s)) go();',
    'regular expression after a block': 'if (a) { b(); }\n/confirm(x)/.test(s);',
    'regular expression after if (…)': 'if (ok) /alert(1)/g.exec(s);',
    'regular expression after await': 'async function f(s) { const a = await /alert(4)/.exec(s); }',
    'regular expression after yield': 'function* g(s) { yield /confirm(1)/g; }',
    'regular expression after of': 'for (const m of /prompt(1)/.exec(s) || []) use(m);',
    'regular expression after typeof, void, delete': 'x = typeof /alert(1)/; y = void /alert(2)/; delete /alert(3)/.x;',
    'regular expression after in, instanceof': 'x = a in /alert(1)/; y = b instanceof /alert(2)/;',
    'regular expression after new, throw, case': 'new /alert(1)/.constructor(); switch (a) { case /confirm(1)/.source: break; }\nthrow /alert(2)/;',
    'hashbang line': "#!/usr/bin/env node alert('x')\nrun();",
    'HTML in a string': "var h = '<button onclick=\"alert(1)\">';",
  };
  it.each(Object.entries(quiet))('%s', (_name, code) => {
    expect(scanJs(code)).toEqual([]);
  });

  it('tells division from a regular expression', () => {
    // If "/ 2 / alert(" were read as a regular expression, the call would be missed.
    expect(ids(scanJs('var x = a / 2 / b; alert(x);'))).toEqual(['dialog-call']);
    expect(ids(scanJs('var x = (a) / 2; alert(x) / 3;'))).toEqual(['dialog-call']);
    expect(ids(scanJs('var o = {}; var x = o.n / 2; alert(x);'))).toEqual(['dialog-call']);
    expect(ids(scanJs('x = a++ / 2; alert(x);'))).toEqual(['dialog-call']);
    expect(ids(scanJs('x = `${a}` / 2; alert(x);'))).toEqual(['dialog-call']);
    expect(ids(scanJs('x = y.return / 2; alert(x);'))).toEqual(['dialog-call']);
    expect(ids(scanJs('x = y.await / 2 / z.of / 3; alert(x);'))).toEqual(['dialog-call']);
  });

  it('reads the expressions inside template literals', () => {
    expect(at(scanJs('var t = `a ${alert(1)} b`;'))).toEqual(['dialog-call@1:14']);
    expect(ids(scanJs('var t = `${`${localStorage}`}`;'))).toEqual(['browser-storage']);
    expect(ids(scanJs('var t = `${ {a: 1}.a } ${confirm()}`;'))).toEqual(['dialog-call']);
  });

  it('recovers after a line break inside a string or a misread regular expression', () => {
    expect(ids(scanJs("var s = 'unterminated\nalert(1);"))).toEqual(['dialog-call']);
    expect(ids(scanJs('var x = a\n/b\nalert(1);'))).toEqual(['dialog-call']);
  });
});

describe('positions', () => {
  it('are 1-based lines and columns in characters, not bytes', () => {
    expect(at(scanJs('\n\n  alert(1);'))).toEqual(['dialog-call@3:3']);
    expect(at(scanJs('var s = "éé€"; alert(1);'))).toEqual(['dialog-call@1:16']);
    expect(at(scanJs('/* ü\n ü */ var é = 1; alert(1);'))).toEqual(['dialog-call@2:18']);
    expect(at(scanJs('var t = `é\né${1}`; alert(1);'))).toEqual(['dialog-call@2:9']);
  });
});

describe('the result does not depend on where chunks end', () => {
  const sample = [
    '#!/usr/bin/env node',
    '/* header é */ const p = window.pipeline; // pipeline-tool-disable-next-line unsafe-html',
    "el.innerHTML = `<b>${name}</b>`; var s = 'it\\'s \"alert(1)\"', r = /[/]confirm(/g, d = a / b / c;",
    "if (confirm('x')) localStorage.setItem('k', `${v}`);",
    "p.quotes.update(1); window.pipeline.customer.list(); p.costItems.list({ codes: ['A'] });",
    "pipeline.quotes.create({ lines: [{ qty: 0, unitPrice: -1, taxRate: 15 }], x: { lineType: 'cost' } });",
    "pipeline.quotes.addLines([{ qty: 2, unitPrice: 1, taxRate: 0.1, discountPercent: 101, productId: 'g' }]);",
    'document.write("<p>" + x); el.insertAdjacentHTML("afterend", html); document.cookie = "a=1";',
    'const é = 1; class A { alert(m) { return m; } } prompt(`${é}`);',
  ].join('\n');
  const whole = scanJs(sample);

  it('finds everything in the sample at once', () => {
    expect(ids(whole).sort()).toEqual(
      [
        'bridge-deprecated',
        'bridge-deprecated',
        'bridge-deprecated',
        'bridge-literal-range',
        'bridge-literal-range',
        'bridge-literal-range',
        'bridge-literal-range',
        'bridge-unknown-method',
        'bridge-unknown-method',
        'browser-storage',
        'browser-storage',
        'dialog-call',
        'dialog-call',
        'unsafe-html',
        'unsafe-html',
        'unsafe-html',
      ].sort(),
    );
  });

  it('gives the same findings for any split into chunks', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 12 }), (chunks) => {
        expect(scanJs(sample, { chunks })).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same findings byte by byte', () => {
    expect(scanJs(sample, { chunk: 1 })).toEqual(whole);
  });
});

describe('members written in brackets', () => {
  it.each([
    ["window['confirm']('b');", 'dialog-call', { name: 'confirm' }],
    ['window["alert"](1);', 'dialog-call', { name: 'alert' }],
    ['globalThis[`prompt`]();', 'dialog-call', { name: 'prompt' }],
    ["window?.['alert']?.(1);", 'dialog-call', { name: 'alert' }],
    ["const ls = window['sessionStorage'];", 'browser-storage', { api: 'sessionStorage' }],
    ["window['localStorage'].getItem('a');", 'browser-storage', { api: 'localStorage' }],
    ["document['cookie'] = 'a=b';", 'browser-storage', { api: 'document.cookie' }],
    ["el['innerHTML'] = x;", 'unsafe-html', { sink: 'innerHTML' }],
    ['rows[0]["outerHTML"] += x;', 'unsafe-html', { sink: 'outerHTML' }],
    ["el['insertAdjacentHTML']('beforeend', x);", 'unsafe-html', { sink: 'insertAdjacentHTML' }],
    ["document['write'](x);", 'unsafe-html', { sink: 'document.write' }],
    ["window.pipeline['quotes']['update']({});", 'bridge-unknown-method', { method: 'quotes.update' }],
    ["pipeline.quotes['update']({});", 'bridge-unknown-method', { method: 'quotes.update' }],
    ["window['pipeline'].quotes.update({});", 'bridge-unknown-method', { method: 'quotes.update' }],
    ["const p = window['pipeline']; p.quotes.update();", 'bridge-unknown-method', { method: 'quotes.update' }],
    ["l['lineType'] = 'cost';", 'bridge-deprecated', { use: "lineType: 'cost'" }],
    ["window['local' + 'Storage'].x = 1;", 'browser-storage', { api: 'localStorage' }],
    ["el['in' + 'ner' + 'HTML'] = x;", 'unsafe-html', { sink: 'innerHTML' }],
    // A file is read once a name a check wants appears in it whole (the import here).
    ["import './a.js'; window['con' + 'firm']('b');", 'dialog-call', { name: 'confirm' }],
    ["import './a.js'; window['pipe' + 'line'].quotes['up' + 'date']({});", 'bridge-unknown-method', { method: 'quotes.update' }],
  ])('%s', (code, ruleId, data) => {
    const found = scanJs(code, { files: ['a.js'] });
    expect(ids(found)).toEqual([ruleId]);
    expect(found[0]!.data).toMatchObject(data);
  });

  it('takes a namespace in brackets for the tool-type check', () => {
    expect(ids(scanJs("pipeline['quotes'].addLines([]);", { type: 'standalone' }))).toEqual(['bridge-tool-type']);
    expect(ids(scanJs('window.pipeline.quotes[`addSections`]([]);', { type: 'standalone' }))).toEqual(['bridge-tool-type']);
  });

  it('points at the name in brackets when there is no chain before it', () => {
    expect(at(scanJs("el['innerHTML'] = x;\nel[\n  `outerHTML`] = y;"))).toEqual(['unsafe-html@1:4', 'unsafe-html@3:3']);
    expect(at(scanJs("  window['alert'](1);"))).toEqual(['dialog-call@1:3']);
  });

  it('leaves computed names, templates with values and array literals alone', () => {
    const code = [
      "window[name]('b'); window['con' + kind]('b'); window['con' + 'firm' + x]('b'); window[`${'alert'}`](1);",
      "window['con' - 'firm']('b'); window['con' + ('firm')]('b'); window[('con') + 'firm']('b');",
      "el[prop] = x; el[`inner${kind}`] = x; const list = ['innerHTML']; f(['localStorage']);",
      "return ['alert'](1);",
      "pipeline.quotes[method]({}); window.pipeline[ns].update();",
    ].join('\n');
    expect(scanJs(code)).toEqual([]);
  });

  it('is the same for any split into chunks', () => {
    const code = [
      "window['confirm']('b'); const ls = window[`sessionStorage`];",
      "document['cookie'] = 'a=b'; el[`innerHTML`] = x; el['a'] = `${y}`;",
      "pipeline['quotes'].addLines([]); pipeline.quotes[`update`]({}); window[`${'alert'}`](1);",
      'const { quotes: q, localStorage } = window.pipeline; q.update();',
      'const { pipeline: p, indexedDB } = window; p.quotes.remove();',
    ].join('\n');
    const whole = scanJs(code, { type: 'standalone' });
    expect(at(whole)).toEqual([
      'dialog-call@1:1',
      'browser-storage@1:36',
      'browser-storage@2:1',
      'unsafe-html@2:32',
      'bridge-tool-type@3:1',
      'bridge-unknown-method@3:34',
      'bridge-unknown-method@4:54',
      'browser-storage@5:22',
      'bridge-unknown-method@5:44',
    ]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 12 }), (chunks) => {
        expect(scanJs(code, { type: 'standalone', chunks })).toEqual(whole);
      }),
      { numRuns: 300 },
    );
    expect(scanJs(code, { type: 'standalone', chunk: 1 })).toEqual(whole);
  });
});

describe('destructuring', () => {
  it('follows names taken from the bridge', () => {
    expect(at(scanJs('const { quotes } = pipeline; quotes.addLines([]);', { type: 'standalone' }))).toEqual(['bridge-tool-type@1:30']);
    expect(at(scanJs('const { quotes: q } = window.pipeline; q.update();'))).toEqual(['bridge-unknown-method@1:40']);
    expect(at(scanJs('let { settings, quotes } = globalThis.pipeline\nquotes.remove()'))).toEqual(['bridge-unknown-method@2:1']);
    expect(at(scanJs('var a = 1, { quotes: q } = window.pipeline, b = 2; q.remove();'))).toEqual(['bridge-unknown-method@1:52']);
    expect(at(scanJs('const p = window.pipeline; const { quotes } = p; quotes.remove();'))).toEqual(['bridge-unknown-method@1:50']);
    expect(at(scanJs('const { pipeline: p } = window; p.quotes.remove();'))).toEqual(['bridge-unknown-method@1:33']);
  });

  it('finds storage taken from window, at the key', () => {
    const found = scanJs('const { localStorage, sessionStorage: s, indexedDB: db } = window;');
    expect(found.map((h) => `${String(h.data.api)}@${h.column}`)).toEqual(['localStorage@9', 'sessionStorage@23', 'indexedDB@42']);
  });

  it('takes a pattern from anything else as the tool\'s own names', () => {
    expect(scanJs('const { localStorage } = options; const { a: sessionStorage } = x;')).toEqual([]);
    expect(scanJs('const { quotes } = api; quotes.update();')).toEqual([]);
    expect(scanJs('const { alert } = ui; alert("x");')).toEqual([]);
    expect(scanJs('const { pipeline } = deps; pipeline.quotes.update();')).toEqual([]);
    expect(ids(scanJs('const { alert } = window; alert("x");'))).toEqual(['dialog-call']);
    expect(scanJs('const { version } = pipeline; version.split(".");')).toEqual([]);
  });

  it('follows the plain elements of a pattern and skips nested ones, defaults and rest', () => {
    expect(ids(scanJs('const { a: { b }, quotes, ...rest } = pipeline; quotes.remove();'))).toEqual(['bridge-unknown-method']);
    expect(ids(scanJs('const { quotes = fallback } = pipeline; quotes.remove();'))).toEqual([]);
    expect(ids(scanJs('const { x: { quotes } } = pipeline; quotes.remove();'))).toEqual([]);
    expect(ids(scanJs('const { [key]: quotes } = pipeline; quotes.remove();'))).toEqual([]);
    expect(ids(scanJs('const { "quotes": q } = pipeline; q.remove();'))).toEqual([]);
    expect(ids(scanJs('const { a = localStorage } = opts;'))).toEqual(['browser-storage']);
    expect(ids(scanJs('const [quotes] = pipeline; quotes.remove();'))).toEqual([]);
  });

  it('ignores a pattern whose value is not the bridge itself', () => {
    expect(scanJs('const { quotes } = pipeline.quotes; quotes.remove();')).toEqual([]);
    expect(scanJs('const { quotes } = window.pipeline || {}; quotes.remove();')).toEqual([]);
    expect(scanJs('for (const { localStorage } of list) use();')).toEqual([]);
  });
});

describe('dialog-call', () => {
  it('finds bare and window-qualified calls, not other objects\' methods', () => {
    expect(ids(scanJs("alert('a'); window.confirm('b'); globalThis.prompt('c'); modal.alert('d');"))).toEqual([
      'dialog-call',
      'dialog-call',
      'dialog-call',
    ]);
  });
  it('ignores method definitions and names the file declares itself', () => {
    expect(scanJs('const o = { confirm(x) { return x; } }; class A { async alert() {} }')).toEqual([]);
    expect(scanJs('alert(1); function alert(m) { show(m); }')).toEqual([]);
    expect(scanJs('var prompt = makePrompt(); prompt(1);')).toEqual([]);
  });
  it('sees a call as the last token of the file', () => {
    expect(ids(scanJs('alert(1)'))).toEqual(['dialog-call']);
  });

  it('finds a dialog passed to be called: promise.catch(alert), .then(confirm)', () => {
    const code = [
      "fetch('/x').then(check).catch(alert);",
      'ask().then(confirm, window.prompt);',
      "button.addEventListener('click', alert);",
      'setTimeout(alert, 100, "done");',
      'run(async () => 1).catch(self.alert);',
    ].join('\n');
    expect(at(scanJs(code))).toEqual(['dialog-call@1:31', 'dialog-call@2:12', 'dialog-call@2:21', 'dialog-call@3:34', 'dialog-call@4:12', 'dialog-call@5:26']);
  });

  it('does not take a parameter, a condition or a member for a dialog passed along', () => {
    const code = [
      'function show(alert) { return alert; }',
      'const ask = async (a, confirm) => confirm;',
      'class Dialog { open(prompt) { return prompt; } }',
      'try { run(); } catch (alert) { log(alert.message); }',
      'if (alert) go();',
      'while (confirm) stop();',
      'f(ui.alert, alert.bind(null, 1), typeof alert, [alert]);',
      'g(alert + 1, (0, x), alert.name);',
    ].join('\n');
    expect(scanJs(code)).toEqual([]);
  });
});

describe('browser-storage', () => {
  it('finds each storage API', () => {
    const found = scanJs('localStorage.a; sessionStorage.b; indexedDB.open("x"); document.cookie; window.localStorage; typeof indexedDB;');
    expect(found.map((h) => h.data.api)).toEqual(['localStorage', 'sessionStorage', 'indexedDB', 'document.cookie', 'localStorage', 'indexedDB']);
  });
  it('is silent for object keys and other objects\' properties', () => {
    expect(scanJs('const o = { localStorage: 1, "sessionStorage": 2 }; a.indexedDB; a.cookie;')).toEqual([]);
  });
  it('keeps at most a hundred findings per rule and file, and says how many more there were', () => {
    const found = scanJs('localStorage.x;\n'.repeat(MAX_FINDINGS_PER_RULE + 5));
    expect(found).toHaveLength(MAX_FINDINGS_PER_RULE);
    expect(found.at(-1)!.data.more).toBe(5);
  });
});

describe('unsafe-html', () => {
  it.each([
    ['el.innerHTML = html;', 'innerHTML'],
    ["el.innerHTML += '<li>' + item + '</li>';", 'innerHTML'],
    ['el.outerHTML = `<p>${x}</p>`;', 'outerHTML'],
    ["el.insertAdjacentHTML('beforeend', row);", 'insertAdjacentHTML'],
    ["el.insertAdjacentHTML('beforeend', `<td>${v}</td>`);", 'insertAdjacentHTML'],
    ['document.write(html);', 'document.write'],
    ["document.writeln('<p>', name);", 'document.writeln'],
    ["window.document.write('<p>' + x);", 'document.write'],
    ['el.innerHTML = sanitize(x);', 'innerHTML'],
  ])('%s', (code, sink) => {
    const found = scanJs(code);
    expect(ids(found)).toEqual(['unsafe-html']);
    expect(found[0]!.data.sink).toBe(sink);
  });

  it.each([
    "el.innerHTML = '';",
    'el.innerHTML = "<p>Loading</p>"',
    'el.innerHTML = `<p>static</p>`;',
    "el.innerHTML = ''\nnext();",
    "el.insertAdjacentHTML(pos, '<hr>');",
    "document.write('<p>a</p>', '<p>b</p>');",
    'const h = el.innerHTML;',
    'if (el.innerHTML == x) {}',
    "writer.write('x' + y);",
  ])('silent: %s', (code) => {
    expect(scanJs(code)).toEqual([]);
  });

  it('finds the HTML methods, srcdoc and the document on the global object, at the name of the sink', () => {
    const code = [
      'range.createContextualFragment(html);',
      'el.setHTMLUnsafe(html);',
      'frame.srcdoc = page;',
      '(0, document.write)(x); globalThis.document.write(x); self.document.writeln(x);',
      'document.body.innerHTML = page;',
    ].join('\n');
    expect(scanJs(code).map((hit) => `${hit.ruleId}@${hit.line}:${hit.column} ${hit.data.sink as string}`)).toEqual([
      'unsafe-html@1:7 createContextualFragment',
      'unsafe-html@2:4 setHTMLUnsafe',
      'unsafe-html@3:7 srcdoc',
      'unsafe-html@4:5 document.write',
      'unsafe-html@4:25 document.write',
      'unsafe-html@4:55 document.writeln',
      'unsafe-html@5:15 innerHTML',
    ]);
  });

  it('finds innerHTML and outerHTML given through Object.assign, at the key', () => {
    const code = "Object.assign(el, { innerHTML: html });\nObject.assign(el, { title: t, outerHTML: html });";
    expect(scanJs(code).map((hit) => `${hit.ruleId}@${hit.line}:${hit.column} ${hit.data.sink as string}`)).toEqual([
      'unsafe-html@1:21 innerHTML',
      'unsafe-html@2:31 outerHTML',
    ]);
  });

  it('finds innerHTML given as a prop of a call, as render functions and compiled v-html give it, at the key', () => {
    const code = [
      "h('div', { innerHTML: html });",
      '_createElementVNode("div", { class: "note", innerHTML: _ctx.note }, null, 8, ["innerHTML"]);',
      'Ue("div",{innerHTML:t.value},null,8,Ke);',
      'obj.assign(el, { outerHTML: html });',
    ].join('\n');
    expect(scanJs(code).map((hit) => `${hit.ruleId}@${hit.line}:${hit.column} ${hit.data.sink as string}`)).toEqual([
      'unsafe-html@1:12 innerHTML',
      'unsafe-html@2:45 innerHTML',
      'unsafe-html@3:11 innerHTML',
      'unsafe-html@4:18 outerHTML',
    ]);
  });

  it("finds React's dangerouslySetInnerHTML given HTML built at run time, at the key", () => {
    const code = [
      'jsx("div", { dangerouslySetInnerHTML: { __html: note } });',
      'createElement("p", { className: "x", dangerouslySetInnerHTML: { "__html": `<b>${name}</b>` } });',
      'jsx("div", { dangerouslySetInnerHTML: markup });',
      'jsx("div", { dangerouslySetInnerHTML: { __html: "<hr>" } }); jsx("i", { dangerouslySetInnerHTML: undefined });',
    ].join('\n');
    expect(scanJs(code).map((hit) => `${hit.ruleId}@${hit.line}:${hit.column} ${hit.data.sink as string}`)).toEqual([
      'unsafe-html@1:14 dangerouslySetInnerHTML',
      'unsafe-html@2:38 dangerouslySetInnerHTML',
      'unsafe-html@3:14 dangerouslySetInnerHTML',
    ]);
  });

  it('leaves text given to an element whose content is not markup, while the variable that holds it is in scope', () => {
    const code = [
      'function inject(css) {',
      '  const style = document.createElement("style");',
      '  style.innerHTML = css;',
      '  const data = document.createElement("script");',
      '  data.type = "application/json";',
      '  data.innerHTML = JSON.stringify(state);',
      '  const run = document.createElement("script");',
      '  run.innerHTML = code;',
      '}',
      'function other(style) { style.innerHTML = html; }',
      'let t = document.createElement("style"); t = document.createElement("div"); t.innerHTML = html;',
    ].join('\n');
    expect(scanJs(code).map((hit) => `${hit.line}:${hit.column}`)).toEqual(['8:7', '10:31', '11:79']);
  });

  it('finds $(…).html(…) and jQuery(…).html(…) only when the bundle ships jQuery', () => {
    const code = "$('#a').html(x);\njQuery('#b').html(y);";
    const jquery = { files: ['vendor/jquery-3.7.1.min.js'] };
    expect(scanJs(code, jquery).map((hit) => `${hit.ruleId}@${hit.line}:${hit.column} ${hit.data.sink as string}`)).toEqual([
      'unsafe-html@1:9 $(…).html',
      'unsafe-html@2:14 $(…).html',
    ]);
    expect(scanJs(code)).toEqual([]);
    // Also in a file that is read for another of its names.
    expect(scanJs(`const saved = el.innerHTML;\n${code}`)).toEqual([]);
    expect(scanJs("html(x); other('#a').html(x); $('#c').html(); $.html(x);", jquery)).toEqual([]);
    // Another method of the same receiver is not .html.
    expect(scanJs('$(el).text(x); $(el).innerHTML.replace(a, b);', jquery)).toEqual([]);
  });

  it.each([
    'innerHTML = html;',
    "insertAdjacentHTML('beforeend', html);",
    'createContextualFragment(html);',
    'cache.innerHTML.count = n;',
    'x = el.insertAdjacentHTML;',
    "Object.assign(el, { innerHTML: '<b>x</b>' });",
    'const saved = { innerHTML: html };',
    'function f() { return { outerHTML: html }; }',
    "h('div', { innerHTML: null, title: t }); h('p', { innerHTML: '' });",
    'a.b.document.write(x);',
    'document.body.write(x);',
    'html.write(part);',
    "const set = el.setHTMLUnsafe;\nset('<b>x</b>');",
  ])('silent: the script\'s own names, other objects and literals: %s', (code) => {
    expect(scanJs(code)).toEqual([]);
  });
});

describe('bridge-unknown-method', () => {
  it('suggests the nearest real method', () => {
    const found = scanJs('window.pipeline.customer.list(); pipeline.quotes.addLine([]); window.pipeline.addLines([]);');
    expect(found.map((h) => [h.data.method, h.data.suggestion])).toEqual([
      ['customer.list', 'customers.list'],
      ['quotes.addLine', 'quotes.addLines'],
      ['addLines', 'quotes.addLines'],
    ]);
  });

  it('follows roots: window, globalThis, aliases, optional chaining', () => {
    const code = [
      'globalThis.pipeline.quotes.remove();',
      'window.pipeline?.quotes?.remove?.();',
      'const p = window.pipeline; p.quotes.remove();',
      'var q = pipeline.quotes, r = 1; q.remove();',
    ].join('\n');
    expect(at(scanJs(code))).toEqual([
      'bridge-unknown-method@1:1',
      'bridge-unknown-method@2:1',
      'bridge-unknown-method@3:28',
      'bridge-unknown-method@4:33',
    ]);
  });

  it('lists the methods of a namespace that is called', () => {
    expect(scanJs('window.pipeline.settings("x");')[0]!.data).toMatchObject({ method: 'settings', methods: ['settings.get', 'settings.set'] });
  });

  it('leaves a variable named pipeline alone unless it looks like the bridge', () => {
    expect(scanJs('function run(pipeline) { pipeline.steps.push(1); pipeline.get(1); }')).toEqual([]);
    expect(scanJs('const pipeline = []; pipeline.quotes.update();')).toEqual([]);
    expect(ids(scanJs('const pipeline = window.pipeline; pipeline.quotes.update();'))).toEqual(['bridge-unknown-method']);
  });

  it('does not report methods that exist, feature tests, or version', () => {
    const code = [
      'pipeline.context.get(); pipeline.customers.list({ page: 1 }); pipeline.products.list();',
      'pipeline.taskTemplates.list(); pipeline.jobCostTemplates.list(); pipeline.jobs.list();',
      'pipeline.quotes.list(); pipeline.settings.get("a"); pipeline.settings.set("a", 1);',
      'if (pipeline.quotes.addSections) {} const v = pipeline.version.split(".");',
      'const [major] = window.pipeline.version.split("."); window.pipeline.version.startsWith("1");',
    ].join('\n');
    expect(scanJs(code)).toEqual([]);
  });
});

describe('bridge-tool-type', () => {
  it('reports addLines and addSections in a standalone tool, or one without a type', () => {
    const code = 'pipeline.quotes.addLines([]); pipeline.quotes.addSections([]);';
    expect(ids(scanJs(code, { type: 'standalone' }))).toEqual(['bridge-tool-type', 'bridge-tool-type']);
    expect(scanJs(code, { type: null })[0]!.data).toMatchObject({ toolType: 'standalone', declared: false });
    expect(scanJs(code, { type: 'quoting_extension' })).toEqual([]);
    // A type that is neither is manifest-tool-type's to report; the calls are not judged against it.
    expect(scanJs(code, { type: 'widget' })).toEqual([]);
    expect(scanJs('pipeline.quotes.create({});', { type: 'standalone' })).toEqual([]);
  });
});

describe('bridge-deprecated', () => {
  it('names the replacement', () => {
    const found = scanJs(
      "pipeline.costItems.list(); const l = { lineType: 'cost', qty: 1 }; l.lineType = 'cost'; pipeline.quotes.addLines([{ productId: id, qty: 1, unitPrice: 2, taxRate: 0 }]);",
    );
    expect(found.map((h) => h.data.use)).toEqual(['costItems.list', "lineType: 'cost'", "lineType: 'cost'", 'productId']);
  });

  it("finds lineType set to 'cost' on any object, one reached from window too", () => {
    expect(scanJs("window.draft.lineType = 'cost';\nself.lineType = 'cost';").map((h) => `${h.line}:${h.column}`)).toEqual(['1:14', '2:6']);
  });

  it('takes productId for an add-line record only in addLines or in an object shaped like one', () => {
    expect(ids(scanJs("lines.push({ productId: p.id, qty: 1, unitPrice: 5, taxRate: 0.15 });"))).toEqual(['bridge-deprecated']);
    expect(scanJs('const row = { productId: p.id, qty: 1 };')).toEqual([]);
    expect(scanJs('pipeline.quotes.create({ lines: [{ productId: x, qty: 1, unitPrice: 1, taxRate: 0 }] });')).toEqual([]);
  });
});

describe('bridge-literal-range', () => {
  const create = (line: string) => `pipeline.quotes.create({ customerName: 'A', upsertByEmail: false, lines: [${line}] });`;
  it.each([
    ['{ qty: 0, unitPrice: 1, taxRate: 0.1 }', 'qty', 0],
    ['{ qty: 10001, unitPrice: 1, taxRate: 0.1 }', 'qty', 10001],
    ['{ qty: 1, unitPrice: -5, taxRate: 0.1 }', 'unitPrice', -5],
    ['{ qty: 1, unitPrice: 1e7, taxRate: 0.1 }', 'unitPrice', 1e7],
    ['{ qty: 1, unitPrice: 1, taxRate: 15 }', 'taxRate', 15],
    ['{ qty: 1, "unitPrice": 2_000_000, taxRate: 0 }', 'unitPrice', 2_000_000],
  ])('quotes.create with %s', (line, field, value) => {
    expect(scanJs(create(line)).map((h) => [h.data.field, h.data.value])).toEqual([[field, value]]);
  });

  it('counts the lines of a lines array literal', () => {
    const many = Array.from({ length: 201 }, () => '{ qty: 1, unitPrice: 1, taxRate: 0 }').join(', ');
    expect(scanJs(create(many)).map((h) => [h.data.field, h.data.value])).toEqual([['lines', 201]]);
    // The count ends at the array's own `]`, whatever follows it.
    expect(scanJs(`pipeline.quotes.create({ lines: [${many}][0] });`).map((h) => h.data.value)).toEqual([201]);
    const limit = Array.from({ length: 200 }, () => '{ qty: 1, unitPrice: 1, taxRate: 0 }').join(',\n');
    expect(scanJs(create(`${limit},`))).toEqual([]);
    expect(scanJs("pipeline.quotes.create({ lines: [] });").map((h) => h.data.value)).toEqual([0]);
    expect(scanJs('pipeline.quotes.create({ lines: [...many, extra] });')).toEqual([]);
  });

  it('counts a hole in the lines array as a line, as its length does', () => {
    const line = '{ qty: 1, unitPrice: 1, taxRate: 0 }';
    const holes = `${line}, , ${Array.from({ length: 199 }, () => line).join(', ')}`; // length 201
    expect(scanJs(create(holes)).map((h) => h.data.value)).toEqual([201]);
    expect(scanJs(create(`${','.repeat(200)} ${line}`)).map((h) => h.data.value)).toEqual([201]);
    expect(scanJs(create(','))).toEqual([]); // [,] has length 1
    expect(scanJs(create(`${line},,`))).toEqual([]); // length 2
  });

  it('checks addLines records, and discountPercent in records built elsewhere', () => {
    expect(scanJs('pipeline.quotes.addLines([{ qty: -1, unitPrice: -2, taxRate: -0.1, discountPercent: 120 }]);').map((h) => h.data.field)).toEqual([
      'qty',
      'unitPrice',
      'taxRate',
      'discountPercent',
    ]);
    expect(ids(scanJs('lines.push({ qty: 2, unitPrice: 9, taxRate: 15, discountPercent: -5 });'))).toEqual(['bridge-literal-range']);
    expect(scanJs('pipeline.quotes.addLines([{ qty: 2, unitPrice: 9, taxRate: 15, discountPercent: 100 }]);')).toEqual([]);
    // Above 100, addLines's percentage comes to more than 100%: the model warns of it too.
    expect(scanJs('pipeline.quotes.addLines([{ qty: 2, unitPrice: 9, taxRate: 100 }]);')).toEqual([]);
    const over = scanJs('pipeline.quotes.addLines([{ qty: 2, unitPrice: 9, taxRate: 1500 }]);');
    expect(over.map((h) => [h.data.method, h.data.field, h.data.value, h.data.hint])).toEqual([['quotes.addLines', 'taxRate', 1500, 'over-100']]);
  });

  it('only looks at whole literals', () => {
    expect(scanJs(create('{ qty: 0.5 * n, unitPrice: x ? -1 : 1, taxRate: rate }'))).toEqual([]);
  });

  it('holds each field to its own range in each method', () => {
    // quotes.create does not check discountPercent; quotes.addLines sets no upper bound on qty, unitPrice or taxRate.
    expect(scanJs(create('{ qty: 1, unitPrice: 1, taxRate: 0.1, discountPercent: -5 }'))).toEqual([]);
    expect(scanJs('pipeline.quotes.addLines([{ qty: 150, unitPrice: 500, taxRate: 2, discountPercent: 0 }]);')).toEqual([]);
    // Only a percentage carries a hint; no other finding has the key at all.
    expect(scanJs(create('{ qty: 1, unitPrice: 1, taxRate: -0.5 }')).map((h) => h.data)).toStrictEqual([
      { method: 'quotes.create', field: 'taxRate', value: -0.5, allowed: 'a fraction from 0 to 1' },
    ]);
  });

  it('looks only inside quotes.create and quotes.addLines, and outside them only at discountPercent', () => {
    expect(scanJs("pipeline.customers.list({ qty: 0, unitPrice: -1 });\npipeline.quotes.list({ qty: 0, lines: [] });")).toEqual([]);
    expect(scanJs('const draft = { lines: [] };\nrows.push({ qty: 0, unitPrice: -1, taxRate: -1 });')).toEqual([]);
  });

  it('counts only the lines array: once, by its own commas, and not at all with a spread', () => {
    expect(scanJs('pipeline.quotes.create({ lines: [], tags: [] });').map((h) => [h.data.field, h.data.value])).toEqual([['lines', 0]]);
    const members = Array.from({ length: 200 }, (_, i) => `row${i}.line`).join(', ');
    expect(scanJs(`pipeline.quotes.create({ lines: [${members}] });`)).toEqual([]);
    expect(scanJs(`pipeline.quotes.create({ lines: [...base, ${members}] });`)).toEqual([]);
    // Only `...` makes the count unknown; the other punctuation of an item does not.
    expect(scanJs(`pipeline.quotes.create({ lines: [${members}, last.line] });`).map((h) => h.data.value)).toEqual([201]);
  });

  it('counts nothing when lines is not an array literal, even with one later in the object', () => {
    expect(scanJs('pipeline.quotes.create({ lines: rows, tags: [] });')).toEqual([]);
  });
});

describe('reference-missing: the module names of import and export', () => {
  const missing = (code: string, files: string[] = []) =>
    scanJs(code, { files }).map(({ ruleId, line, column, data }) => ({ ruleId, at: `${line}:${column}`, data }));

  it('points a dynamic import with a template at the first character of its path, as with quotes', () => {
    expect(missing('const a = await import(`./lazy.js`);\nconst b = await import(\n  `./later.js`);')).toEqual([
      { ruleId: 'reference-missing', at: '1:25', data: { reference: './lazy.js', resolved: 'lazy.js' } },
      { ruleId: 'reference-missing', at: '3:4', data: { reference: './later.js', resolved: 'later.js' } },
    ]);
  });

  it('reads past names in quotes to the module name', () => {
    expect(missing("import { 'a-b' as ab } from './names.js';\nexport { \"c\" as 'd' } from './more.js';")).toEqual([
      { ruleId: 'reference-missing', at: '1:30', data: { reference: './names.js', resolved: 'names.js' } },
      { ruleId: 'reference-missing', at: '2:29', data: { reference: './more.js', resolved: 'more.js' } },
    ]);
  });

  it('checks every form of static import and export, at the first character of the module name', () => {
    const code = [
      "import { a } from './a.js';",
      "import b from './b.js';",
      "import './c.js';",
      "export * from './d.js';",
      "export { e } from './e.js';",
      "export * as ns from './f.js';",
      "import { from } from './g.js'",
      "import x, * as y from './h.js'",
      "import './lib/util.js';",
    ].join('\n');
    expect(missing(code, ['lib/util.js'])).toEqual([
      { ruleId: 'reference-missing', at: '1:20', data: { reference: './a.js', resolved: 'a.js' } },
      { ruleId: 'reference-missing', at: '2:16', data: { reference: './b.js', resolved: 'b.js' } },
      { ruleId: 'reference-missing', at: '3:9', data: { reference: './c.js', resolved: 'c.js' } },
      { ruleId: 'reference-missing', at: '4:16', data: { reference: './d.js', resolved: 'd.js' } },
      { ruleId: 'reference-missing', at: '5:20', data: { reference: './e.js', resolved: 'e.js' } },
      { ruleId: 'reference-missing', at: '6:22', data: { reference: './f.js', resolved: 'f.js' } },
      { ruleId: 'reference-missing', at: '7:23', data: { reference: './g.js', resolved: 'g.js' } },
      { ruleId: 'reference-missing', at: '8:24', data: { reference: './h.js', resolved: 'h.js' } },
    ]);
  });

  it('checks a dynamic import of one literal, also with options, and nothing computed', () => {
    const code = [
      "const a = await import('./a.js');",
      "const b = await import('./b.js', { with: { type: 'json' } });",
      'const c = await import(`./${name}.js`);',
      "const d = await import('./d.js' + suffix);",
      'const e = await import(name);',
      "const f = import.meta.resolve('./f.js');",
    ].join('\n');
    expect(missing(code)).toEqual([
      { ruleId: 'reference-missing', at: '1:25', data: { reference: './a.js', resolved: 'a.js' } },
      { ruleId: 'reference-missing', at: '2:25', data: { reference: './b.js', resolved: 'b.js' } },
    ]);
  });

  it('gives no later module name to a dynamic import whose own it could not read', () => {
    const long = `./${'a'.repeat(70)}.js`;
    const code = `const a = await import('${long}');\nconst b = await import('./b.js');\nconst c = await import(\`./c.js\`);`;
    expect(missing(code).filter((hit) => hit.data.reference !== long)).toEqual([
      { ruleId: 'reference-missing', at: '2:25', data: { reference: './b.js', resolved: 'b.js' } },
      { ruleId: 'reference-missing', at: '3:25', data: { reference: './c.js', resolved: 'c.js' } },
    ]);
  });

  it('leaves bare names to an import map, and hands paths and URLs to their own rules', () => {
    const code = ["import 'vue';", "import 'vue/dist/vue.esm.js';", "import '../up.js';", "import '/root.js';", "import 'https://cdn.example.com/x.js';", "import 'http://cdn.example.com/y.js';"].join('\n');
    expect(missing(code)).toEqual([
      { ruleId: 'reference-missing', at: '3:9', data: { reference: '../up.js', escapes: true } },
      { ruleId: 'reference-root-absolute', at: '4:9', data: { reference: '/root.js' } },
      { ruleId: 'reference-remote', at: '5:9', data: { reference: 'https://cdn.example.com/x.js', kind: 'script' } },
      { ruleId: 'reference-insecure', at: '6:9', data: { reference: 'http://cdn.example.com/y.js', kind: 'script' } },
    ]);
  });

  it('reads no module name where nothing is loaded', () => {
    const code = [
      "export const a = './a.js';",
      "export default './b.js';",
      'export default from',
      "'./c.js';",
      "export function from() {} './d.js';",
      "obj.import('./e.js');",
      "const o = { import: './f.js' };",
      'export { a };',
      'from',
      "'./g.js';",
    ].join('\n');
    expect(missing(code)).toEqual([]);
  });

  it('reads no module name after a key named import', () => {
    expect(missing("const loaders = { import: load }\nimport x from './x.js'")).toEqual([
      { ruleId: 'reference-missing', at: '2:16', data: { reference: './x.js', resolved: 'x.js' } },
    ]);
  });

  it('reports each module once when statements have no semicolons', () => {
    expect(missing("import x from './x.js'\nimport y from './y.js'\nexport { z } from './z.js'")).toEqual([
      { ruleId: 'reference-missing', at: '1:16', data: { reference: './x.js', resolved: 'x.js' } },
      { ruleId: 'reference-missing', at: '2:16', data: { reference: './y.js', resolved: 'y.js' } },
      { ruleId: 'reference-missing', at: '3:20', data: { reference: './z.js', resolved: 'z.js' } },
    ]);
  });

  it('gives up on a clause of more than 2000 tokens before the module name', () => {
    // `{`, 999 names with 998 commas, `}` and `from`: the module name is the 2001st token.
    const names = Array.from({ length: 999 }, (_, i) => `n${i}`).join(',');
    expect(missing(`import {${names}} from './a.js';`).map((hit) => hit.data)).toEqual([{ reference: './a.js', resolved: 'a.js' }]);
    expect(missing(`import {${names},} from './b.js';`)).toEqual([]);
  });
});

describe('the bridge and storage rules: what they leave alone', () => {
  const found = (code: string) => scanJs(code).map((h) => `${h.ruleId}@${h.line}:${h.column} ${JSON.stringify(h.data)}`);

  it('browser-storage: an arrow parameter, another object\'s cookie, destructuring of anything but the global object', () => {
    expect(found('items.map(localStorage => localStorage);')).toEqual([]);
    expect(found('document.body.cookie = 1;')).toEqual([]);
    expect(found("$.cookie('theme', 'dark');")).toEqual([]);
    expect(found('const { title: t } = window;\nconst { localStorage: x } = window.myStore;\nconst { localStorage: ls } = window;')).toEqual([
      'browser-storage@3:9 {"api":"localStorage"}',
    ]);
  });

  it("bridge-deprecated: only lineType takes 'cost' as deprecated, and only a literal; other assignments are not lineType", () => {
    expect(found("const r = { qty: 'cost', unitPrice: 'cost', productId: 'cost' };")).toEqual(['bridge-deprecated@1:45 {"use":"productId"}']);
    expect(found("const r = { lineType: kind };\npipeline.mode = 'cost';\nlineType.label = 'cost';")).toEqual([]);
    // Compared, not assigned.
    expect(found("if (line.lineType === 'cost') migrate(line);")).toEqual([]);
  });

  it('bridge-unknown-method: a bare pipeline counts only with a bridge-like name; a call of an alias itself says nothing', () => {
    expect(found('pipeline.frob();\npipeline.version();\nconst p = pipeline.quotes; p();')).toEqual([]);
    expect(found('pipeline.addLines();\npipeline.costItems();')).toEqual([
      'bridge-unknown-method@1:1 {"method":"addLines","suggestion":"quotes.addLines"}',
      'bridge-unknown-method@2:1 {"method":"costItems","methods":["costItems.list"]}',
    ]);
  });
});

describe('the trigger-word gate', () => {
  it('does not tokenize a file without any of the names the checks need', () => {
    // Unbalanced and unterminated on purpose: it would still give nothing, but it is never read.
    expect(scanJs('var writer = a.writeFile(`x'.repeat(10))).toEqual([]);
  });

  it('finds a trigger cut in two by a chunk boundary', () => {
    const code = `${'x = 1;'.repeat(20)}localStorage.a = 1;`;
    for (let cut = 1; cut < 140; cut++) expect(ids(scanJs(code, { chunks: [cut, 1000] })), `cut at ${cut}`).toEqual(['browser-storage']);
  });

  it('tokenizes from the start when a trigger only comes late in a file', () => {
    const code = `/*${' '.repeat(100_000)}\nalert(1) */ var s = "${'y'.repeat(50_000)}"; confirm(1);`;
    expect(at(scanJs(code, { chunk: 4096 }))).toEqual(['dialog-call@2:50025']);
  });

  it('stops holding chunks past its limit and still finds everything', () => {
    const filler = Buffer.alloc(HOLD_LIMIT + 1024, 0x20);
    const tail = Buffer.from('\nalert(1);');
    const output = scanWith(jsScanner, 'big.js', Buffer.concat([filler, tail]), { chunk: 1 << 20 });
    expect(output.findings.map((f) => `${f.ruleId}@${f.line}:${f.column}`)).toEqual(['dialog-call@2:1']);
  });
});

describe("Svelte's {@html}, found through the map", () => {
  const sink = rules.find((rule) => rule.id === 'unsafe-html')!.compiled![0]!;
  const siteAt = (source: string) => sink.site(source.replace('|', ''), source.indexOf('|'));

  it('is the value of a {@html} tag given anything but a plain literal or nothing', () => {
    expect(sink.framework.test('node_modules/svelte/src/internal/client/dom/blocks/html.js')).toBe(true);
    expect(sink.framework.test('node_modules/.pnpm/svelte@5.57.3/node_modules/svelte/src/internal/client/dom/blocks/html.js')).toBe(true);
    expect(sink.sources.test('../../src/App.svelte')).toBe(true);
    expect(siteAt('<div>{@html |note}</div>')).toEqual({ sink: '{@html}' });
    expect(siteAt('<div>{@html\n  |marked(note)}</div>')).toEqual({ sink: '{@html}' });
    expect(siteAt("<div>{@html |'<b>x</b>' + note}</div>")).toEqual({ sink: '{@html}' });
    for (const safe of ["{@html |'<b>x</b>'}", '{@html |"<b>x</b>" }', '{@html |`<b>x</b>`}', '{@html |null}', '{@html |undefined}']) expect(siteAt(safe)).toBeUndefined();
    // Anything else of the template is not the value of a {@html}.
    expect(siteAt('<div>{|note}</div>')).toBeUndefined();
    expect(siteAt('<div>{@html note}{|other}</div>')).toBeUndefined();
  });
});

describe("a package's storage turned on in the author's code", () => {
  const entry = rules.find((rule) => rule.id === 'browser-storage')!.entries!.find((candidate) => candidate.package === 'pinia-plugin-persistedstate')!;

  it("is pinia's persist option, unless it is set off", () => {
    for (const on of ['persist: true })', 'persist:!0})', "persist: { key: 'draft' } })", 'persist: [{ pick: [] }]']) expect(entry.at.test(on), on).toBe(true);
    for (const off of ['persist: false })', 'persist: undefined', 'persist: null', 'persisted: true', 'state: () => ({})']) expect(entry.at.test(off), off).toBe(false);
  });
});
