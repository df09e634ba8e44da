import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapTextOf, parseMapText } from '../../src/core/source-map/map-json.js';

/*
 * A map file's bytes are parsed from their Latin-1 text, and again from their UTF-8 text only when a
 * string the checks read holds a character outside ASCII (src/core/source-map/map-json.ts). Held
 * here against JSON.parse of the UTF-8 text: the same value, or the same refusal, for every byte
 * string, but that an entry of `sourcesContent` outside ASCII is null.
 */

/**
 * What parseMapText should give for `bytes`: JSON.parse of the UTF-8 text; when the bytes are not
 * all ASCII and yet no string outside `sourcesContent` (and no key) holds a character outside
 * ASCII, with those of `sourcesContent` made null.
 */
function expected(bytes: Buffer): { value: unknown } | { refused: true } {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { refused: true };
  }
  const outside = (s: string) => /[\u0080-\uffff]/.test(s);
  const readAscii = (node: unknown): boolean => {
    if (typeof node === 'string') return !outside(node);
    if (typeof node !== 'object' || node === null) return true;
    if (Array.isArray(node)) return node.every(readAscii);
    return Object.entries(node).every(([key, item]) => !outside(key) && (key === 'sourcesContent' && Array.isArray(item) ? true : readAscii(item)));
  };
  // ASCII bytes read the same either way; so does a map whose every other string and key is ASCII.
  if (bytes.every((byte) => byte < 0x80) || !readAscii(value)) return { value };
  const blank = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach(blank);
    for (const [key, item] of Object.entries(node)) {
      if (key === 'sourcesContent' && Array.isArray(item)) item.forEach((content: unknown, i) => typeof content === 'string' && outside(content) && (item[i] = null));
      else blank(item);
    }
  };
  blank(value);
  return { value };
}

function actual(bytes: Buffer): { value: unknown } | { refused: true } {
  try {
    return { value: parseMapText(mapTextOf(bytes)) };
  } catch {
    return { refused: true };
  }
}

/** Strings of every kind: ASCII, other scripts, escapes, bytes that are not UTF-8, bytes of C1 controls. */
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('Loading…', '·', 'é', '\u00e9', '\\u00e9', '\\u2026', 'naïve', '日本', '😀', '\\ud83d\\ude00', ''),
);
const bytesOf = (s: string) => Buffer.from(s, 'utf8');
/** Raw bytes to splice in: lone continuation bytes, cut sequences, C1 controls as Latin-1 reads them, a BOM. */
const rawBytes = fc.constantFrom(
  Buffer.from([0x80]),
  Buffer.from([0xe2, 0x80]),
  Buffer.from([0xc3]),
  Buffer.from([0xff, 0xfe]),
  Buffer.from([0x85]),
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from([0xf0, 0x9f, 0x98]),
);

/** A source map's JSON with strings from `text` wherever a map has them, and `key`s that may be anything. */
const mapJson = fc
  .record({
    sources: fc.array(fc.oneof(text, fc.constant(null)), { maxLength: 4 }),
    sourcesContent: fc.array(fc.oneof(text, fc.constant(null)), { maxLength: 4 }),
    names: fc.array(text, { maxLength: 4 }),
    sourceRoot: text,
    file: text,
    mappings: fc.oneof(fc.constantFrom('AAAA,CAAC;AACA', ''), text),
    extra: fc.dictionary(text, text, { maxKeys: 2 }),
  })
  .map((map) => ({ version: 3, ...map, sections: [{ offset: { line: 0, column: 0 }, map: { version: 3, sources: map.sources, sourcesContent: map.sourcesContent, mappings: map.mappings } }] }));

describe('a map file parsed from its Latin-1 text', () => {
  it('gives what JSON.parse of its UTF-8 text gives, escapes written as \\u or as they are', () => {
    fc.assert(
      fc.property(mapJson, fc.boolean(), (map, escaped) => {
        let json = JSON.stringify(map);
        // JSON.stringify writes characters outside ASCII as they are; a bundler may escape them.
        if (escaped) json = json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        const bytes = bytesOf(json);
        expect(actual(bytes)).toEqual(expected(bytes));
      }),
      { numRuns: 400 },
    );
  });

  it('refuses what JSON.parse refuses, and reads the rest the same, with bytes that are not UTF-8 anywhere', () => {
    fc.assert(
      fc.property(mapJson, fc.array(fc.tuple(fc.nat(), rawBytes), { minLength: 1, maxLength: 3 }), (map, splices) => {
        let bytes = bytesOf(JSON.stringify(map));
        for (const [at, raw] of splices) {
          const i = at % (bytes.length + 1);
          bytes = Buffer.concat([bytes.subarray(0, i), raw, bytes.subarray(i)]);
        }
        expect(actual(bytes)).toEqual(expected(bytes));
      }),
      { numRuns: 600 },
    );
  });

  it('reads a source named outside ASCII as UTF-8, and blanks only the sources text it does not read', () => {
    const map = { version: 3, sources: ['src/Café.tsx', 'src/App.tsx'], sourcesContent: ['const a = "…";', 'plain'], names: [], mappings: 'AAAA' };
    expect(parseMapText(mapTextOf(bytesOf(JSON.stringify(map))))).toEqual(map);
    const ascii = { ...map, sources: ['src/Cafe.tsx', 'src/App.tsx'] };
    expect(parseMapText(mapTextOf(bytesOf(JSON.stringify(ascii))))).toEqual({ ...ascii, sourcesContent: [null, 'plain'] });
    // Text given as text is parsed as it is.
    expect(parseMapText({ json: JSON.stringify(map) })).toEqual(map);
  });

  it('refuses a map that is not JSON, or is cut short, as JSON.parse does', () => {
    for (const json of ['{"version":3,', '{"a":"\u0001"}', '\ufeff{}', '{"a":"…"', 'nul']) {
      const bytes = bytesOf(json);
      expect(actual(bytes), json).toEqual({ refused: true });
      expect(expected(bytes), json).toEqual({ refused: true });
    }
  });
});
