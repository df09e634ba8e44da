import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cssScanner, decodeCssEscapes } from '../../src/core/code/css-scanner.js';
import { at, ids, scanCss, scanHtml, scanWith } from './helpers.js';

const files = ['index.html', 'app.js', 'styles.css', 'img/logo.png', 'img/icons.svg', 'fonts/a.woff2', 'pages/help.html', 'pages/index.html'];

describe('references in HTML', () => {
  it('resolves relative to the page, strips query and fragment, decodes percent escapes', () => {
    const html = [
      '<img src="img/logo.png?v=2#x">',
      '<img src="./img/../img/logo.png">',
      '<img src="img/log%6F.png">',
      '<use href="img/icons.svg#add"></use>',
      '<a href="pages/">Pages</a>',
    ].join('\n');
    expect(scanHtml(html, { files })).toEqual([]);
    expect(scanHtml('<a href="../index.html">Up</a><img src="../img/logo.png">', { files, path: 'pages/help.html' })).toEqual([]);
  });

  it('reports missing files with the same-letters hint, and paths that climb out', () => {
    const found = scanHtml('<script src="App.js"></script>\n<img src="img/nope.png">\n<img src="../outside.png">', { files });
    expect(found.map((h) => [h.ruleId, h.data])).toEqual([
      ['reference-missing', { reference: 'App.js', resolved: 'App.js', sameLetters: 'app.js' }],
      ['reference-missing', { reference: 'img/nope.png', resolved: 'img/nope.png' }],
      ['reference-missing', { reference: '../outside.png', escapes: true }],
    ]);
  });

  it('checks every loading attribute and leaves the others alone', () => {
    const html = [
      '<link rel="stylesheet" href="a.css">',
      '<link href="b.css" rel="preload" as="style">',
      '<link rel="icon" href="c.png">',
      '<link rel="canonical" href="https://x.example/">',
      '<link rel="alternate" href="feed.xml">',
      '<img srcset="d.png 1x, img/logo.png 2x">',
      '<video poster="e.png"><source src="f.webm"><track src="g.vtt"></video>',
      '<object data="h.svg"></object>',
      '<form action="submit.html"></form>',
      '<div data-src="not-a-reference.png"></div>',
    ].join('\n');
    expect(scanHtml(html, { files }).map((h) => h.data.reference)).toEqual(['a.css', 'b.css', 'c.png', 'd.png', 'e.png', 'f.webm', 'g.vtt', 'h.svg', 'submit.html']);
  });

  it('tells remote code from remote images, and http from https', () => {
    const html = [
      '<script src="https://cdn.example/a.js"></script>',
      '<link rel="stylesheet" href="//cdn.example/b.css">',
      '<link rel="modulepreload" href="https://cdn.example/c.js">',
      '<img src="https://cdn.example/d.png">',
      '<img src="HTTP://cdn.example/e.png">',
      '<a href="http://example.com">old site</a>',
      '<a href="mailto:x@example.com">mail</a><img src="blob:abc"><iframe src="about:blank"></iframe>',
      '<img src="/img/logo.png">',
    ].join('\n');
    expect(scanHtml(html, { files }).map((h) => `${h.ruleId} ${h.line}`)).toEqual([
      'reference-remote 1',
      'reference-remote 2',
      'reference-remote 3',
      'reference-insecure 5',
      'reference-insecure 6',
      'reference-root-absolute 8',
    ]);
    expect(scanHtml('<img src="/img/logo.png">', { files, path: 'pages/help.html' })[0]!.data).toEqual({ reference: '/img/logo.png', suggestion: '../img/logo.png' });
  });

  it('ignores template placeholders, fragments and empty values', () => {
    expect(scanHtml('<img src="{{ logo }}"><img src="${x}"><a href="#">x</a><img src=""><img src>', { files })).toEqual([]);
  });

  it('reads unquoted and single-quoted values, entities and odd spacing', () => {
    const html = "<img src=img/nope1.png><img src = 'img/nope2.png' ><IMG SRC=\"img/n&#111;pe3.png\"/><img\nsrc=\"img/nope4.png&amp;\">";
    expect(scanHtml(html, { files }).map((h) => h.data.reference)).toEqual(['img/nope1.png', 'img/nope2.png', 'img/nope3.png', 'img/nope4.png&']);
  });
});

