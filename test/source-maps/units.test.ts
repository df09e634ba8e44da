import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapReferenceOf } from '../../src/core/source-map/map-reference.js';
import { silencedLines, sourceDirectives } from '../../src/core/source-map/source-directives.js';
import { codePointColumn, lineStartsOf, utf16Offset } from '../../src/core/source-map/source-placer.js';

describe('the map comment of a built file', () => {
  it.each([
    ['a linked map', 'a();\n//# sourceMappingURL=index.js.map\n', 'assets/index.js', { kind: 'file', path: 'assets/index.js.map' }],
    ['the legacy //@ form, trailing blank lines', 'a();\n//@ sourceMappingURL=x.map\n\n\n', 'x.js', { kind: 'file', path: 'x.map' }],
    ['a stylesheet', 'a{b:c}\n/*# sourceMappingURL=theme.css.map */\n', 'assets/theme.css', { kind: 'file', path: 'assets/theme.css.map' }],
    ['a map in a subfolder, percent-encoded, with a query', 'a();\n//# sourceMappingURL=maps/my%20app.js.map?v=3#x\n', 'assets/app.js', { kind: 'file', path: 'assets/maps/my app.js.map' }],
    ['a map one folder up, still in the bundle', 'a();\n//# sourceMappingURL=../maps/app.js.map\n', 'assets/app.js', { kind: 'file', path: 'maps/app.js.map' }],
    ['a debugId line after the comment', 'a();\n//# sourceMappingURL=app.js.map\n//# debugId=1234\n', 'app.js', { kind: 'file', path: 'app.js.map' }],
    ['no comment', 'a();\n', 'app.js', { kind: 'none' }],
    ['the words inside the code, not a comment of their own', 'var s = "//# sourceMappingURL=" + url;\nb();\n', 'app.js', { kind: 'none' }],
    ['a comment too far from the end', 'a();\n//# sourceMappingURL=app.js.map\nb();\nc();\nd();\n', 'app.js', { kind: 'none' }],
    ['out of the bundle', 'a();\n//# sourceMappingURL=../../secret.map\n', 'assets/app.js', { kind: 'unusable' }],
    ['encoded dots that climb out', 'a();\n//# sourceMappingURL=%2e%2e/%2e%2e/secret.map\n', 'assets/app.js', { kind: 'unusable' }],
    ['a path from the site root', 'a();\n//# sourceMappingURL=/assets/app.js.map\n', 'assets/app.js', { kind: 'unusable' }],
    ['another site', 'a();\n//# sourceMappingURL=https://example.com/app.js.map\n', 'app.js', { kind: 'unusable' }],
    ['a file: URL', 'a();\n//# sourceMappingURL=file:///etc/passwd\n', 'app.js', { kind: 'unusable' }],
    ['a backslash', 'a();\n//# sourceMappingURL=..\\\\secret.map\n', 'app.js', { kind: 'unusable' }],
    ['bad percent-encoding', 'a();\n//# sourceMappingURL=%E0%A4%A.map\n', 'app.js', { kind: 'unusable' }],
    ['an encoded control character', 'a();\n//# sourceMappingURL=a%0Ab.map\n', 'app.js', { kind: 'unusable' }],
    ['white space around the comment', 'a();\n  //#  sourceMappingURL=app.js.map  \n', 'app.js', { kind: 'file', path: 'app.js.map' }],
    ['a stylesheet comment with white space inside', 'a{b:c}\n /*@ sourceMappingURL=a.css.map*/ \n', 'a.css', { kind: 'file', path: 'a.css.map' }],
    ['the comment as the whole text, no line break', '//# sourceMappingURL=app.js.map', 'app.js', { kind: 'file', path: 'app.js.map' }],
    ['a comment the third line from the end', 'a();\n//# sourceMappingURL=app.js.map\nb();\n\nc();\n', 'app.js', { kind: 'file', path: 'app.js.map' }],
    ['code before the comment on its line', 'a(); //# sourceMappingURL=app.js.map\n', 'app.js', { kind: 'none' }],
    ['code after a stylesheet comment on its line', '/*# sourceMappingURL=a.css.map */ a{b:c}\n', 'a.css', { kind: 'none' }],
    ['the folder the file is in', 'a();\n//# sourceMappingURL=.\n', 'app.js', { kind: 'unusable' }],
    ['the folder above, with no slash after it', 'a();\n//# sourceMappingURL=..\n', 'app.js', { kind: 'unusable' }],
    ['a folder and back', 'a();\n//# sourceMappingURL=maps/..\n', 'app.js', { kind: 'unusable' }],
    ['nothing before the query', 'a();\n//# sourceMappingURL=?v=1\n', 'app.js', { kind: 'unusable' }],
    ['code after the comment, on the only line', '//# sourceMappingURL=app.js.map x', 'app.js', { kind: 'none' }],
    ['lines of white space after the comment', 'a();\n//# sourceMappingURL=app.js.map\n  \n\t\n \n', 'app.js', { kind: 'file', path: 'app.js.map' }],
    ['a colon inside the path', 'a();\n//# sourceMappingURL=maps/a:b.map\n', 'app.js', { kind: 'file', path: 'maps/a:b.map' }],
    ['a name that holds data: after a comma', 'a();\n//# sourceMappingURL=x,data:y.map\n', 'app.js', { kind: 'file', path: 'x,data:y.map' }],
    ['nothing before the query, from a folder', 'a();\n//# sourceMappingURL=?v=1\n', 'assets/app.js', { kind: 'unusable' }],
    ['a path from the site root, with a backslash', 'a();\n//# sourceMappingURL=\\\\app.js.map\n', 'app.js', { kind: 'unusable' }],
  ])('%s', (_name, text, file, expected) => {
    expect(mapReferenceOf(text, file)).toEqual(expected);
  });

  it('reads an inline map, base64 or percent-encoded, and refuses other data', () => {
    const json = '{"version":3,"sources":["é.ts"],"mappings":""}';
    expect(mapReferenceOf(`a();\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(json).toString('base64')}\n`, 'a.js')).toEqual({ kind: 'inline', json });
    expect(mapReferenceOf(`a();\n//# sourceMappingURL=data:application/json,${encodeURIComponent(json)}\n`, 'a.js')).toEqual({ kind: 'inline', json });
    expect(mapReferenceOf('a();\n//# sourceMappingURL=data:text/html,<b>x</b>\n', 'a.js')).toEqual({ kind: 'unusable' });
    expect(mapReferenceOf('a();\n//# sourceMappingURL=data:application/json;base64\n', 'a.js')).toEqual({ kind: 'unusable' });
  });

  it('reads an inline map of any case, with no media type or as plain text; not one whose percent-encoding is broken', () => {
    const json = '{"version":3}';
    const base64 = Buffer.from(json).toString('base64');
    expect(mapReferenceOf(`//# sourceMappingURL=DATA:Application/JSON;BASE64,${base64}\n`, 'a.js')).toEqual({ kind: 'inline', json });
    expect(mapReferenceOf(`//# sourceMappingURL=data:;base64,${base64}\n`, 'a.js')).toEqual({ kind: 'inline', json });
    expect(mapReferenceOf(`//# sourceMappingURL=data:text/plain;base64,${base64}\n`, 'a.js')).toEqual({ kind: 'inline', json });
    expect(mapReferenceOf(`//# sourceMappingURL=data:,${encodeURIComponent(json)}\n`, 'a.js')).toEqual({ kind: 'inline', json });
    expect(mapReferenceOf('//# sourceMappingURL=data:application/json,%E0%A4%A\n', 'a.js')).toEqual({ kind: 'unusable' });
    expect(mapReferenceOf(`//# sourceMappingURL=data:image/png;base64,${base64}\n`, 'a.js')).toEqual({ kind: 'unusable' });
  });
});

