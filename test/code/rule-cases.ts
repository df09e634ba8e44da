/**
 * For every code-check rule: a bundle that breaks it and a near-identical one that does not, plus
 * bundles where the rule's words appear only where they do nothing (a comment, a string, a
 * template's text, a regular expression, an HTML comment…), which must stay silent. Each bundle is
 * the clean tool of test/helpers/bundles.ts with these files added or replaced. The registry
 * meta-test (test/validate/rules.test.ts) reads the ids of this table.
 */
export interface Variant {
  files: Record<string, string>;
  /** Tool type written in the manifest (default: the clean tool's quoting_extension). */
  type?: string;
}

export interface CodeRuleCase {
  bad: Variant;
  good: Variant;
  /** Part of the finding's data that must match. */
  data?: Record<string, unknown>;
  /** Where the finding must point. */
  at?: { file: string; line: number; column: number };
  /** The exact message of that finding. */
  message?: string;
  /** Other ways of writing the mistake that must be found too, with part of the finding's data. */
  alsoBad?: Record<string, Variant & { data?: Record<string, unknown> }>;
  falsePositives: Record<string, Variant>;
}

/** app.js, loaded as a module (so that top-level `await` is valid). */
const js = (code: string, type?: string): Variant => ({
  files: { 'app.js': code, 'index.html': '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><script type="module" src="app.js"></script></body></html>' },
  ...(type ? { type } : {}),
});
const page = (body: string, extra: Record<string, string> = {}): Variant => ({
  files: { 'index.html': `<!doctype html>\n<html><head><link rel="stylesheet" href="styles.css"></head>\n<body>\n${body}\n<script src="app.js"></script></body></html>\n`, ...extra },
});
const PAGE_BODY_LINE = 4;