describe('scripts in HTML', () => {
  it('scans inline scripts with the page\'s positions', () => {
    const html = '<!doctype html>\n<script>\n  const x = 1;\n  alert(x);\n</script>\n<p>alert(2)</p>';
    expect(at(scanHtml(html, { files }))).toEqual(['dialog-call@4:3']);
  });

  it('scans on* handlers and javascript: links, decoding entities', () => {
    const html = '<button onclick="if (confirm(&quot;Sure?&quot;)) go()">Go</button>\n<a href="javascript:alert(1)">x</a>';
    expect(at(scanHtml(html, { files }))).toEqual(['dialog-call@1:22', 'dialog-call@2:21']);
  });

  it('skips the text of scripts with src and of non-JavaScript types', () => {
    const html = [
      '<script src="app.js">alert(1)</script>',
      '<script type="text/template"><p onclick="alert(2)">${x}</p></script>',
      '<script type="text/x-handlebars">{{alert 3}}</script>',
    ].join('\n');
    expect(scanHtml(html, { files })).toEqual([]);
  });

  it('shares the declarations of classic scripts with the page, and keeps a module\'s its own', () => {
    const classic = '<script>const p = window.pipeline;</script>\n<script type="module">p.quotes.update();</script>';
    expect(at(scanHtml(classic, { files }))).toEqual(['bridge-unknown-method@2:23']);
    const module = '<script type="module">const p = window.pipeline;</script>\n<script>p.quotes.update();</script>';
    expect(at(scanHtml(module, { files }))).toEqual([]);
  });

  it('checks JSON script blocks', () => {
    const html = '<script type="importmap">\n{ "imports": { "a": "./a.js", } }\n</script>';
    expect(scanHtml(html, { files }).map((h) => `${h.ruleId}@${h.line}:${h.column}`)).toEqual(['json-syntax@2:29']);
  });

  it('finds the end of a script only at a real </script>', () => {
    const html = "<script>var s = '</scripty>'; var t = '</SCRIPT'\n</script  >\n<script>alert(1)</script>";
    // The first script ends at `</SCRIPT` + line break, as in a browser; the second is read.
    expect(ids(scanHtml(html, { files }))).toEqual(['dialog-call']);
  });

  it('gives the same findings for any split into chunks', () => {
    const html = [
      '<!doctype html><!-- pipeline-tool-disable-next-line reference-missing -->',
      '<img src="gone.png"><link rel=stylesheet href="https://x.example/a.css">',
      "<script>var s = '</scr' + 'ipt>'; if (confirm('x')) localStorage.a = 1;</script>",
      '<style>body { background: url("img/none.png") } /* url(x.png) */</style>',
      '<div style="background-image: url(img/missing.png)" onclick="alert(1)"></div>',
      '<script type="application/json">{"a": [1, 2,]}</script>',
    ].join('\n');
    const whole = scanHtml(html, { files });
    expect(at(whole).sort()).toEqual([
      'browser-storage@3:53',
      'dialog-call@3:39',
      'dialog-call@5:62',
      'json-syntax@6:44',
      'reference-missing@2:11',
      'reference-missing@4:32',
      'reference-missing@5:35',
      'reference-remote@2:48',
    ]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 10 }), (chunks) => {
        expect(scanHtml(html, { files, chunks })).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });
});