describe('disable comments in an original source', () => {
  const targets = (text: string) => sourceDirectives(text, 'src/App.vue').map(({ line, column, target, ruleIds }) => ({ line, column, target, ruleIds }));

  it('reads line comments, block comments, JSX comments and template comments', () => {
    const text = [
      '<template>',
      '  <!-- pipeline-tool-disable-next-line unsafe-html -->',
      '  <div v-html="raw"></div>',
      '</template>',
      '<script setup lang="ts">',
      '// pipeline-tool-disable-next-line browser-storage, dialog-call -- legacy',
      "const a = localStorage.getItem('a');",
      '/** pipeline-tool-disable-next-line */',
      'alert(a);',
      'const view = (',
      '  <p>',
      '    {/* pipeline-tool-disable-next-line unsafe-html */}',
      '    <b dangerouslySetInnerHTML={{ __html: a }} />',
      '  </p>',
      ');',
      '/*',
      ' * pipeline-tool-disable-next-line browser-storage',
      ' */',
      'sessionStorage.clear();',
      '</script>',
    ].join('\r\n');
    expect(targets(text)).toEqual([
      { line: 2, column: 3, target: 3, ruleIds: ['unsafe-html'] },
      { line: 6, column: 1, target: 7, ruleIds: ['browser-storage', 'dialog-call'] },
      { line: 8, column: 1, target: 9, ruleIds: [] },
      { line: 12, column: 6, target: 13, ruleIds: ['unsafe-html'] },
      { line: 16, column: 1, target: 19, ruleIds: ['browser-storage'] },
    ]);
  });

  it('ignores the words where they do not start a comment', () => {
    const text = [
      "const s = 'pipeline-tool-disable-next-line browser-storage';",
      'localStorage.clear();',
      '// note: pipeline-tool-disable-next-line browser-storage',
      'localStorage.clear();',
      '// pipeline-tool-disable-next-lines browser-storage',
      'localStorage.clear();',
      '//',
      'pipeline-tool-disable-next-line;',
    ].join('\n');
    expect(targets(text)).toEqual([]);
  });

  it('counts the comment\u2019s column in characters, past an emoji before it on its line', () => {
    expect(targets('const a = "\u{1F600}"; // pipeline-tool-disable-next-line browser-storage\nlocalStorage.clear();\n')).toEqual([
      { line: 1, column: 16, target: 2, ruleIds: ['browser-storage'] },
    ]);
  });

  it('reads a block comment left open to the end of the file, and one that ends on a later line', () => {
    expect(targets('a();\n/* pipeline-tool-disable-next-line dialog-call')).toEqual([{ line: 2, column: 1, target: 3, ruleIds: ['dialog-call'] }]);
    expect(targets('/* pipeline-tool-disable-next-line\n   dialog-call */\nalert(1);\n')).toEqual([{ line: 1, column: 1, target: 3, ruleIds: ['dialog-call'] }]);
  });

  it('reads a directive right after the opener, and counts its column from its own line, past an emoji on a line above', () => {
    expect(targets('const a = "\u{1F600}";\n  //pipeline-tool-disable-next-line browser-storage\nlocalStorage.clear();\n')).toEqual([
      { line: 2, column: 3, target: 3, ruleIds: ['browser-storage'] },
    ]);
    expect(targets('"\u{1F600}";\n  // pipeline-tool-disable-next-line browser-storage\nlocalStorage.clear();\n')).toEqual([
      { line: 2, column: 3, target: 3, ruleIds: ['browser-storage'] },
    ]);
    // The emoji at the file's very start: counted from the file rather than the line, column 3 would read as 2.
    expect(targets('\u{1F600};\n  // pipeline-tool-disable-next-line browser-storage\nlocalStorage.clear();\n')).toEqual([
      { line: 2, column: 3, target: 3, ruleIds: ['browser-storage'] },
    ]);
  });

  it('finds every comment in a file, the first at its very start and the last at its very end', () => {
    expect(targets('// pipeline-tool-disable-next-line\na();\n// pipeline-tool-disable-next-line dialog-call')).toEqual([
      { line: 1, column: 1, target: 2, ruleIds: [] },
      { line: 3, column: 1, target: 4, ruleIds: ['dialog-call'] },
    ]);
  });

  it('is quick to say nothing for a file without the words', () => {
    expect(sourceDirectives('x'.repeat(1_000_000), 'big.ts')).toEqual([]);
  });
});

