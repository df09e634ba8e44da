import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCssEscapes } from '../../src/core/code/css-scanner.js';
import { at, ids, scanCss, scanHtml } from './helpers.js';

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

  it('runs module scripts and shares declarations between a page\'s scripts', () => {
    const html = '<script type="module">const p = window.pipeline;</script>\n<script>p.quotes.update();</script>';
    expect(at(scanHtml(html, { files }))).toEqual(['bridge-unknown-method@2:9']);
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
