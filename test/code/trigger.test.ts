import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRIGGER_WORDS, TriggerSearch } from '../../src/core/code/trigger.js';

/** The same question asked with a regular expression, as the reference. */
const REFERENCE = new RegExp(`${TRIGGER_WORDS.join('|')}|(?:write(?:ln)?|import|export)(?![\\w$\\u0080-\\uffff])`);

function found(text: string, chunks: number[] = [text.length || 1]): boolean {
  const search = new TriggerSearch();
  const bytes = Buffer.from(text, 'latin1');
  let offset = 0;
  for (let k = 0; offset < bytes.length; k++) {
    const size = chunks[k % chunks.length]!;
    if (search.found(bytes.subarray(offset, offset + size))) return true;
    offset += size;
  }
  return false;
}

describe('the trigger search', () => {
  it.each([...TRIGGER_WORDS, 'write', 'writeln', 'import', 'export'])('finds %s', (word) => {
    expect(found(`x=1;a.${word}(2)`)).toBe(true);
  });

  it('takes write only as a whole name', () => {
    expect(found('a.writer(1); b.writeFile(); rewrites')).toBe(false);
    expect(found('document.write(1)')).toBe(true);
    expect(found('document.writeln(1)')).toBe(true);
    expect(found('a.writelns')).toBe(false);
  });

  it('lets members written in brackets and destructured names through to the tokenizer', () => {
    for (const code of [
      "window['confirm']('b')",
      "const ls = window['sessionStorage']",
      "document['cookie'] = 'a=b'",
      "el['innerHTML'] = x",
      'el[`outerHTML`] = x',
      "document['write'](x)",
      "pipeline['quotes'].addLines([])",
      "window['pipeline'].quotes.update({})",
      'const { quotes: q } = window.pipeline',
      'const { localStorage } = window',
      'const { indexedDB: db } = self',
    ]) {
      expect(found(code), code).toBe(true);
    }
  });

  it('agrees with a regular expression, however the bytes are cut', () => {
    const alphabet = fc.constantFrom(...'pipelinealertconfirmpromptStorageindexedDBcookieHTMLwritelnlineTypeproductIddiscountPercentimportexport .(_$x'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 60 }).map((a) => a.join('')), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }), (text, chunks) => {
        expect(found(text)).toBe(REFERENCE.test(text));
        // At a chunk's end `write` counts as a trigger when unsure, so a cut may only add matches.
        if (REFERENCE.test(text)) expect(found(text, chunks)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees on long chunks, which are read in several runs at once, whatever lies across their seams', () => {
    const filler = fc.constantFrom(...'abcdefghkmnoqsuvxyz .(_$;'.split(''));
    const words = fc.constantFrom(...TRIGGER_WORDS, 'write', 'writeln', 'writer', 'import', 'important', 'export', 'exports', '');
    fc.assert(
      fc.property(fc.integer({ min: 512, max: 6000 }), fc.array(filler, { minLength: 6000, maxLength: 6000 }), words, fc.integer({ min: 1, max: 3 }), fc.integer({ min: -40, max: 40 }), (length, fill, word, seam, shift) => {
        // A word (or a near miss) placed anywhere near a quarter of the chunk, where runs meet.
        const base = fill.join('').slice(0, length);
        const at = Math.max(0, Math.min(length - word.length, ((length >> 2) * seam) + shift));
        const text = base.slice(0, at) + word + base.slice(at + word.length);
        expect(found(text)).toBe(REFERENCE.test(text));
        if (REFERENCE.test(text)) expect(found(text, [1100, 2300])).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