describe('the lines disable comments silence', () => {
  const directive = (file: string, target: number, ruleIds: string[]) => ({ file, line: target - 1, column: 1, target, ruleIds });

  it('by line and file: the rules named, gathered from every comment on the same line; all rules for a comment that names none', () => {
    const silenced = silencedLines([
      directive('a.ts', 2, ['browser-storage']),
      directive('a.ts', 2, ['dialog-call', 'browser-storage']),
      directive('b.ts', 2, ['unsafe-html']),
      directive('a.ts', 5, []),
      directive('a.ts', 5, ['dialog-call']),
      directive('a.ts', 7, ['dialog-call']),
      directive('a.ts', 7, []),
    ]);
    expect([...silenced.keys()]).toEqual(['2:a.ts', '2:b.ts', '5:a.ts', '7:a.ts']);
    expect([...(silenced.get('2:a.ts') as Set<string>)].sort()).toEqual(['browser-storage', 'dialog-call']);
    expect([...(silenced.get('2:b.ts') as Set<string>)]).toEqual(['unsafe-html']);
    expect(silenced.get('5:a.ts')).toBe('all');
    expect(silenced.get('7:a.ts')).toBe('all');
  });
});

describe('columns between characters and UTF-16 units', () => {
  const line = 'a😀b😀c';
  it('converts both ways past surrogate pairs', () => {
    expect([1, 2, 3, 4, 5].map((column) => utf16Offset(line, column))).toEqual([0, 1, 3, 4, 6]);
    expect([0, 1, 3, 4, 6].map((offset) => codePointColumn(line, offset))).toEqual([1, 2, 3, 4, 5]);
  });
  it('takes as a pair only a high surrogate (D800 to DBFF) then a low one (DC00 to DFFF), at the edges of both ranges', () => {
    const pairs = '\uD800\uDC00\uDBFF\uDFFF';
    expect(codePointColumn(pairs, 4)).toBe(3);
    expect(utf16Offset(pairs, 3)).toBe(4);
    // Not pairs: a low surrogate first, a high one after a high one, a character below or above the ranges.
    for (const line of ['\uDC00\uD800', '\uD800\uD800', '\uD7FF\uDC00', '\uDC00\uDC00', '\uD800\uE000']) expect(codePointColumn(line, 2)).toBe(3);
  });

  it('counts on past the end of a line with a character outside the BMP', () => {
    expect(utf16Offset('\u{1F600}a', 9)).toBe(3);
    expect(codePointColumn('\u{1F600}a', 5)).toBe(5);
    expect(codePointColumn('\u{1F600}a', 3)).toBe(3);
  });
  it('keeps plain text as it is, and clamps past the end', () => {
    expect(utf16Offset('abc', 2)).toBe(1);
    expect(codePointColumn('abc', 2)).toBe(3);
    expect(utf16Offset('abc', 99)).toBe(3);
  });
});