describe('CSS', () => {
  it('finds url() and @import, relative to the stylesheet', () => {
    const css = [
      '@import "base.css";',
      '@import url(https://fonts.example/f.css);',
      '.a { background: url( "../img/logo.png" ) }',
      ".b { background: URL('../img/nope.png') }",
      '.c { src: url(../fonts/a.woff2) format("woff2"), url(http://x.example/f.woff2) }',
      '.d { mask: url(#clip); filter: url(data:image/svg+xml;utf8,<svg/>) }',
      '.e::after { content: "url(not-one.png)" } /* url(nor-this.png) */',
      '.f { background: myurl(x.png) }',
    ].join('\n');
    expect(scanCss(css, { files, path: 'css/site.css' }).map((h) => `${h.ruleId} ${h.line}:${h.column} ${String(h.data.reference)}`)).toEqual([
      'reference-missing 1:10 base.css',
      'reference-remote 2:13 https://fonts.example/f.css',
      'reference-missing 4:23 ../img/nope.png',
      'reference-insecure 5:54 http://x.example/f.woff2',
    ]);
  });

  it('gives the same findings for any split into chunks', () => {
    const css = '@IMPORT "a.css";\n/* url(x) */ .a{background:url(b.png)} .b{x:"url(c)";y:Url( \'d.png\' )}\n@media print{.c{background:url(http://e/f.png)}} .d{mask:myurl(g)}';
    const whole = scanCss(css, { files });
    expect(whole.map((h) => h.data.reference)).toEqual(['a.css', 'b.png', 'd.png', 'http://e/f.png']);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 8 }), (chunks) => {
        expect(scanCss(css, { files, chunks })).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a stylesheet whose only reference is in image-set(), or whose only comment is a directive', () => {
    expect(ids(scanCss('.a { background: image-set("img/none.png" 1x); }', { files }))).toEqual(['reference-missing']);
    expect(ids(scanCss('.a { background: -WEBKIT-IMAGE-SET("img/none.png" 1x); }', { files }))).toEqual(['reference-missing']);
    const directive = scanWith(cssScanner, 'styles.css', '/* pipeline-tool-disable-next-line no-such-rule */\n.a { color: red }');
    expect(directive.directives.map((d) => d.ruleIds)).toEqual([['no-such-rule']]);
  });

  it('finds url( cut by a chunk boundary in a stylesheet that has nothing else', () => {
    const css = `${'.a{color:red}'.repeat(10)}.b{background:url(none.png)}`;
    for (let cut = 1; cut < css.length; cut += 3) expect(scanCss(css, { files, chunks: [cut, 4096] }).map((h) => h.ruleId), `cut at ${cut}`).toEqual(['reference-missing']);
  });

  it('decodes CSS escapes before resolving a reference', () => {
    const escaped = ['img/a b.png', 'img/x.png', 'css/theme.css'];
    const css = [
      '@import "css\\2f theme.css";',
      "@import url('css\\00002Ftheme.css');",
      '.a { background: url(img\\2f x.png) }',
      '.b { background: url(img\\2F\tx.png) }',
      '.c { background: url("img\\2f x.png") }',
      '.d { background: url(img\\/x\\.png) }',
      '.e { background: url(img/a\\ b.png) }',
      '.f { background: url("img/\\\nx.png") }',
      '.g { background: url(img\\2fy.png) }',
      '.h { background: url(img/x\\).png) }',
      '.i { background: url(img\\2f\r\nx.png) }',
    ].join('\n');
    expect(scanCss(css, { files: escaped }).map((h) => `${h.line} ${String(h.data.reference)}`)).toEqual(['10 img/y.png', '11 img/x).png']);
    for (let cut = 1; cut < css.length; cut += 7) {
      expect(scanCss(css, { files: escaped, chunks: [cut, 4096] }).map((h) => h.data.reference), `cut at ${cut}`).toEqual(['img/y.png', 'img/x).png']);
    }
  });

  it('decodes the escapes of a url() in a style attribute and a style element too', () => {
    const html = '<div style="background: url(img\\2f x.png)"></div><style>.a { background: url(img\\2f y.png) }</style>';
    expect(scanHtml(html, { files: ['img/x.png'] }).map((h) => h.data.reference)).toEqual(['img/y.png']);
  });

  it.each([
    ['plain', 'plain'],
    ['a\\2f b', 'a/b'],
    ['a\\2fb', 'a\u02fb'],
    ['\\1F600 !', '\u{1F600}!'],
    ['\\0 x', '\ufffd' + 'x'],
    ['\\d800', '\ufffd'],
    ['\\110000', '\ufffd'],
    ['\\10fffF7', '\u{10FFFF}7'],
    ['a\\\nb', 'ab'],
    ['\\"q\\\\', '"q\\'],
  ])('decodeCssEscapes(%j) is %j', (text, decoded) => {
    expect(decodeCssEscapes(text)).toBe(decoded);
  });

  it('honours directives in CSS comments', () => {
    const output = scanCss('/* pipeline-tool-disable-next-line reference-missing */\n.a { background: url(none.png) }', { files });
    expect(ids(output)).toEqual(['reference-missing']); // silenced later, by validate
  });
});