export const codeRuleCases: Record<string, CodeRuleCase> = {
  'dialog-call': {
    bad: js("document.body.append('ready');\nif (confirm('Delete this line?')) removeLine();\n"),
    good: js("document.body.append('ready');\nshowBanner('Delete this line?', removeLine);\n"),
    data: { name: 'confirm' },
    at: { file: 'app.js', line: 2, column: 5 },
    message: "confirm() does nothing inside the platform's sandboxed frame: no dialog opens and the call returns at once. Show the message or question in the page itself (an inline banner, or a <dialog> element).",
    alsoBad: {
      'member in brackets': { ...js("if (window['confirm']('Delete?')) removeLine();\n"), data: { name: 'confirm' } },
      'member in brackets, as a template literal': { ...js('globalThis[`alert`](message);\n'), data: { name: 'alert' } },
    },
    falsePositives: {
      'line comment': js("// confirm('Delete?') was replaced by the banner\nshowBanner();\n"),
      'block comment': js('/* alert("saved") */ showBanner();\n'),
      string: js('const help = "calling alert(\'x\') does nothing";\n'),
      'template text': js('const tip = `prompt(${name}) is ignored`;\n'),
      'regular expression': js('const re = /alert\\(/g; const x = a / confirm / b;\n'),
      'regular expression after await': js('async function f(s) {\n  const a = await /alert(4)/.exec(s);\n  return a;\n}\n'),
      'regular expression after yield': js('function* g(s) {\n  yield /confirm(1)/.test(s);\n}\n'),
      'another object\'s member in brackets': js("modal['confirm']('x');\n"),
      'method of another object': js("dialog.confirm('x');\nclass Modal { alert(text) { return text; } }\n"),
      'declared by the tool': js("function alert(text) { banner(text); }\nalert('Saved');\n"),
      'HTML comment': page('<!-- <button onclick="alert(1)">Old</button> -->'),
      'inline script string': page('<script>const s = "alert(1)";</script>'),
    },
  },
  'browser-storage': {
    bad: js("const saved = localStorage.getItem('rate');\n"),
    good: js("const saved = await window.pipeline.settings.get('rate');\n"),
    data: { api: 'localStorage' },
    at: { file: 'app.js', line: 1, column: 15 },
    message: "localStorage is not dependable in the platform's sandboxed frame (its origin is opaque): access may throw and what is stored may vanish. Keep tool preferences with pipeline.settings.get and pipeline.settings.set (SDK 2.3.0 and later).",
    alsoBad: {
      'member in brackets': { ...js("const ls = window['sessionStorage'];\n"), data: { api: 'sessionStorage' } },
      'cookie in brackets': { ...js("document['cookie'] = 'a=b';\n"), data: { api: 'document.cookie' } },
      'destructured from window': { ...js('const { localStorage } = window;\n'), data: { api: 'localStorage' } },
    },
    falsePositives: {
      'line comment': js('// localStorage is not dependable here\n'),
      'block comment': js('/* document.cookie */\n'),
      string: js("const key = 'localStorage';\n"),
      'template text': js('const note = `sessionStorage ${x}`;\n'),
      'object key': js('const flags = { localStorage: false, indexedDB: false };\n'),
      'property of another object': js('config.localStorage = true;\n'),
      'destructured from another object': js('const { localStorage, indexedDB: db } = options;\n'),
      'names in an array': js("const apis = ['localStorage', 'indexedDB'];\n"),
    },
  },
  'unsafe-html': {
    bad: js('el.innerHTML = `<b>${customer.name}</b>`;\n'),
    good: js("el.textContent = customer.name;\nel.innerHTML = '<b>Total</b>';\nel.insertAdjacentHTML('beforeend', '<hr>');\n"),
    data: { sink: 'innerHTML' },
    at: { file: 'app.js', line: 1, column: 4 },
    message: `innerHTML is given HTML built at run time. If any part of it comes from data (customer names, notes, product descriptions), it can inject markup or script. Set textContent, build elements with createElement, or escape every interpolated value (& < > " ').`,
    alsoBad: {
      'member in brackets': { ...js("el['innerHTML'] = html;\n"), data: { sink: 'innerHTML' } },
      "React's dangerouslySetInnerHTML, as JSX compiles": { ...js('jsx("div", { dangerouslySetInnerHTML: { __html: note.text } });\n'), data: { sink: 'dangerouslySetInnerHTML' } },
      'dangerouslySetInnerHTML given an object made elsewhere': { ...js('h("div", { dangerouslySetInnerHTML: markup });\n'), data: { sink: 'dangerouslySetInnerHTML' } },
      "Vue's v-html, as its compiler writes it": { ...js('_createElementVNode("div", { innerHTML: _ctx.note }, null, 8, ["innerHTML"]);\n'), data: { sink: 'innerHTML' } },
      'v-html minified': { ...js('Ue("div",{class:"n",innerHTML:t.value},null,8,Ke);\n'), data: { sink: 'innerHTML' } },
      'a <style> made elsewhere in the file': { ...js('function a() { const s = document.createElement("style"); }\nfunction b(s) { s.innerHTML = html; }\n'), data: { sink: 'innerHTML' } },
      'a <script> that runs': { ...js('const s = document.createElement("script");\ns.type = "module";\ns.innerHTML = code;\n'), data: { sink: 'innerHTML' } },
      'an element of another kind': { ...js('let d = document.createElement("div");\nd.innerHTML = html;\n'), data: { sink: 'innerHTML' } },
    },
    falsePositives: {
      "React's dangerouslySetInnerHTML with a literal": js('jsx("div", { dangerouslySetInnerHTML: { __html: "<hr>" } });\n'),
      "Vue's v-html with a literal": js('h("div", { innerHTML: "<hr>" });\n'),
      'cleared with null': js('el.innerHTML = null;\nel.outerHTML = void 0;\nh("div", { innerHTML: undefined });\n'),
      'cleared with an empty string': js("el.innerHTML = '';\n"),
      'CSS given to a <style>': js('const style = document.createElement("style");\nstyle.setAttribute("data-x", id);\nstyle.innerHTML = css;\ndocument.head.appendChild(style);\n'),
      'CSS given to a <style>, minified': js('function f(e){var t=document.createElement("style");return t.type="text/css",t.innerHTML=e,document.head.appendChild(t),t}\n'),
      'data given to a <script type="application/json">': js('const s = document.createElement("script");\ns.type = "application/json";\ns.innerHTML = JSON.stringify(state);\n'),
      'an object key elsewhere': js('const saved = { innerHTML: el.innerHTML };\n'),
      'line comment': js('// el.innerHTML = html;\n'),
      string: js("const doc = 'el.innerHTML = html';\n"),
      'read, not written': js("const html = el.innerHTML;\nif (el.outerHTML === '') reset();\n"),
      'read in brackets': js("const html = el['innerHTML'];\n"),
      'template without values': js('el.innerHTML = `<p>Loading…</p>`;\n'),
    },
  },
  'bridge-tool-type': {
    bad: js('await window.pipeline.quotes.addLines([{ qty: 1, unitPrice: 5, taxRate: 0.15 }]);\n', 'standalone'),
    good: js('await window.pipeline.quotes.addLines([{ qty: 1, unitPrice: 5, taxRate: 0.15 }]);\n', 'quoting_extension'),
    data: { method: 'quotes.addLines', toolType: 'standalone' },
    at: { file: 'app.js', line: 1, column: 7 },
    message: 'pipeline.quotes.addLines only works in a quoting_extension, but manifest.json declares "type": "standalone"; the host rejects the call with an error. Set "type" to "quoting_extension" if the tool is opened from a quote, or use pipeline.quotes.create to make a new quote.',
    alsoBad: {
      'namespace in brackets': { ...js("await pipeline['quotes'].addLines([]);\n", 'standalone'), data: { method: 'quotes.addLines' } },
      'namespace destructured from the bridge': { ...js('const { quotes } = pipeline;\nawait quotes.addLines([]);\n', 'standalone'), data: { method: 'quotes.addLines' } },
    },
    falsePositives: {
      'line comment': js('// window.pipeline.quotes.addLines(lines) needs a quoting extension\n', 'standalone'),
      string: js("const doc = 'pipeline.quotes.addSections(sections)';\n", 'standalone'),
      'feature test without a call': js('const canAdd = Boolean(window.pipeline?.quotes.addSections);\n', 'standalone'),
    },
  },
  'bridge-unknown-method': {
    bad: js('await window.pipeline.quotes.update(id, lines);\n'),
    good: js('await window.pipeline.quotes.create(request);\n'),
    data: { method: 'quotes.update' },
    at: { file: 'app.js', line: 1, column: 7 },
    message: 'pipeline.quotes.update does not exist, so the call throws at run time; did you mean pipeline.quotes.create?',
    alsoBad: {
      'method in brackets': { ...js("await pipeline.quotes['update']({});\n"), data: { method: 'quotes.update' } },
      'namespace destructured under another name': { ...js('const { quotes: q } = window.pipeline;\nawait q.update();\n'), data: { method: 'quotes.update' } },
    },
    falsePositives: {
      'a library variable named pipeline': js('const pipeline = createPipeline();\npipeline.stages.forEach(run);\n'),
      'destructured from another object': js('const { quotes } = api;\nquotes.update();\n'),
      'computed method name': js('await window.pipeline.quotes[method](id);\n'),
      'a property named pipeline': js('this.pipeline.quotes.update();\n'),
      string: js("log('pipeline.quotes.update is gone');\n"),
      'template text': js('log(`pipeline.customer.list(${x})`);\n'),
    },
  },
  'bridge-deprecated': {
    bad: js('const items = await window.pipeline.costItems.list();\n'),
    good: js('const items = await window.pipeline.jobCostTemplates.list();\n'),
    data: { use: 'costItems.list', replacement: 'jobCostTemplates.list' },
    at: { file: 'app.js', line: 1, column: 21 },
    message: 'costItems.list is deprecated (still supported, but superseded): use jobCostTemplates.list instead.',
    falsePositives: {
      'block comment': js('/* pipeline.costItems.list() */\n'),
      string: js('const old = "lineType: \'cost\'";\n'),
      'the current line type': js("lines.push({ lineType: 'jobcost', qty: 1, unitPrice: 5, taxRate: 0.15 });\n"),
      'productId in the tool\'s own records': js('const row = { productId: p.id, name: p.name };\n'),
    },
  },
  'bridge-literal-range': {
    bad: js("await pipeline.quotes.create({\n  customerName: 'A',\n  upsertByEmail: false,\n  lines: [{ qty: 1, unitPrice: 10, taxRate: 15 }],\n});\n"),
    good: js("await pipeline.quotes.create({\n  customerName: 'A',\n  upsertByEmail: false,\n  lines: [{ qty: 1, unitPrice: 10, taxRate: 0.15 }],\n});\n"),
    data: { method: 'quotes.create', field: 'taxRate', value: 15 },
    at: { file: 'app.js', line: 4, column: 36 },
    message: 'taxRate 15 in quotes.create looks like a percentage, but quotes.create takes a fraction: write 0.15 for 15%.',
    falsePositives: {
      'percentage where addLines accepts it': js('await pipeline.quotes.addLines([{ qty: 1, unitPrice: 10, taxRate: 15 }]);\n'),
      'unrelated object': js('const empty = { qty: 0, discountPercent: 150 };\n'),
      comment: js('// pipeline.quotes.create({ lines: [{ qty: 0 }] })\n'),
      'computed value': js('await pipeline.quotes.create({ lines: [{ qty: 0 + n, unitPrice: 1, taxRate: 0.1 }] });\n'),
    },
  },
  'reference-missing': {
    bad: page('<img src="img/Logo.png" alt="">', { 'img/logo.png': 'png' }),
    good: page('<img src="img/logo.png" alt="">', { 'img/logo.png': 'png' }),
    data: { reference: 'img/Logo.png', sameLetters: 'img/logo.png' },
    at: { file: 'index.html', line: PAGE_BODY_LINE, column: 11 },
    message: '"img/Logo.png" refers to img/Logo.png, but the bundle has img/logo.png; names are case-sensitive on the platform. Make the letter case match.',
    alsoBad: {
      'CSS url() with an escape': {
        files: { 'styles.css': 'body { background: url(img\\2f Logo.png); }\n', 'img/logo.png': 'png' },
        data: { reference: 'img/Logo.png', sameLetters: 'img/logo.png' },
      },
    },
    falsePositives: {
      'HTML comment': page('<!-- <script src="old.js"></script> -->'),
      'string in a script': page('<script>const tpl = \'<img src="missing.png">\';</script>'),
      'template script': page('<script type="text/template"><img src="{{logo}}"></script>'),
      'fragment and data URLs': page('<a href="#top">Top</a><img src="data:image/png;base64,AAAA" alt="">'),
      'CSS comment': { files: { 'styles.css': '/* background: url(missing.png); */\nbody { color: red; }\n' } },
      'CSS escapes': {
        files: {
          'styles.css': '@import "base\\2e css";\nbody { background: url(img\\2f logo.png), url("img\\2F\tlogo.png"), url(img\\/logo\\.png); }\n',
          'base.css': '',
          'img/logo.png': 'png',
        },
      },
    },
  },
  'reference-root-absolute': {
    bad: page('<script src="/lib.js"></script>', { 'lib.js': '' }),
    good: page('<script src="lib.js"></script>', { 'lib.js': '' }),
    data: { reference: '/lib.js', suggestion: 'lib.js' },
    at: { file: 'index.html', line: PAGE_BODY_LINE, column: 14 },
    message: `"/lib.js" starts with /, which inside the host means the host's own site, not the bundle, so it will not load. Write "lib.js" instead.`,
    falsePositives: {
      'HTML comment': page('<!-- <script src="/lib.js"></script> -->'),
      'protocol-relative is another rule': page('<img src="//example.com/a.png" alt="">'),
    },
  },
  'reference-insecure': {
    bad: page('<img src="http://example.com/logo.png" alt="">'),
    good: page('<img src="img/logo.png" alt="">', { 'img/logo.png': 'png' }),
    data: { reference: 'http://example.com/logo.png' },
    at: { file: 'index.html', line: PAGE_BODY_LINE, column: 11 },
    message: '"http://example.com/logo.png" uses http:, and the platform is served over https, so the browser blocks it as mixed content. Put the file in the bundle and refer to it by a relative path, or use https:.',
    falsePositives: {
      'HTML comment': page('<!-- <img src="http://example.com/logo.png"> -->'),
      'text of the page': page('<p>See http://example.com for help.</p>'),
      'string in a script': page('<script>const u = "http://example.com/a.js";</script>'),
    },
  },
  'reference-remote': {
    bad: page('<script src="https://cdn.example.com/chart.js"></script>'),
    good: page('<script src="vendor/chart.js"></script>', { 'vendor/chart.js': '' }),
    data: { reference: 'https://cdn.example.com/chart.js', kind: 'script' },
    at: { file: 'index.html', line: PAGE_BODY_LINE, column: 14 },
    message: 'The script "https://cdn.example.com/chart.js" is loaded from another site each time the tool opens: the tool then depends on that site being up and unchanged, breaks offline, and runs code the marketplace never reviewed. Download it into the bundle and refer to it by a relative path.',
    falsePositives: {
      'a link': page('<a href="https://example.com/help" target="_blank">Help</a>'),
      'an image': page('<img src="https://example.com/logo.png" alt="">'),
      preconnect: page('<link rel="preconnect" href="https://fonts.gstatic.com">'),
      'HTML comment': page('<!-- <script src="https://cdn.example.com/chart.js"></script> -->'),
    },
  },
  'json-syntax': {
    bad: { files: { 'data/rates.json': '{\n  "gst": 0.15,\n}\n' } },
    good: { files: { 'data/rates.json': '{\n  "gst": 0.15\n}\n' } },
    at: { file: 'data/rates.json', line: 2, column: 14 },
    message: 'This is not valid JSON: a trailing comma before "}" (JSON does not allow one). JSON.parse and fetch().json() will throw on it.',
    falsePositives: {
      'byte-order mark': { files: { 'data/rates.json': '\ufeff{"gst": 0.15}' } },
      'JSON with awkward but valid content': { files: { 'data/rates.json': '[-0.5e-3, "\\u00e9\\n", {"a": [[], {}]}, true, null]' } },
    },
  },
  'js-syntax': {
    bad: js("const total = lines.reduce((sum, l) => sum + l.qty, 0;\nshowTotal(total);\n"),
    good: js('const total = lines.reduce((sum, l) => sum + l.qty, 0);\nshowTotal(total);\n'),
    data: { message: 'missing ) after argument list' },
    at: { file: 'app.js', line: 1, column: 53 },
    message: 'This script has a syntax error (missing ) after argument list), so the browser refuses the whole file and none of it runs: the tool stays at "Connecting…" or loses what this script does. Fix the code at this position.',
    alsoBad: {
      'inline script': { ...page('<script>\n  let a = 1;\n  let a = 2;\n</script>'), data: { message: "Identifier 'a' has already been declared" } },
      'module syntax in a classic script': { files: { 'app.js': "import { total } from './total.js';\n", 'total.js': 'export const total = 1;\n' }, data: { message: 'Cannot use import statement outside a module' } },
    },
    falsePositives: {
      'module syntax in a module': { files: { ...js("import { total } from './total.js';\nawait total;\n").files, 'total.js': 'export const total = 1;\n' } },
      'byte-order mark and a regular expression': js('\ufeff/a/.test(document.title);\n'),
      'HTML-like comments in a classic script': { files: { 'app.js': '<!-- old browsers\nconst a = 1;\n--> also a comment\n' } },
    },
  },
  'unknown-disable-directive': {
    bad: js("// pipeline-tool-disable-next-line dialog-calls\nalert('x');\n"),
    good: js("// pipeline-tool-disable-next-line dialog-call\nalert('x');\n"),
    data: { ruleId: 'dialog-calls', suggestion: 'dialog-call' },
    at: { file: 'app.js', line: 1, column: 1 },
    message: 'pipeline-tool-disable-next-line names "dialog-calls", which is not a rule, so it silences nothing; did you mean "dialog-call"?',
    falsePositives: {
      'directive-like text in a string': js('const s = "// pipeline-tool-disable-next-line nonsense";\n'),
    },
  },
};
