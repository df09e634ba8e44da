import { describe, expect, it } from 'vitest';
import { positionOf, scanJson } from '../../src/core/json/scan-json.js';

describe('scanJson points at the mistake', () => {
  it.each([
    ['{\n  "name": "K",\n  "oops"\n}', 4, 1, 'expected ":"'],
    // A trailing comma is placed at the comma, not at the bracket a line below.
    ['{\n  "a": 1,\n}', 2, 9, 'trailing comma'],
    ['{\n  "a": 1,\n  \n}', 2, 9, 'trailing comma'],
    ['{"a": 1 // note\n}', 1, 9, 'comments'],
    ["{'a': 1}", 1, 2, 'property name'],
    ['{"a": [1, 2,]}', 1, 12, 'trailing comma'],
    ['[\n  1,\n  2 ,\n]', 3, 5, 'trailing comma'],
    ['{"a": "line\nbreak"}', 1, 12, 'line break'],
    ['{"a": tru}', 1, 7, 'unexpected'],
    ['{"a": 1} x', 1, 10, 'after the end'],
    ['{"a": "\\q"}', 1, 8, 'escape'],
    ['{"a": 1', 1, 8, 'found the end of the file'],
    ['{"a": ', 1, 7, 'the file ends where a value should be'],
    ['', 1, 1, 'the file ends where a value should be'],
    ['['.repeat(100_000), 1, 513, 'nested more than 512 levels deep here; the limit is 512'],
  ])('%j', (text, line, column, words) => {
    expect(() => JSON.parse(text)).toThrow();
    const scan = scanJson(text);
    if (scan.ok) throw new Error('expected a syntax error');
    expect(positionOf(text, scan.offset)).toEqual({ line, column });
    expect(scan.message).toContain(words);
  });
});

describe('scanJson on valid JSON', () => {
  it('records where keys sit and which repeat, ignoring keys inside strings', () => {
    const text = '{"a": "{\\"b\\": 1}", "c": {"d": 1, "d": 2}, "a": [ {"x/y": 1} ]}';
    const scan = scanJson(text);
    if (!scan.ok) throw new Error(scan.message);
    expect(scan.duplicates.map((d) => d.pointer)).toEqual(['/c/d', '/a']);
    expect(scan.offsets.get('/a')).toBe(1);
    expect(scan.offsets.has('/a/0/x~1y')).toBe(true);
  });
});

describe('a trailing comma in a manifest', () => {
  it('is reported by validate at the comma', async () => {
    const { validateBundle } = await import('../../src/core/validate.js');
    const { writeFolder, goodFiles } = await import('../helpers/bundles.js');
    const folder = writeFolder({ ...goodFiles(), 'manifest.json': '{\n  "name": "Kitchen",\n  "type": "standalone",\n}\n' });
    const report = await validateBundle(folder);
    expect(report.problems.find((p) => p.ruleId === 'manifest-syntax')).toMatchObject({ file: 'manifest.json', line: 3, column: 23 });
  });
});
