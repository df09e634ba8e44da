import { describe, expect, it } from 'vitest';
import { describeJsonError, scanKeys } from '../../src/core/manifest/json-position.js';

describe('describeJsonError points at the mistake', () => {
  it.each([
    ['{\n  "name": "K",\n  "oops"\n}', 4, 1, 'expected ":"'],
    ['{\n  "a": 1,\n}', 3, 1, 'trailing comma'],
    ['{"a": 1 // note\n}', 1, 9, 'comments'],
    ["{'a': 1}", 1, 2, 'property name'],
    ['{"a": [1, 2,]}', 1, 13, 'trailing comma'],
    ['{"a": "line\nbreak"}', 1, 12, 'line break'],
    ['{"a": tru}', 1, 7, 'unexpected'],
    ['{"a": 1} x', 1, 10, 'after the end'],
    ['{"a": "\\q"}', 1, 8, 'escape'],
    ['{"a": 1', 1, 8, 'the end of the file'],
  ])('%j', (text, line, column, words) => {
    expect(() => JSON.parse(text)).toThrow();
    const error = describeJsonError(text);
    expect({ line: error.line, column: error.column }).toEqual({ line, column });
    expect(error.message).toContain(words);
  });
});

describe('scanKeys', () => {
  it('finds top-level keys and duplicates at any depth, ignoring keys inside strings', () => {
    const text = '{"a": "{\\"b\\": 1}", "c": {"d": 1, "d": 2}, "a": [ {"x": 1} ]}';
    const { topLevel, duplicates } = scanKeys(text);
    expect([...topLevel.keys()]).toEqual(['a', 'c']);
    expect(duplicates.map((d) => d.key)).toEqual(['d', 'a']);
  });
});
