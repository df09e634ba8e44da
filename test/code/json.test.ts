import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonChecker } from '../../src/core/code/json-scanner.js';
import { at, scanJson } from './helpers.js';

function accepts(text: string, chunk?: number): boolean {
  const checker = new JsonChecker();
  const bytes = Buffer.from(text);
  const size = chunk ?? Math.max(1, bytes.length);
  for (let i = 0; i < bytes.length; i += size) checker.write(bytes.subarray(i, i + size));
  return checker.end(true) === undefined;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('json-syntax', () => {
  it.each([
    // At the comma itself, not at the bracket after it.
    ['{"a": 1,}', 1, 8, 'trailing comma'],
    ['[1, 2,]', 1, 6, 'trailing comma'],
    ['{\n  "a": [\n    1,\n  ],\n}', 3, 6, 'trailing comma'],
    ["{'a': 1}", 1, 2, 'single quotes'],
    ['{"a": 1} // note', 1, 10, 'comment'],
    ['{"a": 01}', 1, 8, 'leading zero'],
    ['{"a": "line\nbreak"}', 1, 12, 'control character'],
    ['{"a": "\\x"}', 1, 9, 'not a JSON escape'],
    ['{"a": tru}', 1, 10, '"tru'],
    ['{"a" 1}', 1, 6, '":"'],
    ['{"a": [1, 2}', 1, 12, '"]"'],
    ['', 1, 1, 'empty'],
    ['  \n', 2, 1, 'empty'],
    ['{"a": 1', 1, 8, 'ends before'],
    ['[1] [2]', 1, 5, 'after the end'],
    ['{"é": 1,\n "€": x}', 2, 7, 'value was expected'],
  ])('%j', (text, line, column, detail) => {
    const found = scanJson(text);
    expect(at(found)).toEqual([`json-syntax@${line}:${column}`]);
    expect(String(found[0]!.data.detail)).toContain(detail);
  });

  it('accepts a byte-order mark and every kind of value', () => {
    expect(scanJson(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": [1.5e-3, -0, true, false, null, "\\u00e9"]}')]))).toEqual([]);
  });

  it('says nothing about a file that was not read to its end', () => {
    expect(scanJson('{"a": [1, 2', { complete: false })).toEqual([]);
  });

  it('agrees with JSON.parse on arbitrary JSON and on damaged JSON, whatever the chunks', () => {
    fc.assert(
      fc.property(fc.json(), fc.integer({ min: 1, max: 17 }), (text, chunk) => {
        expect(accepts(text, chunk)).toBe(true);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', '/', ' ', '0', '-', 'e', '.', '\\', 'x', '\n'), fc.integer({ min: 1, max: 9 }), (json, position, insert, chunk) => {
        const cut = position % (json.length + 1);
        const text = json.slice(0, cut) + insert + json.slice(cut + (position % 2));
        expect(accepts(text, chunk)).toBe(parses(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('large JSON files', () => {
  it('stream through the checker past the parse limit, with the error located', async () => {
    const { PARSE_LIMIT } = await import('../../src/core/code/json-scanner.js');
    const body = `[${'"x",'.repeat(PARSE_LIMIT / 4)}\n"x",]`;
    expect(at(scanJson(body, { chunk: 65536 }))).toEqual(['json-syntax@2:4']);
    expect(scanJson(`[${'"x",'.repeat(PARSE_LIMIT / 4)}"x"]`, { chunk: 65536 })).toEqual([]);
  });
});