describe('where lines start', () => {
  it.each([
    ['LF', 'a\nbc\n\nd', [0, 2, 5, 6]],
    ['CRLF', 'a\r\nbc\r\n', [0, 3, 7]],
    ['a lone CR', 'a\rbc\r', [0, 2, 5]],
    ['all three mixed', 'a\r\nb\rc\nd', [0, 3, 5, 7]],
    ['one long line', `${'x'.repeat(100_000)}\n`, [0, 100_001]],
    ['no line break', 'abc', [0]],
    ['nothing', '', [0]],
    ['a break first', '\nab\n', [0, 1, 4]],
    ['a CR first, then an LF later', '\rab\nc', [0, 1, 4]],
    ['an LF first, then a CR later', '\nab\rc', [0, 1, 4]],
  ])('%s', (_name, text, starts) => {
    expect(lineStartsOf(text)).toEqual(starts);
  });

  it('as a reading of every character finds them, in any mix of breaks', () => {
    /** The plain way: one character at a time, CRLF as one break. */
    const reference = (text: string) => {
      const starts = [0];
      for (let i = 0; i < text.length; i++) {
        if (text[i] === '\r' && text[i + 1] === '\n') i++;
        if (text[i] === '\n' || text[i] === '\r') starts.push(i + 1);
      }
      return starts;
    };
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', '\n', '\r', '\r\n'), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        expect(lineStartsOf(text)).toEqual(reference(text));
      }),
      { numRuns: 500 },
    );
  });
});