describe('markup that never runs as it stands', () => {
  it('reads no code in a <template>, and still checks its references', () => {
    const html = [
      '<template id="row">',
      '  <tr onclick="alert(1)"><td><img src="img/missing.png"><a href="javascript:confirm(2)">x</a></td></tr>',
      '  <script>alert(3); window.pipeline.quotes.update(); syntax error here(</script>',
      '  <script type="application/json">{ not json</script>',
      '  <style>.a { background: url(img/gone.png) }</style>',
      '  <iframe srcdoc="<img src=nope.png><script>prompt(4)</script>"></iframe>',
      '  <template><button onclick="alert(5)"></button></template>',
      '  <button onclick="alert(6)"><img src="img/logo.png"></button>',
      '</template >',
      '<button onclick="alert(7)">live</button>',
    ].join('\n');
    expect(at(scanHtml(html, { files }))).toEqual(['reference-missing@2:40', 'reference-missing@5:31', 'reference-missing@6:28', 'dialog-call@10:18']);
  });

  it('an end tag of raw text written with a space or a slash before its > does not close a <template>', () => {
    const html = [
      '<template><template></template><style>a{}</style ><script>alert(1)</script></template>',
      '<template><template></template><textarea>x</textarea/><script>alert(2)</script></template>',
      '<button onclick="alert(3)"></button>',
    ].join('\n');
    expect(at(scanHtml(html, { files }))).toEqual(['dialog-call@3:18']);
  });

  it('reads no code in a <noscript> or a script of a non-JavaScript type', () => {
    const html = [
      '<noscript><img src="img/missing.png"><button onclick="alert(1)"></button><script>alert(2)</script></noscript>',
      '<script type="text/plain">alert(3); not( valid</script>',
      '<script type="text/x-template"><button onclick="alert(4)"></button></script>',
      '<button onclick="alert(5)"></button>',
    ].join('\n');
    expect(at(scanHtml(html, { files }))).toEqual(['dialog-call@4:18']);
  });

  it('gives the same findings for any split into chunks', () => {
    const html = '<template><b onclick="alert(1)"></b><img src="x.png"></template></TEMPLATE><i onclick="alert(2)"></i><template><script>alert(3)</script></template>';
    const whole = at(scanHtml(html, { files }));
    expect(whole).toEqual(['reference-missing@1:47', 'dialog-call@1:88']);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 }), (chunks) => {
        expect(at(scanHtml(html, { files, chunks }))).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });
});

describe('an inline module keeps its declarations to itself', () => {
  it("does not hide the real confirm() and alert() from the page's handlers", () => {
    const html = [
      '<script type="module">',
      "  import { alert } from './app.js';",
      '  function confirm(text) { return true; }',
      '  if (confirm("x")) alert("y");',
      '</script>',
      '<button onclick="if (confirm(\'Delete?\')) remove()">Delete</button>',
      '<button onclick="alert(\'Saved\')">Save</button>',
    ].join('\n');
    expect(at(scanHtml(html, { files }))).toEqual(['dialog-call@6:22', 'dialog-call@7:18']);
  });

  it("sees the page's classic declarations, and its own aliases end with it", () => {
    const html = [
      '<script>function alert(m) { console.log(m); }</script>',
      '<script type="module">alert(1); const p = window.pipeline; p.quotes.update();</script>',
      '<script>p.quotes.update(); alert(2);</script>',
    ].join('\n');
    expect(at(scanHtml(html, { files }))).toEqual(['bridge-unknown-method@2:60']);
  });
});
